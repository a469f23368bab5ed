/**
 * Window planning: how far back each poll asks (`sinceSeconds`), whether a response covered what
 * it had to, and when a remembered line can no longer come back.
 *
 * `get_tvc_deployment_debug_logs` filters with `sinceSeconds` on the server's clock, so a window
 * never needs that clock: on its own monotonic clock the follower measures the time since it sent
 * the last request known to have covered everything (`coveredFrom`), and asks for that, plus the
 * overlap (for lines that reach the server late: see ./arrival-meter.ts), plus an allowance for
 * the request's way to the server, in whole seconds. When the response is back it checks the
 * window covered the gap, round trip included; if it was too slow, `coveredFrom` does not move and
 * the next poll, at once, asks for a larger window. A client clock that is wrong by minutes does
 * not matter.
 *
 * Forgetting. A remembered line that a response did not re-send lies before that response's
 * window (a window loses lines only at its front): on the server's clock, no later than (its
 * arrival - its window), measured on ours. A later window sent at S asks for at most the time since
 * `coveredFrom` plus the overlap, allowance and rounding, so its front is no earlier than
 * `coveredFrom` minus those. So once `coveredFrom` is further past a response's front than any
 * window reaches back (the largest overlap + MAX_REACH_BACK_MS), what that response left out can
 * never be re-sent. No clock estimate or line timestamp enters: a line stamped an hour ahead is
 * remembered as long as the server keeps sending it, one stamped in 1970 too.
 */
import type { Clock } from "../api/clock.js";
import { formatDuration } from "../text/duration.js";
import type { GapMarker } from "./log-line.js";
import type { ServerClockEstimate } from "./server-clock.js";

/** The most a window adds for its request's way to the server (see allowanceMs). */
export const MAX_ALLOWANCE_MS = 15_000;
/**
 * How far a window reaches back behind `coveredFrom`, beyond the overlap, at most: the largest
 * allowance, a second of rounding to whole seconds, and a second for the two clocks drifting apart.
 */
const MAX_REACH_BACK_MS = MAX_ALLOWANCE_MS + 2000;

export interface LogRequest {
  sinceSeconds?: string;
  tailLines?: number;
}

export interface WindowPlan {
  request: LogRequest;
  /** The window asked for, ms (whole seconds), when the request names one. */
  windowMs?: number;
  /** A stretch the window cannot reach (an outage longer than the server keeps logs). */
  gap?: GapMarker;
  /** The overlap the window was sized with. */
  overlapMs: number;
  /** `coveredFrom` when planned (undefined for the first window). */
  coveredFrom?: number;
}

export interface WindowPlannerOptions {
  clock: Clock;
  serverClock: ServerClockEstimate;
  /** The largest overlap any window uses (`--overlap`). */
  maxOverlapMs: number;
  retentionMs: number;
  sinceMs?: number | undefined;
  tailLines?: number | undefined;
}

export class WindowPlanner {
  /** Monotonic ms at which the last request whose window was verified to cover was sent. */
  private coveredFrom: number | undefined;
  private latencyEma = 0;
  /**
   * Complete responses (no tailLines) still too recent to forget by: what response `response` did
   * not re-send lies no later than the server's time at monotonic `frontBy`.
   */
  private readonly absenceMarks: { response: number; frontBy: number }[] = [];

  constructor(private readonly o: WindowPlannerOptions) {}

  /** Whether the first window has been answered. */
  started(): boolean {
    return this.coveredFrom !== undefined;
  }

  /** Room in a window for its request's way to the server: twice the usual latency, bounded. */
  private allowanceMs(): number {
    return Math.min(MAX_ALLOWANCE_MS, Math.max(250, 2 * this.latencyEma));
  }

  /** The request the next poll sends (with `overlapMs` of overlap), and any gap it must report. */
  plan(overlapMs: number): WindowPlan {
    if (this.coveredFrom === undefined) {
      const request: LogRequest = {};
      const { sinceMs, tailLines } = this.o;
      if (sinceMs !== undefined && sinceMs > 0)
        request.sinceSeconds = String(Math.max(1, Math.ceil(sinceMs / 1000)));
      if (tailLines !== undefined && tailLines > 0) request.tailLines = tailLines;
      return request.sinceSeconds !== undefined && request.tailLines === undefined
        ? { request, windowMs: Number(request.sinceSeconds) * 1000, overlapMs }
        : { request, overlapMs };
    }
    const { clock, serverClock, retentionMs } = this.o;
    let windowMs = clock.monotonic() - this.coveredFrom + overlapMs + this.allowanceMs();
    let gap: GapMarker | undefined;
    if (windowMs > retentionMs) {
      const low = serverClock.lowOffset();
      const toServer = Number.isFinite(low) ? low : clock.now() - clock.monotonic();
      const now = clock.monotonic() + toServer;
      const from = this.coveredFrom + toServer;
      const to = now - retentionMs;
      gap = {
        kind: "gap",
        from,
        to,
        reason: `no successful poll for ${formatDuration(now - from)}, longer than the server keeps logs (${formatDuration(retentionMs)})`,
        sortKey: to,
      };
      windowMs = retentionMs;
    }
    const seconds = Math.max(1, Math.ceil(windowMs / 1000));
    return {
      request: { sinceSeconds: String(seconds) },
      windowMs: seconds * 1000,
      overlapMs,
      coveredFrom: this.coveredFrom,
      ...(gap ? { gap } : {}),
    };
  }

  /**
   * A response to `plan` (sent and received at these monotonic times, numbered `response` by the
   * de-duplicator): moves `coveredFrom` when the window covered everything since it. Returns
   * whether it did, and how far the window reached back before the last covered poll (ms).
   */
  settle(
    plan: WindowPlan,
    sentMono: number,
    recvMono: number,
    response: number,
  ): { covered: boolean; reachMs: number } {
    const latency = recvMono - sentMono;
    this.latencyEma = this.latencyEma === 0 ? latency : 0.7 * this.latencyEma + 0.3 * latency;
    if (plan.windowMs !== undefined && plan.request.tailLines === undefined)
      this.absenceMarks.push({ response, frontBy: recvMono - plan.windowMs });
    if (plan.coveredFrom === undefined || plan.gap) {
      // The first window, and a window cut to the server's retention, cover all there is.
      this.coveredFrom = sentMono;
      return { covered: true, reachMs: Number.POSITIVE_INFINITY };
    }
    const reachMs = (plan.windowMs ?? 0) - (recvMono - plan.coveredFrom);
    const covered = reachMs >= plan.overlapMs;
    if (covered) this.coveredFrom = sentMono;
    return { covered, reachMs };
  }

  /**
   * The response number before which what responses left out can be forgotten (see the header),
   * or undefined when nothing can be yet.
   */
  forgetBefore(): number | undefined {
    if (this.coveredFrom === undefined) return undefined;
    const cutoff = this.coveredFrom - this.o.maxOverlapMs - MAX_REACH_BACK_MS;
    let before: number | undefined;
    for (const mark of this.absenceMarks)
      if (mark.frontBy < cutoff && (before === undefined || mark.response > before))
        before = mark.response;
    if (before === undefined) return undefined;
    let used = 0;
    while (used < this.absenceMarks.length && (this.absenceMarks[used]?.response ?? 0) <= before)
      used++;
    this.absenceMarks.splice(0, used);
    return before;
  }
}
