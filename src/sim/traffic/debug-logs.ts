/**
 * The simulated debug logs of one deployment: every replica prints lines at a Poisson rate, each
 * with a platform timestamp.
 *
 * Time is cut into one-second buckets counted from the simulator's start, and the lines of one
 * replica in one bucket come from a generator seeded by (seed, replica, bucket) alone. So a seed
 * gives the same lines at the same offsets whatever the requests, and generation can skip ahead:
 * on each request lines are generated up to the server's "now", starting no earlier than the
 * retention window. An idle simulator costs nothing, waking after hours costs one window, and
 * memory stays bounded by the window.
 *
 * What "generated" means: a line is generated when the first request arrives at or after its
 * timestamp (and within retention of it). It is then stored and written to the truth file. With
 * ingest lag it stays invisible to queries until `timestamp + lag` (each line draws its own lag,
 * up to the configured one), so the truth file holds lines a query cannot see yet; it never holds
 * a line before its timestamp has passed on the server's clock.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { Random } from "../random.js";
import { nextBurst } from "./log-templates.js";
import type { ServiceLineSource } from "./service-lines.js";

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
  /**
   * The incident scenario: a replica's errors rise (upstream timeouts as its memory fills), it
   * crashes and restarts; later the replica count changes once.
   */
  incident: boolean;
  truthFile?: string | undefined;
  /**
   * What the app's services print about the organization's traffic (./service-lines.ts), each
   * line at its moment on one of the replicas running then; none when absent.
   */
  services?: ServiceLineSource | undefined;
}

/** One replica's generator state. */
interface Replica {
  index: number;
  /** Restart window: no lines in [downFrom, downTo), then start-up lines at downTo. */
  downFrom?: number;
  /** From then until downFrom, most of its lines are errors (what led to the crash). */
  stormFrom?: number;
  downTo?: number;
  /** The next bucket to generate. */
  nextBucket: number;
  /** Lines of generated buckets whose timestamps are still ahead of the server's clock. */
  pending: StoredLine[];
}

const BUCKET_MS = 1000;
/**
 * How far ahead of the server's clock lines are already printed: the bucket holding `now` is
 * generated whole when its first moment is due. A service's line about something that happens
 * now (a vote cast) is printed only when it comes later than this.
 */
export const PRINTED_AHEAD_MS = BUCKET_MS;
/**
 * Incident scenario: replica 2's errors rise from 30 s, it goes down at 45 s for 6 s; a replica
 * is added at 90 s.
 */
export const INCIDENT_ERRORS_FROM_MS = 30_000;
export const INCIDENT_RESTART_AT_MS = 45_000;
export const INCIDENT_RESTART_DOWN_MS = 6_000;
export const INCIDENT_SCALE_AT_MS = 90_000;
/** What the replica prints while its errors rise before the crash. */
const STORM_LINES = [
  "ERROR signer: upstream timeout after 5000ms (pool exhausted: 64 of 64 connections busy)",
  "ERROR signer: enclave heap at 97% of 2 GiB, request dropped",
];
const RESTART_LINES = [
  "INFO  boot: enclave app restarting after a crash (exit code 137)",
  "INFO  boot: listening on vsock port 3000",
];

