/**
 * Exactly-once filter for overlapping poll responses.
 *
 * A timestamped line is identified by (replica, seconds, nanos, content, k) where k counts the
 * identical (replica, seconds, nanos, content) lines before it in the same response: two
 * identical lines at the same nanosecond are two lines, and a re-sent one is recognised.
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
import { tsToMs } from "./log-line.js";

interface Seen {
  count: number;
  sortKey: number;
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
  seen: Map<string, Seen>;
  untimestamped: UntimestampedLine[];
}

export interface AcceptedEntry {
  entry: DebugLogEntry;
  sortKey: number;
}

export class Deduplicator {
  private readonly replicas = new Map<string, ReplicaMemory>();
  private responses = 0;

  /** Identities held, for tests and the memory figure. */
  size(): number {
    let n = 0;
    for (const r of this.replicas.values()) n += r.seen.size + r.untimestamped.length;
    return n;
  }

  private memory(label: string): ReplicaMemory {
    let m = this.replicas.get(label);
    if (!m) {
      m = { seen: new Map(), untimestamped: [] };
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
  ): AcceptedEntry[] {
    // Group positions per replica, keeping the response's order.
    const byReplica = new Map<string, number[]>();
    for (let i = 0; i < entries.length; i++) {
      const label = (entries[i] as DebugLogEntry).replicaLabel;
      let list = byReplica.get(label);
      if (!list) {
        list = [];
        byReplica.set(label, list);
      }
      list.push(i);
    }
    const isNew = new Uint8Array(entries.length);
    const sortKeys = new Float64Array(entries.length);

    for (const [label, positions] of byReplica) {
      const mem = this.memory(label);
      const occurrences = new Map<string, number>();
      const ids: (string | undefined)[] = new Array(positions.length);
      // Pass 1: timestamped lines.
      for (let p = 0; p < positions.length; p++) {
        const entry = entries[positions[p] as number] as DebugLogEntry;
        const ts = entry.line.ts;
        if (!ts) continue;
        const base = `${ts.seconds}.${ts.nanos}\u0000${entry.line.content}`;
        const k = (occurrences.get(base) ?? 0) + 1;
        occurrences.set(base, k);
        ids[p] = `${base}\u0000${k}`;
        sortKeys[positions[p] as number] = tsToMs(ts);
      }
      // Pass 2: untimestamped lines, by the interval between their timestamped neighbours.
      const lo = new Float64Array(positions.length).fill(Number.NEGATIVE_INFINITY);
      const hi = new Float64Array(positions.length).fill(Number.POSITIVE_INFINITY);
      let prev = Number.NEGATIVE_INFINITY;
      for (let p = 0; p < positions.length; p++) {
        if (ids[p] !== undefined) prev = sortKeys[positions[p] as number] as number;
        else lo[p] = prev;
      }
      let next = Number.POSITIVE_INFINITY;
      for (let p = positions.length - 1; p >= 0; p--) {
        if (ids[p] !== undefined) next = sortKeys[positions[p] as number] as number;
        else hi[p] = next;
      }

      for (let p = 0; p < positions.length; p++) {
        const pos = positions[p] as number;
        const id = ids[p];
        if (id !== undefined) {
          if (!mem.seen.has(id)) {
            mem.seen.set(id, { count: 1, sortKey: sortKeys[pos] as number });
            isNew[pos] = 1;
          }
          continue;
        }
        const content = (entries[pos] as DebugLogEntry).line.content;
        const l = lo[p] as number;
        const h = hi[p] as number;
        sortKeys[pos] = Number.isFinite(l) ? l : Number.isFinite(h) ? h : fallbackKey;
        const match = mem.untimestamped.find(
          (u) => u.matchedIn !== this.responses && u.content === content && u.lo <= h && l <= u.hi,
        );
        if (match) {
          match.matchedIn = this.responses;
          match.lo = Math.max(match.lo, l);
          match.hi = Math.min(match.hi, h);
          match.bound = Math.min(match.bound, h, serverNowUpper);
        } else {
          mem.untimestamped.push({
            content,
            lo: l,
            hi: h,
            bound: Math.min(h, serverNowUpper),
            matchedIn: this.responses,
          });
          isNew[pos] = 1;
        }
      }
    }
    this.responses += 1;

    const out: AcceptedEntry[] = [];
    for (let i = 0; i < entries.length; i++) {
      if (isNew[i])
        out.push({ entry: entries[i] as DebugLogEntry, sortKey: sortKeys[i] as number });
    }
    return out;
  }

  /**
   * Forgets identities of lines older than `cutoff` (server epoch ms). Identities are held in
   * arrival order, which is nearly time order, so the walk stops at the first one still needed;
   * anything it leaves behind is merely kept a little longer.
   */
  prune(cutoff: number): void {
    for (const [label, mem] of this.replicas) {
      for (const [id, seen] of mem.seen) {
        if (seen.sortKey >= cutoff) break;
        mem.seen.delete(id);
      }
      let drop = 0;
      while (drop < mem.untimestamped.length) {
        const u = mem.untimestamped[drop] as UntimestampedLine;
        if (!(u.bound < cutoff)) break;
        drop += 1;
      }
      if (drop > 0) mem.untimestamped.splice(0, drop);
      if (mem.seen.size === 0 && mem.untimestamped.length === 0) this.replicas.delete(label);
    }
  }
}
