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
 *
 * Resuming. A follow resumed from a checkpoint has no window before its first: that one reaches
 * back to the recorded point, on the server's clock, and whether it did (and did not reach too
 * far) is judged from its answer's `Date` header (./resume-point.ts); until one has, the next
 * goes out at once.
 */
import type { Clock } from "../api/clock.js";
import type { GapMarker } from "../logs/model/log-line.js";
import { formatDuration } from "../text/duration.js";
import {
  judgeResumeWindow,
  type ResumePoint,
  type ResumeRefusal,
  type ResumeVerdict,
  refuseResume,
  resumeWindowSeconds,
  type TimeBounds,
} from "./resume-point.js";
import type { ServerClockEstimate } from "./server-clock.js";

/** The most a window adds for its request's way to the server (see allowance). */
export const MAX_ALLOWANCE_MS = 15_000;
/**
 * The most slack a follow records (see resumeSlackMs): whole seconds, a `Date` header's second,
 * and the way to the server and back at the largest allowance. A record holding more is refused.
 */
export const MAX_RESUME_SLACK_MS = slackWith(MAX_ALLOWANCE_MS);

/** A record's slack, with `allowanceMs` for the way to the server (see resumeSlackMs). */
function slackWith(allowanceMs: number): number {
  return 2500 + 2 * allowanceMs;
}
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
  /** A resumed first window (see ./resume-point.ts). */
  resume?: "window";
}

export interface WindowPlannerOptions {
  clock: Clock;
  serverClock: ServerClockEstimate;
  /** The largest overlap any window uses (`--overlap`). */
  maxOverlapMs: number;
  retentionMs: number;
  sinceMs?: number | undefined;
  tailLines?: number | undefined;
  /** Resumed from a checkpoint: the first window reaches back to this point (sinceMs and tailLines are not used). */
  resume?: ResumePoint | undefined;
}

/** A resumed first window's answers set aside before one is taken as it is (see ResumePoint). */
const MAX_SET_ASIDE = 3;

export class WindowPlanner {
  /** Monotonic ms at which the last request whose window was verified to cover was sent. */
  private coveredFrom: number | undefined;
  private latencyEma = 0;
  /**
   * Complete responses (no tailLines) still too recent to forget by: what response `response` did
   * not re-send lies no later than the server's time at monotonic `frontBy`.
   */
  private readonly absenceMarks: { response: number; frontBy: number }[] = [];

  /** Answers of the resumed first window set aside so far. */
  private setAside = 0;

  /** Monotonic ms of the first window's first try (see planFirst). */
  private firstTriedMono: number | undefined;

  constructor(private readonly o: WindowPlannerOptions) {}

  /** Whether the first window has been answered. */
  started(): boolean {
    return this.coveredFrom !== undefined;
  }

  /** Monotonic ms at which the last request known to have covered everything was sent. */
  coveredSince(): number | undefined {
    return this.coveredFrom;
  }

  /**
   * How far before its resume point a later follow's first window must be allowed to reach (ms):
   * whole seconds, the server's clock known to a second from one `Date` header, and the way to
   * the server and back (see ./resume-point.ts).
   */
  resumeSlackMs(): number {
    return slackWith(this.allowance());
  }

  /** Room in a window for its request's way to the server: twice the usual latency, bounded. */
  allowance(): number {
    return Math.min(MAX_ALLOWANCE_MS, Math.max(250, 2 * this.latencyEma));
  }

  /**
   * Bounds, on the resume point's clock, of a time between monotonic `sentMono` and `recvMono`
   * (an answer's: the server made it after the request was sent and before it came back).
   */
  private recordClock(sentMono: number, recvMono: number): TimeBounds {
    const { clock, serverClock, resume } = this.o;
    const wall = clock.now() - clock.monotonic();
    if (resume?.clock === "server") {
      if (serverClock.known())
        return {
          low: sentMono + serverClock.lowOffset(),
          high: recvMono + serverClock.highOffset(),
        };
      const offset = wall + (resume.serverMinusWallMs ?? 0);
      return { low: sentMono + offset, high: recvMono + offset };
    }
    return { low: sentMono + wall, high: recvMono + wall };
  }

  /**
   * The resumed first window: back to the resume point (see ./resume-point.ts), never longer
   * than the server keeps logs (a point further back is refused by the answer).
   */
  private planResume(point: ResumePoint, overlapMs: number): WindowPlan {
    const mono = this.o.clock.monotonic();
    const now = this.recordClock(mono, mono);
    const retentionSeconds = Math.floor(this.resumeRetentionMs(point) / 1000);
    const seconds = Math.min(resumeWindowSeconds(point, now, this.allowance()), retentionSeconds);
    return {
      request: { sinceSeconds: String(seconds) },
      windowMs: seconds * 1000,
      overlapMs,
      resume: "window",
    };
  }

  private resumeRetentionMs(point: ResumePoint): number {
    return point.retentionMs ?? this.o.retentionMs;
  }

