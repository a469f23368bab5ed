/**
 * How late lines reach the server, measured, and the overlap it calls for.
 *
 * The overlap is the part of a window that reaches back before the last covered poll, for lines
 * the server did not have yet when that poll was answered. Each such window re-sends what it
 * covers, so it is kept as small as what is measured allows:
 *
 * - A line is late when it first appears in a response after one whose window already covered
 *   its timestamp: its timestamp is no later than the server's time when the previous response
 *   was handled (a lower bound, from Date headers), and not before that window's front (older
 *   lines were never asked for). How late: that time minus its timestamp. One
 *   late line widens the overlap at once to twice the lateness (plus 250 ms) seen in the last
 *   minute; one nearly as late as the window reached, which may have had company that was not
 *   caught, widens it to the maximum (`--overlap`).
 * - A replica whose lines reach the server late but in order shows before any is lost: its newest
 *   line falls behind the server's clock by more than twice its usual gap between lines, and by
 *   half again as long as the longest it was quiet in the last minute (a replica that logs in
 *   bursts is often quiet for a while, and is not behind for that). The next window then reaches
 *   back to that line, so nothing after it can be missed, however late it comes (up to the
 *   maximum); only the next one: while it stays behind each poll asks again, and once its lines
 *   come, those that came late widen the overlap. A replica quiet for longer than the maximum is
 *   just quiet.
 * - The server's clock is known to within its Date headers' uncertainty (a second at first, less
 *   as responses come at different fractions of a second): a lag below that cannot be told from
 *   none, so the overlap never drops below it.
 * - While nothing is late the overlap eases back to its minimum, halving its excess every second
 *   and every 200 lines that could have come late and did not, whichever is later.
 *
 * Without Date headers nothing can be measured against the server's clock: the overlap stays at
 * its maximum. It starts there too, until the first polls have measured something.
 */

import type { ReplicaSummary } from "./deduplicator.js";

/** Late lines are remembered this long for the overlap they call for. */
const LATE_MEMORY_MS = 60_000;
/**
 * While nothing is late the overlap's excess over what is measured halves every second and every
 * 200 new timestamped lines, whichever comes later: easing needs lines that could have come late
 * and did not, not only time.
 */
const EASE_HALF_LIFE_MS = 1_000;
const EASE_HALF_LIFE_LINES = 200;
/** A late line within this of the window's reach may have had later company that was missed. */
const EDGE_MS = 500;
/** Margin added to every measured need. */
const MARGIN_MS = 250;

export interface ArrivalReport {
  /** Overlap the next window asks for, ms. */
  overlapMs: number;
  /** Lines that came late, since the start. */
  lateLines: number;
  /** The latest of them in the last minute, ms (0: none). */
  recentLateMs: number;
  /** The replica furthest behind the server's clock beyond its usual gap, and by how much. */
  lagging?: { replicaLabel: string; behindMs: number } | undefined;
  /** Whether lines are measured at all (a server clock from Date headers). */
  measured: boolean;
}

export interface ArrivalSample {
  /**
   * Bounds of the server's time (epoch ms) when this request was sent, and a lower bound of it
   * when the previous response was handled; ±Infinity without Date headers.
   */
  sentServerLow: number;
  sentServerHigh: number;
  previousServerLow: number;
  /**
   * A lower bound of the previous window's front (the oldest time it asked for, on the server's
   * clock); -Infinity when unknown. A line older than it was never asked for (the first window
   * was short, as with `--since 1s`): new to the follow, not late.
   */
  previousFrontLow?: number;
  /** How far this window reached back before the last covered poll (ms), for the edge rule. */
  reachMs: number;
  /** Timestamps (sort keys) of this response's new timestamped lines. */
  newKeys: readonly number[];
  /** What the response held of each replica. */
  replicas: readonly ReplicaSummary[];
  nowMono: number;
}

interface ReplicaPace {
  newest: number;
  /** Typical gap between its consecutive lines, ms (an average over recent responses). */
  gapMs: number;
  lastSeenMono: number;
  /** [monotonic ms, ms] of the longest quiet spell each recent response showed (the last minute). */
  quiet: [number, number][];
}

export class ArrivalMeter {
  private overlap: number;
  private lastMono: number | undefined;
  private late = 0;
  /** [monotonic ms, lateness ms] of recent late lines (the latest per poll). */
  private recent: [number, number][] = [];
  private readonly pace = new Map<string, ReplicaPace>();
  private lagging: ArrivalReport["lagging"];
  private measured = false;
  /** How far the next window reaches back for a replica behind (0: none), ms. */
  private reach = 0;

  constructor(
    readonly minOverlapMs: number,
    readonly maxOverlapMs: number,
  ) {
    this.overlap = maxOverlapMs;
  }

