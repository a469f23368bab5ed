/**
 * Exactly-once filter for overlapping poll responses.
 *
 * A timestamped line is identified by (replica, seconds, nanos, content, k) where k counts the
 * identical (replica, seconds, nanos, content) lines before it in the same response: two
 * identical lines at the same nanosecond are two lines, and a re-sent one is recognised (see
 * ./timestamped-memory.ts).
 *
 * A line without a timestamp can only be placed between the timestamped lines of its replica
 * around it: its true time lies in [previous ts, next ts]. Each sighting gives such an interval;
 * sightings of the same line always overlap, and the interval only narrows as more lines become
 * visible, even when late lines land between. A sighting matches a remembered line of the same
 * replica and content whose interval overlaps, each remembered line at most once per response
 * (so identical untimestamped lines are counted, not collapsed).
 *
 * Memory is bounded: `prune(cutoff)` forgets identities older than what any later window can
 * still re-send.
 */
import type { DebugLogEntry } from "../api/schemas.js";
import { TimestampedMemory } from "./timestamped-memory.js";

/** Every this many prunes, one walks all untimestamped identities, not only up to the first kept. */
const FULL_PRUNE_EVERY = 16;

/** A string of ASCII digits as a number, quickly (a nanos field); anything else as Number does. */
function parseDigits(text: string): number {
  const len = text.length;
  if (len === 0 || len > 15) return Number(text);
  let n = 0;
  for (let i = 0; i < len; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(text);
    n = n * 10 + d;
  }
  return n;
}

interface UntimestampedLine {
  content: string;
  lo: number;
  hi: number;
  /** An upper bound of its true time: its next neighbour, or the server's time when first seen. */
  bound: number;
  /** The response that last matched it, so one response matches it once. */
  matchedIn: number;
}

interface ReplicaMemory {
  /** Timestamped lines, by exact timestamp (see exactKey) and content. */
  timed: TimestampedMemory;
  untimestamped: UntimestampedLine[];
  /** Per response, forward pass: the sort key of the last timestamped line met. */
  prevKey: number;
}

/** The new entries of a response: their positions in it, and every entry's sort key. */
export interface Accepted {
  indexes: number[];
  keys: Float64Array;
}

export class Deduplicator {
  private readonly replicas = new Map<string, ReplicaMemory>();
  private responses = 0;
  private prunes = 0;
  /** Exact keys count nanoseconds from this second, so they stay integers below 2^53. */
  private base: number | undefined;
  /** The newest timestamp of the last response (epoch ms), or -Infinity. */
  newest = Number.NEGATIVE_INFINITY;

  /** Identities held, for tests and the memory figure. */
  size(): number {
    let n = 0;
    for (const r of this.replicas.values()) n += r.timed.size() + r.untimestamped.length;
    return n;
  }

  private memory(label: string): ReplicaMemory {
    let m = this.replicas.get(label);
    if (!m) {
      m = {
        timed: new TimestampedMemory(),
        untimestamped: [],
        prevKey: Number.NEGATIVE_INFINITY,
      };
      this.replicas.set(label, m);
    }
    return m;
  }

  /**
   * The entries of one response that were not seen before, in the response's order.
   * `fallbackKey` orders untimestamped lines of a replica that sent no timestamped line at all;
   * `serverNowUpper` is an upper bound of the server's time when it answered (+Infinity when
   * unknown), which bounds how long such lines must be remembered.
   */
  accept(
    entries: readonly DebugLogEntry[],
    fallbackKey: number,
    serverNowUpper = Number.POSITIVE_INFINITY,
  ): Accepted {
    const n = entries.length;
    this.newest = Number.NEGATIVE_INFINITY;
    const mems: ReplicaMemory[] = new Array(n);
    const keys = new Float64Array(n);
    const decided = new Uint8Array(n); // 1 = new, 2 = seen, 0 = untimestamped (decided below)
    const response = this.responses;
    for (const m of this.replicas.values()) {
      m.timed.beginResponse();
      m.prevKey = Number.NEGATIVE_INFINITY;
    }
    // One pass: replica, sort key, and the decision for every timestamped line.
    let untimestamped = 0;
    let lastLabel: string | undefined;
    let lastMem: ReplicaMemory | undefined;
    let lastSecondsText: string | undefined;
    let lastSeconds = 0;
    for (let i = 0; i < n; i++) {
      const entry = entries[i] as DebugLogEntry;
      const mem =
        entry.replicaLabel === lastLabel && lastMem ? lastMem : this.memory(entry.replicaLabel);
      lastLabel = entry.replicaLabel;
      lastMem = mem;
      mems[i] = mem;
      const ts = entry.line.ts;
      if (!ts) {
        keys[i] = mem.prevKey;
        untimestamped++;
        continue;
      }
      if (ts.seconds !== lastSecondsText) {
        lastSecondsText = ts.seconds;
        lastSeconds = Number(ts.seconds);
      }
      const nanos = parseDigits(ts.nanos);
      const key = lastSeconds * 1000 + nanos / 1e6;
      const content = entry.line.content;
      if (!Number.isFinite(key)) {
        // A timestamp that is not a number: identified by its text, ordered by its neighbour.
        const sortKey = Number.isFinite(mem.prevKey) ? mem.prevKey : fallbackKey;
        keys[i] = sortKey;
        const text = `${ts.seconds}.${ts.nanos}`;
        decided[i] = mem.timed.sightByText(text, sortKey, content, response) ? 1 : 2;
        continue;
      }
      keys[i] = key;
      mem.prevKey = key;
      if (key > this.newest) this.newest = key;
      const exact = this.exactKey(lastSeconds, nanos);
      const isNew = Number.isNaN(exact)
        ? mem.timed.sightByText(`${ts.seconds}.${ts.nanos}`, key, content, response)
        : mem.timed.sight(exact, content, response);
      decided[i] = isNew ? 1 : 2;
    }
    if (untimestamped > 0)
      this.placeUntimestamped(entries, mems, keys, decided, fallbackKey, serverNowUpper);
    const indexes: number[] = [];
    for (let i = 0; i < n; i++) if (decided[i] === 1) indexes.push(i);
    this.responses += 1;
    return { indexes, keys };
  }

