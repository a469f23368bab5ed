/**
 * What the log says about an outage once it is over: the follow's state is watched as it changes;
 * from the first failed poll to the next one that succeeds, the span without an answer (from the
 * last answer, on the follow's own monotonic clock) and the polls that failed are counted, and on
 * recovery one marker is made for the log: "no answer 01:02:03–01:02:31 (28 s, 9 polls); lines of
 * that time were fetched after". Times as the dashboard shows them (the local zone); the marker
 * sorts at the server's time of the recovery. Each outage is also kept as a span (on the server's
 * clock, as the lines' times are: from, to, the polls that failed, why) for a ticket bundle
 * (./ticket-bundle.ts), the one under way too. Pure but for what it is handed.
 */

import type { ReplicaMarker } from "../../logs/model/log-line.js";
import type { FollowerState } from "../../tail/follower.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";

/** What the record is told at each change of the follow. */
export interface FollowMoment {
  state: FollowerState;
  /** Wall-clock epoch ms now (the dashboard's clock). */
  now: number;
  /** Now on the follow's monotonic clock (`lastSuccessAt` is on it). */
  monoNow: number;
}

interface Outage {
  /** Wall-clock epoch ms of the last answer before it (or of the first failure seen). */
  from: number;
  /** Failed polls in a row, the most the follow counted. */
  failed: number;
  /** Why the last poll failed, as the follow said it. */
  cause: string | undefined;
}

/** An outage as a bundle records it: epoch ms on the server's clock (the lines' times). */
export interface NoAnswerSpan {
  from: number;
  to: number;
  failedPolls: number;
  /** Why the last poll failed ("HTTP 503 …"); undefined when the follow did not say. */
  cause: string | undefined;
  /** Polls were still failing when the span was asked for: `to` is that moment. */
  ongoing: boolean;
}

/** The most spans kept (the oldest go first). */
export const MAX_SPANS = 1000;
/** The most of a cause kept with a span. */
const MAX_CAUSE = 500;

/** `01:02:03` in the local zone, as the dashboard's absolute timestamps show the time. */
export function clockTime(ms: number): string {
  return formatMsRfc3339(ms, false).slice(11, 19);
}

/** The marker's text. */
export function outageText(from: number, to: number, failed: number): string {
  const seconds = Math.max(0, Math.round((to - from) / 1000));
  const polls = `${failed} poll${failed === 1 ? "" : "s"}`;
  return `no answer ${clockTime(from)}–${clockTime(to)} (${seconds} s, ${polls}); lines of that time were fetched after`;
}

export class OutageRecord {
  private outage: Outage | undefined;
  private readonly ended: NoAnswerSpan[] = [];
  /** The server clock's offset from this machine's, as the follow last estimated it. */
  private offsetMs = 0;

  /** Whether polls are failing now (an outage not yet over). */
  get ongoing(): boolean {
    return this.outage !== undefined;
  }

  /** The follow changed: the marker to add to the log when this change ends an outage. */
  observe({ state, now, monoNow }: FollowMoment): ReplicaMarker | undefined {
    if (state.clockOffsetMs !== undefined) this.offsetMs = state.clockOffsetMs;
    if (state.phase === "retrying") {
      const cause = state.lastError?.slice(0, MAX_CAUSE);
      if (this.outage) {
        this.outage.failed = Math.max(this.outage.failed, state.retries);
        this.outage.cause = cause ?? this.outage.cause;
      } else {
        const since =
          state.lastSuccessAt === undefined
            ? now
            : now - Math.max(0, monoNow - state.lastSuccessAt);
        this.outage = { from: since, failed: Math.max(1, state.retries), cause };
      }
      return undefined;
    }
    const outage = this.outage;
    // Stopped or failed for good: no recovery to mark. (Starting again, it is still to come.)
    if (state.phase === "failed" || state.phase === "stopped") this.outage = undefined;
    if (state.phase !== "live" || !outage) return undefined;
    this.outage = undefined;
    this.ended.push(this.span(outage, now, false));
    if (this.ended.length > MAX_SPANS) this.ended.shift();
    return {
      kind: "replica",
      replicaLabel: "tvcwatch",
      text: outageText(outage.from, now, outage.failed),
      sortKey: now + (state.clockOffsetMs ?? 0),
    };
  }

  /**
   * Every outage recorded, oldest first: those that ended, then (when polls are failing at `now`,
   * wall-clock epoch ms) the one under way, up to now.
   */
  spans(now: number): NoAnswerSpan[] {
    return this.outage ? [...this.ended, this.span(this.outage, now, true)] : [...this.ended];
  }

  private span(outage: Outage, to: number, ongoing: boolean): NoAnswerSpan {
    return {
      from: outage.from + this.offsetMs,
      to: Math.max(outage.from, to) + this.offsetMs,
      failedPolls: outage.failed,
      cause: outage.cause,
      ongoing,
    };
  }
}
