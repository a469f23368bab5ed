/**
 * The simulated debug logs of one deployment: every replica prints lines at a Poisson rate, each
 * with a platform timestamp. Generation is lazy (up to the server's "now" on each request), so an
 * idle simulator costs nothing, and lines older than the retention window are dropped, so memory
 * stays bounded.
 *
 * A line is "generated" at its timestamp. With ingest lag it becomes visible to queries only some
 * time after that (up to the lag); the truth file records it when it is generated.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { nextBurst } from "./log-templates.js";
import type { Random } from "./random.js";

export interface StoredLine {
  /** Platform time in epoch ms (fractional), the sort key. */
  key: number;
  seconds: number;
  nanos: number;
  /** False for the few lines the platform could not timestamp: `ts` is left out of the entry. */
  hasTs: boolean;
  content: string;
  label: string;
  /** Server time from which queries can see the line (ingest lag). */
  visibleAt: number;
  /** The entry's JSON, made once when first served. */
  json?: string;
}

export interface DebugLogEntryOut {
  line: { content: string; ts?: { seconds: string; nanos: string } };
  replicaLabel: string;
}

export interface DebugLogOptions {
  replicas: number;
  /** Lines per second per replica. */
  logRate: number;
  retentionMs: number;
  ingestLagMs: number;
  /** Server time the logs start at. */
  startMs: number;
  /** The incident scenario restarts a replica and changes the replica count once. */
  incident: boolean;
  truthFile?: string | undefined;
}

interface Slot {
  index: number;
  nextAt: number;
  /** Restart window: no lines in [from, to), then start-up lines. */
  downFrom?: number;
  downTo?: number;
  restarted?: boolean;
}

const RESTART_AT_MS = 45_000;
const RESTART_DOWN_MS = 6_000;
const SCALE_AT_MS = 90_000;

export class DebugLogs {
  private readonly byLabel = new Map<string, StoredLine[]>();
  private readonly slots: Slot[] = [];
  private generatedUntil: number;
  private seq = 0;
  private truthFd: number | undefined;
  private readonly scaledReplicas: number;

  constructor(
    private readonly rng: Random,
    private readonly options: DebugLogOptions,
  ) {
    this.generatedUntil = options.startMs;
    this.scaledReplicas = options.incident ? options.replicas + 1 : options.replicas;
    for (let i = 1; i <= this.scaledReplicas; i++) {
      const slot: Slot = {
        index: i,
        nextAt: options.startMs + rng.exponential(1000 / options.logRate),
      };
      if (options.incident && i === Math.min(2, options.replicas)) {
        slot.downFrom = options.startMs + RESTART_AT_MS;
        slot.downTo = options.startMs + RESTART_AT_MS + RESTART_DOWN_MS;
      }
      this.slots.push(slot);
    }
    if (options.truthFile) this.truthFd = openSync(options.truthFile, "w", 0o644);
  }

  close(): void {
    if (this.truthFd !== undefined) closeSync(this.truthFd);
    this.truthFd = undefined;
  }

  /** How many replicas run at server time t. */
  replicaCountAt(t: number): number {
    return this.options.incident && t >= this.options.startMs + SCALE_AT_MS
      ? this.scaledReplicas
      : this.options.replicas;
  }

  /** Lines held now, over every replica. */
  size(): number {
    let n = 0;
    for (const lines of this.byLabel.values()) n += lines.length;
    return n;
  }

  private store(line: StoredLine, truth: string[]): void {
    let lines = this.byLabel.get(line.label);
    if (!lines) {
      lines = [];
      this.byLabel.set(line.label, lines);
    }
    // Keys within one replica are non-decreasing by construction; keep the array sorted.
    lines.push(line);
    if (this.truthFd !== undefined) {
      truth.push(
        JSON.stringify({
          replicaLabel: line.label,
          ts: line.hasTs ? { seconds: String(line.seconds), nanos: String(line.nanos) } : null,
          content: line.content,
        }),
      );
    }
  }