  report(): ArrivalReport {
    return {
      overlapMs: this.overlapMs(),
      lateLines: this.late,
      recentLateMs: this.recentLate(),
      lagging: this.lagging,
      measured: this.measured,
    };
  }

  overlapMs(): number {
    return Math.min(this.maxOverlapMs, Math.max(this.overlap, this.reach));
  }

  private recentLate(): number {
    let m = 0;
    for (const [, ms] of this.recent) if (ms > m) m = ms;
    return m;
  }

  /** One successful response. */
  observe(s: ArrivalSample): void {
    const spread = s.sentServerHigh - s.sentServerLow;
    if (!Number.isFinite(spread)) {
      this.overlap = this.maxOverlapMs;
      this.measured = false;
      this.lagging = undefined;
      this.reach = 0;
      this.lastMono = s.nowMono;
      return;
    }
    // Late lines: new, and no later than the server's time when the previous response was made.
    let latest = 0;
    let edge = false;
    if (Number.isFinite(s.previousServerLow)) {
      const front = s.previousFrontLow ?? Number.NEGATIVE_INFINITY;
      for (const key of s.newKeys) {
        if (!(key <= s.previousServerLow) || key < front) continue;
        const lateness = s.previousServerLow - key;
        this.late += 1;
        if (lateness > latest) latest = lateness;
        if (lateness >= s.reachMs - EDGE_MS) edge = true;
      }
    }
    // Each replica's pace, and the one furthest behind the server's clock beyond its usual gap:
    // its lines after its newest are all to come, so the next window reaches back to it.
    this.lagging = undefined;
    let reach = 0;
    for (const r of s.replicas) {
      let p = this.pace.get(r.replicaLabel);
      if (!p) {
        p = { newest: r.newest, gapMs: this.maxOverlapMs, lastSeenMono: s.nowMono, quiet: [] };
        this.pace.set(r.replicaLabel, p);
      }
      if (r.newCount >= 2 && r.newNewest > r.newOldest) {
        const gap = Math.min(this.maxOverlapMs, (r.newNewest - r.newOldest) / (r.newCount - 1));
        p.gapMs += (gap - p.gapMs) / 4;
      }
      // Spells longer than the largest overlap say nothing (a replica quiet that long is not
      // told from one behind anyway), nor does a line out of place.
      if (r.longestGap > 0 && r.longestGap <= this.maxOverlapMs)
        p.quiet.push([s.nowMono, r.longestGap]);
      while (p.quiet.length > 0 && (p.quiet[0] as [number, number])[0] < s.nowMono - LATE_MEMORY_MS)
        p.quiet.shift();
      p.newest = Math.max(p.newest, r.newest);
      p.lastSeenMono = s.nowMono;
    }
    for (const [label, p] of this.pace) {
      if (s.nowMono - p.lastSeenMono > LATE_MEMORY_MS) {
        this.pace.delete(label);
        continue;
      }
      // Certainly behind by more than twice its usual gap, and half again as long as the longest
      // it was quiet in the last minute: not merely quiet.
      let quiet = 2 * p.gapMs;
      for (const [, ms] of p.quiet) if (1.5 * ms > quiet) quiet = 1.5 * ms;
      const behindLow = s.sentServerLow - p.newest;
      const behindHigh = s.sentServerHigh - p.newest;
      if (behindLow > quiet + 50 && behindLow <= this.maxOverlapMs && behindHigh > reach) {
        reach = behindHigh;
        this.lagging = { replicaLabel: label, behindMs: behindLow };
      }
    }
    if (latest > 0) this.recent.push([s.nowMono, edge ? this.maxOverlapMs : latest]);
    while (
      this.recent.length > 0 &&
      (this.recent[0] as [number, number])[0] < s.nowMono - LATE_MEMORY_MS
    )
      this.recent.shift();
    const recentLate = this.recentLate();
    // Below the clock's uncertainty (plus a margin) no lag can be told apart from none: the
    // window always reaches back that far.
    const target = Math.min(
      this.maxOverlapMs,
      Math.max(this.minOverlapMs, spread + 50, recentLate > 0 ? 2 * recentLate + MARGIN_MS : 0),
    );
    // A replica behind: the next window reaches back to its newest line. Asked again at every
    // poll while it stays behind; once its lines come, any that came late widen the overlap.
    this.reach = reach > 0 ? reach + MARGIN_MS : 0;
    const halvings =
      this.lastMono === undefined
        ? 0
        : Math.min(
            (s.nowMono - this.lastMono) / EASE_HALF_LIFE_MS,
            s.newKeys.length / EASE_HALF_LIFE_LINES,
          );
    const eased = target + Math.max(0, this.overlap - target) * 0.5 ** halvings;
    this.overlap = Math.max(target, eased);
    this.lastMono = s.nowMono;
    this.measured = true;
  }
}
