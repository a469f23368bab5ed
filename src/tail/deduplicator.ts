/**
 * Exactly-once filter for overlapping poll responses.
 *
 * A timestamped line is identified by (replica, seconds, nanos, content, k) where k counts the
 * identical (replica, seconds, nanos, content) lines before it in the same response: two
 * identical lines at the same nanosecond are two lines, and a re-sent one is recognised (see
 * ./timestamped-memory.ts).
 *
 * A line without a timestamp can only be placed between the timestamped lines of its replica
 * around it: its true time lies in [previous ts, next ts]. Each sighting gives such an interval,
 * and the neighbours only ever get closer (late lines land between; nothing after a line
 * vanishes), except that the front of a window falls away as it moves, and that a line out of
 * place (stamped a year ahead, say) may be sent for a while only (see nextWentFromBehind). So the untimestamped lines
 * of a replica are matched by sequence: the remembered ones still in the window come back in the
 * same order, each between neighbours consistent with what was remembered (see mayBeSameLine),
 * with new lines among and after them (see placeUntimestamped). Identical untimestamped lines are
 * counted, not collapsed. When a replica prints identical untimestamped lines and no timestamped
 * line for longer than a window, no client can tell old from new; the follower then assumes that
 * as few lines as possible fell off the front.
 *
 * Memory is bounded: `prune(before)` forgets the identities last sighted before a response the
 * caller names (one whose window's front has fallen so far behind that no later window can reach
 * back to anything it did not re-send). Timestamps play no part in forgetting: a line stamped an
 * hour ahead, or a day behind, is remembered exactly as long as the server keeps re-sending it.
 */
import type { DebugLogEntry } from "../api/schemas.js";
import { timestampSortKey } from "../logs/model/log-line.js";
import { TimestampedMemory } from "./timestamped-memory.js";

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
  /** Its previous timestamped neighbour, the latest sighted (sort key). */
  lo: number;
  /**
   * The low bound of the front (see WindowFront) of the last response in which a timestamped line
   * at `lo` lay before it, so that the window's front was then before `lo`; -Infinity when none.
   */
  loFrontLow: number;
  /** Its next timestamped neighbour, as last sighted (sort key; the closest one still there). */
  hi: number;
  /**
   * An upper bound of the server's time when it was first seen (+Infinity without Date
   * headers): with `hi`, an upper bound of its true time.
   */
  seenBy: number;
  /** The number of the last response that held it. */
  lastIn: number;
}

/**
 * Where a response's window began, on the monotonic clock: the server's clock less a constant
 * nobody knows (without Date headers), so only how far fronts moved between responses means
 * anything. The front of a window of `W` ms sent at S and answered at R lies in [S - W, R - W].
 */
export interface WindowFront {
  low: number;
  high: number;
  /**
   * A low bound of the front on the server's clock (from Date headers; -Infinity without them):
   * a line stamped at or before it is out of place, since the server sent it whatever the window.
   */
  serverLow: number;
}

/** What the response at hand tells mayBeSameLine about one replica. */
interface Sighted {
  /** The response's front (high bound), or +Infinity when its window is no time (tailLines). */
  frontHigh: number;
  /** Whether the response holds a timestamped line of the replica at this sort key. */
  holds: (key: number) => boolean;
}

/**
 * Whether a sighting between neighbours `l` and `h` (sort keys; -Infinity when no earlier
 * timestamped line of the replica is in the response, +Infinity when no later one) can be the
 * remembered line `u`. Neighbours only get closer as lines arrive, so `h` is at or before the
 * remembered next neighbour and `l` at or after the remembered previous one, unless the front of
 * the window has fallen away (then there is no `l`, and the line must still lie before `h`:
 * had the remembered previous neighbour at `u.lo` fallen away, so would `h`'s equals). A previous
 * neighbour before `u.lo` is the same case: the remembered one fell away, and what is left before
 * the line is a line out of place (stamped in 1970, say, and sent by every window). And `l` lies
 * before the line, so no later than its next neighbour or the server's time when the line was
 * first seen.
 *
 * An `h` after the remembered next neighbour is the line only if that neighbour went from behind
 * it (see nextWentFromBehind): then it was out of place (stamped a year ahead, say, and sent for
 * a few seconds), and bounds nothing.
 */
function mayBeSameLine(u: UntimestampedLine, l: number, h: number, now: Sighted): boolean {
  if (l > Math.min(u.hi, u.seenBy)) return false;
  if (h > u.hi && !nextWentFromBehind(u, l, now)) return false;
  return l >= u.lo || h > u.lo;
}