  private emit(slot: Slot, at: number, truth: string[]): void {
    const count = this.replicaCountAt(at);
    if (slot.index > count) return;
    if (
      slot.downFrom !== undefined &&
      slot.downTo !== undefined &&
      at >= slot.downFrom &&
      at < slot.downTo
    )
      return;
    const label = `replica ${slot.index}/${count}`;
    let lines: string[];
    let same = false;
    if (slot.downTo !== undefined && at >= slot.downTo && !slot.restarted) {
      slot.restarted = true;
      lines = [
        "INFO  boot: enclave app restarting after a crash (exit code 137)",
        "INFO  boot: listening on vsock port 3000",
      ];
    } else {
      const burst = nextBurst(this.rng, ++this.seq);
      lines = burst.lines;
      same = burst.sameTimestamp;
    }
    let seconds = Math.floor(at / 1000);
    let nanos = Math.floor((at - seconds * 1000) * 1e6);
    for (const content of lines) {
      const hasTs = !this.rng.chance(0.02);
      const key = seconds * 1000 + nanos / 1e6;
      const lag = this.options.ingestLagMs > 0 ? this.rng.next() * this.options.ingestLagMs : 0;
      this.store({ key, seconds, nanos, hasTs, content, label, visibleAt: key + lag }, truth);
      if (!same) {
        nanos += this.rng.int(1, 900);
        if (nanos >= 1e9) {
          seconds += 1;
          nanos -= 1e9;
        }
      }
    }
  }

  /** Generates every line due up to server time `now`, and drops what retention no longer keeps. */
  advance(now: number): void {
    if (now <= this.generatedUntil) return;
    const truth: string[] = [];
    const meanGap = 1000 / this.options.logRate;
    // Emit in time order across slots so the truth file reads chronologically.
    for (;;) {
      let next: Slot | undefined;
      for (const slot of this.slots) if (!next || slot.nextAt < next.nextAt) next = slot;
      if (!next || next.nextAt > now) break;
      this.emit(next, next.nextAt, truth);
      next.nextAt += Math.max(0.001, this.rng.exponential(meanGap));
    }
    this.generatedUntil = now;
    if (this.truthFd !== undefined && truth.length > 0)
      writeSync(this.truthFd, `${truth.join("\n")}\n`);
    this.dropOlderThan(now - this.options.retentionMs);
  }

  private dropOlderThan(cutoff: number): void {
    for (const [label, lines] of this.byLabel) {
      let i = 0;
      while (i < lines.length && (lines[i] as StoredLine).key < cutoff) i++;
      if (i === lines.length) this.byLabel.delete(label);
      else if (i > 0) lines.splice(0, i);
    }
  }

  /**
   * The entries a query returns at server time `now`: newer than `sinceSeconds` (0 = no limit),
   * the last `tailLines` per replica (0 = no limit), sorted by platform timestamp.
   */
  private queryLines(now: number, sinceSeconds: number, tailLines: number): StoredLine[] {
    this.advance(now);
    const cutoff = sinceSeconds > 0 ? now - sinceSeconds * 1000 : Number.NEGATIVE_INFINITY;
    const perReplica: StoredLine[][] = [];
    for (const lines of this.byLabel.values()) {
      let lo = 0;
      let hi = lines.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((lines[mid] as StoredLine).key > cutoff) hi = mid;
        else lo = mid + 1;
      }
      const visible: StoredLine[] = [];
      for (let i = lo; i < lines.length; i++) {
        const line = lines[i] as StoredLine;
        if (line.visibleAt <= now && line.key <= now) visible.push(line);
      }
      perReplica.push(
        tailLines > 0 && visible.length > tailLines ? visible.slice(-tailLines) : visible,
      );
    }
    return mergeByKey(perReplica);
  }

  /** The query's response body, `{"entries":[...]}`, from each line's JSON made once. */
  queryJson(now: number, sinceSeconds: number, tailLines: number): string {
    const lines = this.queryLines(now, sinceSeconds, tailLines);
    const parts: string[] = new Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i] as StoredLine;
      l.json ??= JSON.stringify(toEntry(l));
      parts[i] = l.json;
    }
    return `{"entries":[${parts.join(",")}]}`;
  }

  query(now: number, sinceSeconds: number, tailLines: number): DebugLogEntryOut[] {
    return this.queryLines(now, sinceSeconds, tailLines).map(toEntry);
  }
}

/** Merges lists each sorted by key into one sorted list; ties keep the earlier list first. */
function mergeByKey(lists: StoredLine[][]): StoredLine[] {
  const out: StoredLine[] = [];
  const at = lists.map(() => 0);
  for (;;) {
    let best = -1;
    let bestKey = Number.POSITIVE_INFINITY;
    for (let r = 0; r < lists.length; r++) {
      const line = (lists[r] as StoredLine[])[at[r] as number];
      if (line && line.key < bestKey) {
        best = r;
        bestKey = line.key;
      }
    }
    if (best < 0) return out;
    out.push((lists[best] as StoredLine[])[at[best] as number] as StoredLine);
    at[best] = (at[best] as number) + 1;
  }
}

function toEntry(l: StoredLine): DebugLogEntryOut {
  return {
    line: l.hasTs
      ? { content: l.content, ts: { seconds: String(l.seconds), nanos: String(l.nanos) } }
      : { content: l.content },
    replicaLabel: l.label,
  };
}