  /**
   * A timestamp as a number of nanoseconds from a base second: exact (an integer below 2^53) for
   * ±90 days around the first line seen, and cheap to compare. Beyond that NaN, and the caller
   * keys by its text.
   */
  private exactKey(seconds: number, nanos: number): number {
    this.base ??= seconds;
    const rel = seconds - this.base;
    if (
      Number.isInteger(seconds) &&
      Number.isInteger(nanos) &&
      nanos >= 0 &&
      nanos < 1e9 &&
      Math.abs(rel) < 8_000_000
    ) {
      return rel * 1e9 + nanos;
    }
    return Number.NaN;
  }

  /** Decides the untimestamped lines of a response by the interval between their neighbours. */
  private placeUntimestamped(
    entries: readonly DebugLogEntry[],
    mems: ReplicaMemory[],
    keys: Float64Array,
    decided: Uint8Array,
    fallbackKey: number,
    serverNowUpper: number,
  ): void {
    const next = new Map<ReplicaMemory, number>();
    const hiOf = new Float64Array(entries.length);
    for (let i = entries.length - 1; i >= 0; i--) {
      const mem = mems[i] as ReplicaMemory;
      if ((entries[i] as DebugLogEntry).line.ts) next.set(mem, keys[i] as number);
      else hiOf[i] = next.get(mem) ?? Number.POSITIVE_INFINITY;
    }
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as DebugLogEntry;
      if (entry.line.ts) continue;
      const mem = mems[i] as ReplicaMemory;
      const content = entry.line.content;
      const l = keys[i] as number;
      const h = hiOf[i] as number;
      keys[i] = Number.isFinite(l) ? l : Number.isFinite(h) ? h : fallbackKey;
      const match = mem.untimestamped.find(
        (u) => u.matchedIn !== this.responses && u.content === content && u.lo <= h && l <= u.hi,
      );
      if (match) {
        match.matchedIn = this.responses;
        match.lo = Math.max(match.lo, l);
        match.hi = Math.min(match.hi, h);
        match.bound = Math.min(match.bound, h, serverNowUpper);
        decided[i] = 2;
      } else {
        mem.untimestamped.push({
          content,
          lo: l,
          hi: h,
          bound: Math.min(h, serverNowUpper),
          matchedIn: this.responses,
        });
        decided[i] = 1;
      }
    }
  }

  /**
   * Forgets identities of lines older than `cutoff` (server epoch ms). Timestamped lines are held
   * in timestamp order and pruned exactly. Untimestamped ones are held in arrival order, which is
   * nearly time order, so the walk stops at the first one still needed (anything it leaves behind
   * is merely kept a little longer); every FULL_PRUNE_EVERY-th call walks them all, so one
   * placed far ahead of the others cannot hold back the pruning of those after it.
   */
  prune(cutoff: number): void {
    this.prunes += 1;
    const full = this.prunes % FULL_PRUNE_EVERY === 0;
    // In exact-key units; rounded down, so nothing a later window can re-send is forgotten.
    const cutoffKey =
      this.base === undefined
        ? Number.NEGATIVE_INFINITY
        : Math.floor((cutoff - this.base * 1000) * 1e6);
    for (const [label, mem] of this.replicas) {
      mem.timed.prune(cutoffKey, cutoff);
      if (full) {
        mem.untimestamped = mem.untimestamped.filter((u) => !(u.bound < cutoff));
      } else {
        let drop = 0;
        while (drop < mem.untimestamped.length) {
          const u = mem.untimestamped[drop] as UntimestampedLine;
          if (!(u.bound < cutoff)) break;
          drop += 1;
        }
        if (drop > 0) mem.untimestamped.splice(0, drop);
      }
      if (mem.timed.size() === 0 && mem.untimestamped.length === 0) this.replicas.delete(label);
    }
  }
}