/**
 * Whether the remembered next neighbour of `u` (at `u.hi`), gone from the response, went from
 * behind the window's front rather than falling away at it. A window loses lines only at its
 * front, so a line in place after the front stays: the one at `u.hi` fell away only if the front
 * got past it, and then so did `u`, and the sighting is another line. The front is before the
 * sighting's previous neighbour when it is at or after `u.lo`; and it has moved on since a
 * response whose front was before `u.lo` (loFrontLow) no further than the fronts did on the
 * monotonic clock (the server's clock runs with it). Front before `u.hi`, and `u.hi` gone: it was
 * out of place. With Date headers a line stamped ahead of the server's clock is no neighbour in
 * the first place (see accept); without them this is how it is found out.
 */
function nextWentFromBehind(u: UntimestampedLine, l: number, now: Sighted): boolean {
  let frontBefore = Number.POSITIVE_INFINITY;
  if (Number.isFinite(l) && l >= u.lo) frontBefore = l;
  else if (Number.isFinite(u.loFrontLow) && now.frontHigh !== Number.POSITIVE_INFINITY)
    frontBefore = u.lo + (now.frontHigh - u.loFrontLow);
  return frontBefore <= u.hi && !now.holds(u.hi);
}

interface ReplicaMemory {
  /** Timestamped lines, by exact timestamp (see exactKey) and content. */
  timed: TimestampedMemory;
  untimestamped: UntimestampedLine[];
  /** Per response, forward pass: the sort key of the last timestamped line met. */
  prevKey: number;
  /** Per response: what it held of this replica (see ReplicaSummary). */
  summary: ReplicaSummary;
}

/** What one response held of one replica's timestamped lines. */
export interface ReplicaSummary {
  replicaLabel: string;
  /** The newest timestamp no later than the server's time (epoch ms), or -Infinity. */
  newest: number;
  /**
   * The longest time between two of its consecutive timestamped lines in the window, ms (those
   * ahead of the server's time left out).
   */
  longestGap: number;
  /** New lines, and the oldest and newest of their timestamps. */
  newCount: number;
  newOldest: number;
  newNewest: number;
  /** The response (number) it is about. */
  response: number;
}

/** The new entries of a response: their positions in it, every entry's sort key, and replicas. */
export interface Accepted {
  indexes: number[];
  keys: Float64Array;
  replicas: ReplicaSummary[];
}

function emptySummary(replicaLabel: string, response: number): ReplicaSummary {
  return {
    replicaLabel,
    newest: Number.NEGATIVE_INFINITY,
    longestGap: 0,
    newCount: 0,
    newOldest: Number.POSITIVE_INFINITY,
    newNewest: Number.NEGATIVE_INFINITY,
    response,
  };
}