  /**
   * The verdict on an answer to a resumed first window (before its lines are taken), and, once
   * answers were set aside too often, the point before which its new lines are dropped; or why
   * the point cannot be resumed from at all, with the record's clock at the answer.
   */
  judgeResume(
    plan: WindowPlan,
    sentMono: number,
    recvMono: number,
  ):
    | { verdict: ResumeVerdict; floorMs?: number }
    | { refused: ResumeRefusal; answeredAt: TimeBounds; retentionMs: number }
    | undefined {
    const point = this.o.resume;
    if (!point || plan.resume !== "window" || plan.windowMs === undefined) return undefined;
    const answeredAt = this.recordClock(sentMono, recvMono);
    const retentionMs = this.resumeRetentionMs(point);
    const refused = refuseResume(point, plan.windowMs, answeredAt, retentionMs);
    if (refused) return { refused, answeredAt, retentionMs };
    const verdict = judgeResumeWindow(point, plan.windowMs, answeredAt);
    if (verdict !== "set-aside") return { verdict };
    this.setAside += 1;
    if (this.setAside <= (point.maxSetAside ?? MAX_SET_ASIDE)) return { verdict };
    // Taken as it is: what lies past the slack is told by the next answers (see ResumePoint).
    const placed = judgeResumeWindow(
      { ...point, slackMs: Number.POSITIVE_INFINITY },
      plan.windowMs,
      this.recordClock(sentMono, recvMono),
    );
    return { verdict: placed, floorMs: point.fromMs - point.slackMs };
  }

  /**
   * Whether the window of an answer to `plan` (sent and received at these monotonic times)
   * surely began no earlier than a resumed follow's record stops keeping lines (`fromMs -
   * slackMs`, on the record's clock); false without a resume point or when it may have.
   */
  beganWithinSlack(plan: WindowPlan, sentMono: number, recvMono: number): boolean {
    const point = this.o.resume;
    if (!point || plan.windowMs === undefined || plan.request.tailLines !== undefined) return false;
    const bounds = this.recordClock(sentMono, recvMono);
    return judgeResumeWindow(point, plan.windowMs, bounds) !== "set-aside";
  }

  /** The request the next poll sends (with `overlapMs` of overlap), and any gap it must report. */
  plan(overlapMs: number): WindowPlan {
    if (this.coveredFrom === undefined && this.o.resume)
      return this.planResume(this.o.resume, overlapMs);
    if (this.coveredFrom === undefined) return this.planFirst(overlapMs);
    const { clock, retentionMs } = this.o;
    let windowMs = clock.monotonic() - this.coveredFrom + overlapMs + this.allowance();
    let gap: GapMarker | undefined;
    if (windowMs > retentionMs) {
      gap = this.pastRetention(this.coveredFrom, "no successful poll");
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
   * The first window: `sinceMs` back from the follow's first try, not from this one, so that
   * polls failing before the first answer do not move its start forward past lines it was asked
   * for (cut to what the server keeps, with the gap said); or the `tailLines` asked for.
   */
  private planFirst(overlapMs: number): WindowPlan {
    const request: LogRequest = {};
    const { sinceMs, tailLines, clock, retentionMs } = this.o;
    const now = clock.monotonic();
    this.firstTriedMono ??= now;
    let gap: GapMarker | undefined;
    if (sinceMs !== undefined && sinceMs > 0) {
      let reachMs = sinceMs + (now - this.firstTriedMono);
      if (reachMs > retentionMs && sinceMs <= retentionMs) {
        gap = this.pastRetention(this.firstTriedMono - sinceMs, "no answer to the first poll");
        reachMs = retentionMs;
      }
      request.sinceSeconds = String(Math.max(1, Math.ceil(reachMs / 1000)));
    }
    if (tailLines !== undefined && tailLines > 0) request.tailLines = tailLines;
    if (request.sinceSeconds === undefined || request.tailLines !== undefined)
      return { request, overlapMs };
    return {
      request,
      windowMs: Number(request.sinceSeconds) * 1000,
      overlapMs,
      ...(gap ? { gap } : {}),
    };
  }

  /**
   * The stretch from `fromMono` (monotonic) to what the server still keeps, which no window can
   * reach any more: said as a gap, `why` it was not asked for in time.
   */
  private pastRetention(fromMono: number, why: string): GapMarker {
    const { clock, serverClock, retentionMs } = this.o;
    const low = serverClock.lowOffset();
    const toServer = Number.isFinite(low) ? low : clock.now() - clock.monotonic();
    const now = clock.monotonic() + toServer;
    const from = fromMono + toServer;
    const to = now - retentionMs;
    return {
      kind: "gap",
      from,
      to,
      reason: `${why} for ${formatDuration(now - from)}, longer than the server keeps logs (${formatDuration(retentionMs)})`,
      sortKey: to,
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
    verdict?: ResumeVerdict,
  ): { covered: boolean; reachMs: number } {
    // A first window (ten minutes, or back to a resume point) is no measure of the usual answer;
    // but one that fell short of its resume point is asked again, and must allow for its way.
    if (plan.coveredFrom !== undefined || (plan.resume === "window" && verdict !== "covered"))
      this.noteLatency(sentMono, recvMono);
    if (plan.windowMs !== undefined && plan.request.tailLines === undefined)
      this.absenceMarks.push({ response, frontBy: recvMono - plan.windowMs });
    if (plan.resume === "window" && verdict !== "covered") {
      // Not back to the resume point yet: the next window, at once, reaches further.
      return { covered: false, reachMs: Number.POSITIVE_INFINITY };
    }
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

  /** A round trip, for the allowance. */
  noteLatency(sentMono: number, recvMono: number): void {
    const latency = recvMono - sentMono;
    this.latencyEma = this.latencyEma === 0 ? latency : 0.7 * this.latencyEma + 0.3 * latency;
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