/** murmur3's 32-bit finalizer: spreads every input bit over the output. */
function mix32(h: number): number {
  let x = h >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

export class DebugLogs {
  private readonly byLabel = new Map<string, StoredLine[]>();
  private readonly replicas: Replica[] = [];
  private readonly seed: number;
  private readonly scaledReplicas: number;
  private generatedUntil: number;
  private truthFd: number | undefined;

  constructor(
    rng: Random,
    private readonly options: DebugLogOptions,
  ) {
    this.seed = rng.int(0, 0xffffffff);
    this.generatedUntil = options.startMs;
    this.scaledReplicas = options.incident ? options.replicas + 1 : options.replicas;
    for (let index = 1; index <= this.scaledReplicas; index++) {
      const replica: Replica = { index, nextBucket: 0, pending: [] };
      if (options.incident && index === Math.min(2, options.replicas)) {
        replica.stormFrom = options.startMs + INCIDENT_ERRORS_FROM_MS;
        replica.downFrom = options.startMs + INCIDENT_RESTART_AT_MS;
        replica.downTo = replica.downFrom + INCIDENT_RESTART_DOWN_MS;
      }
      this.replicas.push(replica);
    }
    if (options.truthFile) this.truthFd = openSync(options.truthFile, "w", 0o644);
  }

  close(): void {
    if (this.truthFd !== undefined) closeSync(this.truthFd);
    this.truthFd = undefined;
  }

  /** How many replicas run at server time t. */
  replicaCountAt(t: number): number {
    return this.options.incident && t >= this.options.startMs + INCIDENT_SCALE_AT_MS
      ? this.scaledReplicas
      : this.options.replicas;
  }

  /**
   * The replicas at server time t as the cluster counts them (get_app_status): `desired` as
   * scaled then, `ready` those of them running (a replica in its restart window is not), and
   * `since` when either last changed (the start at the latest).
   */
  replicasAt(t: number): { ready: number; desired: number; since: number } {
    const desired = this.replicaCountAt(t);
    const changes: number[] = [];
    if (this.options.incident) changes.push(this.options.startMs + INCIDENT_SCALE_AT_MS);
    let ready = 0;
    for (const { index, downFrom, downTo } of this.replicas) {
      if (index > desired) continue;
      if (downFrom !== undefined && downTo !== undefined) {
        changes.push(downFrom, downTo);
        if (t >= downFrom && t < downTo) continue;
      }
      ready++;
    }
    const since = Math.max(this.options.startMs, ...changes.filter((at) => at <= t));
    return { ready, desired, since };
  }

  /** Lines held now, over every replica. */
  size(): number {
    let n = 0;
    for (const lines of this.byLabel.values()) n += lines.length;
    return n;
  }

  /** Every line one replica prints in one bucket, sorted by timestamp (ties in print order). */
  private generateBucket(replica: Replica, bucket: number): StoredLine[] {
    const from = this.options.startMs + bucket * BUCKET_MS;
    const to = from + BUCKET_MS;
    const rng = new Random(mix32(this.seed ^ mix32(replica.index * 0x9e3779b1 + mix32(bucket))));
    const meanGap = 1000 / this.options.logRate;
    const out: StoredLine[] = [];
    let sorted = true;
    const print = (at: number, lines: readonly string[], sameTimestamp: boolean) => {
      const count = this.replicaCountAt(at);
      if (replica.index > count) return;
      const label = `replica ${replica.index}/${count}`;
      let seconds = Math.floor(at / 1000);
      let nanos = Math.floor((at - seconds * 1000) * 1e6);
      for (const content of lines) {
        const key = seconds * 1000 + nanos / 1e6;
        const hasTs = !rng.chance(0.02);
        const lag = this.options.ingestLagMs > 0 ? rng.next() * this.options.ingestLagMs : 0;
        const last = out[out.length - 1];
        if (last && last.key > key) sorted = false;
        out.push({ key, seconds, nanos, hasTs, content, label, visibleAt: key + lag });
        if (!sameTimestamp) {
          // Lines printed together are a few hundred nanoseconds apart.
          nanos += rng.int(1, 900);
          if (nanos >= 1e9) {
            seconds += 1;
            nanos -= 1e9;
          }
        }
      }
    };
    const { downFrom, downTo, stormFrom } = replica;
    if (downTo !== undefined && downTo >= from && downTo < to) print(downTo, RESTART_LINES, false);
    let n = 0;
    for (let at = from + rng.exponential(meanGap); at < to; at += rng.exponential(meanGap)) {
      if (downFrom !== undefined && downTo !== undefined && at >= downFrom && at < downTo) continue;
      if (stormFrom !== undefined && downFrom !== undefined && at >= stormFrom && at < downFrom) {
        if (rng.chance(0.7)) {
          print(at, [rng.pick(STORM_LINES)], false);
          continue;
        }
      }
      const burst = nextBurst(rng, bucket * 100_000 + n++);
      print(at, burst.lines, burst.sameTimestamp);
    }
    for (const line of this.options.services?.linesDuring(from, to) ?? []) {
      if (this.printerOf(line.id, line.at) === replica.index) print(line.at, [line.content], false);
    }
    // Array.prototype.sort is stable: lines with equal timestamps keep their print order.
    return sorted ? out : out.sort((a, b) => a.key - b.key);
  }

  /** The replica that prints a service's line about record `id` at `at`: one running then. */
  private printerOf(id: string, at: number): number | undefined {
    const count = this.replicaCountAt(at);
    const up = this.replicas.filter(
      (r) =>
        r.index <= count &&
        (r.downFrom === undefined || r.downTo === undefined || at < r.downFrom || at >= r.downTo),
    );
    let h = 0;
    for (let i = 0; i < id.length; i++) h = mix32(h ^ id.charCodeAt(i));
    return up[h % up.length]?.index;
  }

  /** Generates every line due up to server time `now`, and drops what retention no longer keeps. */
  advance(now: number): void {
    if (now <= this.generatedUntil) return;
    const cutoff = now - this.options.retentionMs;
    const lastBucket = Math.floor((now - this.options.startMs) / BUCKET_MS);
    const firstKeptBucket = Math.max(0, Math.floor((cutoff - this.options.startMs) / BUCKET_MS));
    const released: StoredLine[] = [];
    for (const replica of this.replicas) {
      if (replica.nextBucket < firstKeptBucket) replica.nextBucket = firstKeptBucket;
      for (; replica.nextBucket <= lastBucket; replica.nextBucket++) {
        appendInOrder(replica.pending, this.generateBucket(replica, replica.nextBucket));
      }
      let due = 0;
      while (due < replica.pending.length && (replica.pending[due] as StoredLine).key <= now) due++;
      for (const line of replica.pending.splice(0, due)) {
        if (line.key < cutoff) continue;
        this.store(line);
        released.push(line);
      }
    }
    this.generatedUntil = now;
    if (this.truthFd !== undefined && released.length > 0) {
      // The truth file reads chronologically across replicas.
      released.sort((a, b) => a.key - b.key);
      writeSync(this.truthFd, `${released.map(truthRecord).join("\n")}\n`);
    }
    this.dropOlderThan(cutoff);
  }

  private store(line: StoredLine): void {
    let lines = this.byLabel.get(line.label);
    if (!lines) {
      lines = [];
      this.byLabel.set(line.label, lines);
    }
    // Released in timestamp order per replica, after everything released before: stays sorted.
    lines.push(line);
  }

  private dropOlderThan(cutoff: number): void {
    for (const [label, lines] of this.byLabel) {
      const keep = firstAfter(lines, cutoff, true);
      if (keep === lines.length) this.byLabel.delete(label);
      else if (keep > 0) lines.splice(0, keep);
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
      const visible: StoredLine[] = [];
      for (let i = firstAfter(lines, cutoff, false); i < lines.length; i++) {
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

/** Index of the first line with key > cutoff (or >= cutoff when `inclusive`), by binary search. */
function firstAfter(lines: readonly StoredLine[], cutoff: number, inclusive: boolean): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const key = (lines[mid] as StoredLine).key;
    if (inclusive ? key >= cutoff : key > cutoff) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Appends sorted `more` to sorted `into`, keeping it sorted. A burst printed at the very end of a
 * bucket can spill a few nanoseconds into the next; those lines are placed after every line with
 * an equal or earlier timestamp.
 */
function appendInOrder(into: StoredLine[], more: readonly StoredLine[]): void {
  for (const line of more) {
    let at = into.length;
    while (at > 0 && (into[at - 1] as StoredLine).key > line.key) at--;
    if (at === into.length) into.push(line);
    else into.splice(at, 0, line);
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

function truthRecord(l: StoredLine): string {
  return JSON.stringify({
    replicaLabel: l.label,
    ts: l.hasTs ? { seconds: String(l.seconds), nanos: String(l.nanos) } : null,
    content: l.content,
  });
}