export class Deduplicator {
  private readonly replicas = new Map<string, ReplicaMemory>();
  private responses = 0;
  /** Exact keys count nanoseconds from this second, so they stay integers below 2^53. */
  private base: number | undefined;

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
        summary: emptySummary(label, this.responses),
      };
      this.replicas.set(label, m);
    }
    return m;
  }

  /** The number the next response accepted gets (responses are numbered from 0). */
  nextResponse(): number {
    return this.responses;
  }

  /**
   * The entries of one response that were not seen before, in the response's order.
   * `fallbackKey` orders untimestamped lines of a replica that sent no timestamped line at all;
   * `serverNowUpper` is an upper bound of the server's time when it answered (+Infinity when
   * unknown), which bounds how long such lines must be remembered; `front`, where the window
   * began on the monotonic clock (undefined for a window of tailLines), tells a neighbour out of
   * place from one that fell away (see nextWentFromBehind).
   */
  accept(
    entries: readonly DebugLogEntry[],
    fallbackKey: number,
    serverNowUpper = Number.POSITIVE_INFINITY,
    front?: WindowFront,
  ): Accepted {
    const n = entries.length;
    const mems: ReplicaMemory[] = new Array(n);
    const keys = new Float64Array(n);
    const decided = new Uint8Array(n); // 1 = new, 2 = seen, 0 = untimestamped (decided below)
    const response = this.responses;
    // A neighbour of an untimestamped line is a timestamped line stamped within the window, on
    // the server's clock: one stamped before it began, or ahead of when it was answered, is out of
    // place (sent whatever the window, and perhaps only for a while).
    const windowFrom = front ? front.serverLow : Number.NEGATIVE_INFINITY;
    for (const m of this.replicas.values()) {
      m.timed.beginResponse();
      m.prevKey = Number.NEGATIVE_INFINITY;
      m.summary = emptySummary(m.summary.replicaLabel, response);
    }
    // One pass: replica, sort key, and the decision for every timestamped line.
    let untimestamped = 0;
    let lastLabel: string | undefined;
    let lastMem: ReplicaMemory | undefined;
    // Replicas met in this response: labels are fresh strings in every response, and comparing a
    // handful of them beats hashing each one into the map.
    const labelsMet: string[] = [];
    const memsMet: ReplicaMemory[] = [];
    let lastSecondsText: string | undefined;
    let lastSeconds = 0;
    for (let i = 0; i < n; i++) {
      const entry = entries[i] as DebugLogEntry;
      const label = entry.replicaLabel;
      let mem: ReplicaMemory;
      if (label === lastLabel && lastMem) mem = lastMem;
      else {
        let j = 0;
        while (j < labelsMet.length && labelsMet[j] !== label) j++;
        if (j < labelsMet.length) mem = memsMet[j] as ReplicaMemory;
        else {
          mem = this.memory(label);
          if (labelsMet.length < 16) {
            labelsMet.push(label);
            memsMet.push(mem);
          }
        }
      }
      lastLabel = label;
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
      const key = timestampSortKey(lastSeconds, nanos);
      const content = entry.line.content;
      if (!Number.isFinite(key)) {
        // A timestamp that is not a number: identified by its text, ordered by its neighbour.
        const sortKey = Number.isFinite(mem.prevKey) ? mem.prevKey : fallbackKey;
        keys[i] = sortKey;
        const text = `${ts.seconds}.${ts.nanos}`;
        decided[i] = mem.timed.sightByText(text, content, response) ? 1 : 2;
        continue;
      }
      keys[i] = key;
      if (key > windowFrom && key <= serverNowUpper) mem.prevKey = key;
      const exact = this.exactKey(lastSeconds, nanos);
      const isNew = Number.isNaN(exact)
        ? mem.timed.sightByText(`${ts.seconds}.${ts.nanos}`, content, response)
        : mem.timed.sight(exact, content, response);
      decided[i] = isNew ? 1 : 2;
      const sum = mem.summary;
      if (key > sum.newest && key <= serverNowUpper) {
        // The longest quiet spell between consecutive lines (in place) of the window.
        if (key - sum.newest > sum.longestGap && Number.isFinite(sum.newest))
          sum.longestGap = key - sum.newest;
        sum.newest = key;
      }
      if (isNew) {
        sum.newCount++;
        if (key < sum.newOldest) sum.newOldest = key;
        if (key > sum.newNewest) sum.newNewest = key;
      }
    }
    for (const m of this.replicas.values()) m.timed.endResponse();
    if (untimestamped > 0)
      this.placeUntimestamped(
        entries,
        mems,
        keys,
        decided,
        fallbackKey,
        windowFrom,
        serverNowUpper,
        front,
      );
    const indexes: number[] = [];
    for (let i = 0; i < n; i++) if (decided[i] === 1) indexes.push(i);
    const replicas: ReplicaSummary[] = [];
    for (const m of this.replicas.values())
      if (m.summary.response === response && Number.isFinite(m.summary.newest))
        replicas.push(m.summary);
    this.responses += 1;
    return { indexes, keys, replicas };
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

  /**
   * Decides the untimestamped lines of a response by sequence, replica by replica. A window loses
   * lines only at its front, so what a replica's response holds of its remembered untimestamped
   * lines is all of them but a first few (those that fell off), in the same order, with new lines
   * among and after them. The follower finds the fewest remembered lines that must have fallen
   * off for the rest to line up, in order, with sightings each may be (same content, neighbours
   * consistent: see mayBeSameLine); the sightings left over are new.
   */
  private placeUntimestamped(
    entries: readonly DebugLogEntry[],
    mems: ReplicaMemory[],
    keys: Float64Array,
    decided: Uint8Array,
    fallbackKey: number,
    windowFrom: number,
    serverNowUpper: number,
    front: WindowFront | undefined,
  ): void {
    const n = entries.length;
    const response = this.responses;
    // Each untimestamped entry's previous (keys[i] from pass 1) and next timestamped neighbour.
    const next = new Map<ReplicaMemory, number>();
    const hiOf = new Float64Array(n);
    const sightings = new Map<ReplicaMemory, number[]>();
    for (let i = n - 1; i >= 0; i--) {
      const mem = mems[i] as ReplicaMemory;
      if ((entries[i] as DebugLogEntry).line.ts) {
        // Out of place (see accept), it is no neighbour: a line stamped ahead of the server's
        // clock may be gone from the next answer.
        const key = keys[i] as number;
        if (key > windowFrom && key <= serverNowUpper) next.set(mem, key);
        continue;
      }
      hiOf[i] = next.get(mem) ?? Number.POSITIVE_INFINITY;
      let list = sightings.get(mem);
      if (!list) {
        list = [];
        sightings.set(mem, list);
      }
      list.push(i);
    }
    for (const [mem, reversed] of sightings) {
      const at = reversed.reverse();
      const remembered = mem.untimestamped;
      // The sort keys of the replica's timestamped lines in this response, gathered when first
      // asked (a remembered next neighbour that may have gone: see nextWentFromBehind).
      let held: Set<number> | undefined;
      const now: Sighted = {
        frontHigh: front ? front.high : Number.POSITIVE_INFINITY,
        holds: (key) => {
          if (!held) {
            held = new Set();
            for (let i = 0; i < n; i++)
              if (mems[i] === mem && (entries[i] as DebugLogEntry).line.ts)
                held.add(keys[i] as number);
          }
          return held.has(key);
        },
      };
      const may = (u: UntimestampedLine, i: number) =>
        u.content === (entries[i] as DebugLogEntry).line.content &&
        mayBeSameLine(u, keys[i] as number, hiOf[i] as number, now);
      // Whether remembered[from..] lines up with the sightings; fills `pairs` when asked.
      const linesUp = (from: number, pairs?: number[]): boolean => {
        let p = 0;
        for (let j = from; j < remembered.length; j++) {
          const u = remembered[j] as UntimestampedLine;
          while (p < at.length && !may(u, at[p] as number)) p++;
          if (p === at.length) return false;
          pairs?.push(p);
          p++;
        }
        return true;
      };
      // If remembered[k..] lines up, so does remembered[k+1..]: search the least such k.
      let lo = Math.max(0, remembered.length - at.length);
      let hi = remembered.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (linesUp(mid)) hi = mid;
        else lo = mid + 1;
      }
      const pairs: number[] = [];
      linesUp(lo, pairs);
      const matchedAt: (UntimestampedLine | undefined)[] = new Array(at.length);
      pairs.forEach((p, offset) => {
        matchedAt[p] = remembered[lo + offset];
      });
      const order: UntimestampedLine[] = [];
      for (let p = 0; p < at.length; p++) {
        const i = at[p] as number;
        const l = keys[i] as number;
        const h = hiOf[i] as number;
        let u = matchedAt[p];
        if (u) {
          // The front is before the previous neighbour in the window (an earlier front, before
          // an earlier `lo`, is before this one too).
          if (front && Number.isFinite(l) && l >= u.lo) u.loFrontLow = front.low;
          u.lo = Math.max(u.lo, l);
          // No later than the remembered one, unless that one went (see mayBeSameLine).
          u.hi = h;
          u.seenBy = Math.min(u.seenBy, serverNowUpper);
          u.lastIn = response;
          decided[i] = 2;
        } else {
          const content = (entries[i] as DebugLogEntry).line.content;
          u = {
            content,
            lo: l,
            loFrontLow: front && Number.isFinite(l) ? front.low : Number.NEGATIVE_INFINITY,
            hi: h,
            seenBy: serverNowUpper,
            lastIn: response,
          };
          decided[i] = 1;
        }
        order.push(u);
        keys[i] = Number.isFinite(l) ? l : Number.isFinite(h) ? h : fallbackKey;
      }
      // Remembered in the replica's order: those that fell off the front, then this response's.
      mem.untimestamped = lo === 0 ? order : remembered.slice(0, lo).concat(order);
    }
  }

  /**
   * Forgets the identities last sighted in a response numbered below `before`. Timestamped ones
   * are kept per replica in timestamp order (see ./timestamped-memory.ts); untimestamped ones in
   * arrival order, where those a response did not hold come first (they fell off the front), so
   * the walk over them stops at the first one still needed.
   */
  prune(before: number): void {
    for (const [label, mem] of this.replicas) {
      mem.timed.prune(before);
      let drop = 0;
      while (drop < mem.untimestamped.length) {
        if ((mem.untimestamped[drop] as UntimestampedLine).lastIn >= before) break;
        drop += 1;
      }
      if (drop > 0) mem.untimestamped.splice(0, drop);
      if (mem.timed.size() === 0 && mem.untimestamped.length === 0) this.replicas.delete(label);
    }
  }
}
