/**
 * Where a follow resumed from a checkpoint starts, on the clock the checkpoint was measured on:
 * the server's (from `Date` headers and the monotonic clock), or, for a server that sends no
 * `Date` header, this machine's.
 *
 * A checkpoint says: every line placed before `fromMs` by the server's window (`sinceSeconds`
 * counts back from the server's time) was handed on, or came later than the follow would have
 * waited for; and it holds the identities of the lines handed on that a window reaching back no
 * further than `fromMs - slackMs` can still send. So the resumed follow's first window must reach
 * back to `fromMs` (else lines are missed: it asks again, wider) and no further than
 * `fromMs - slackMs` (else it brings lines handed on before whose identities are no longer kept,
 * which cannot be told from new ones: the answer is set aside, and the window asked again with the
 * server's clock as that answer showed it). Whether it did is judged from the answer's `Date`
 * header, never from a line's timestamp.
 *
 * A checkpoint is input like any other: a point ahead of the server's clock at the answer (a
 * follow resumed from it would take a window of a second and skip every line since the real
 * point), or further back than the server keeps logs (no window reaches it), is refused, never
 * taken as it is or turned into a gap. Without `Date` headers the record's clock stands in.
 */

/**
 * The largest clock offset (server minus this machine) a record may hold: no larger than the
 * server keeps logs (Turnkey: 7 days), for a window further back than that reaches nothing.
 */
export const MAX_CLOCK_OFFSET_MS = 7 * 24 * 3_600_000;

/** The clock a checkpoint's times are on. */
export type RecordClock = "server" | "client";

export interface ResumePoint {
  /** Epoch ms on `clock`: the first window reaches back to it. */
  fromMs: number;
  /** How much further back the first window may reach, ms (Infinity: as far as it likes). */
  slackMs: number;
  clock: RecordClock;
  /** The server's clock minus this machine's when recorded (server clock only), to plan with. */
  serverMinusWallMs?: number | undefined;
  /**
   * After this many answers set aside, the next is taken as it is: a record of an older format,
   * or a connection too slow to place the window within the slack. Its new lines that their
   * timestamps place before `fromMs - slackMs` are held until an answer whose window began
   * within the slack: handed on if it holds them too (a line out of place, which the server sends
   * whatever the window), dropped if not (the server placed them before the slack: handed on
   * before the restart).
   */
  maxSetAside?: number;
  /**
   * How long the server keeps logs (default: the follower's): a point older than that is
   * reached as far as the server keeps, and the rest reported as a gap.
   */
  retentionMs?: number;
}

/** Bounds of a time on the record's clock (epoch ms). */
export interface TimeBounds {
  low: number;
  high: number;
}

/** The verdict on a resumed first window's answer. */
export type ResumeVerdict =
  /** It reached back to fromMs, not past the slack: the resume is done. */
  | "covered"
  /** Not past the slack, but not back to fromMs either: its lines are new; ask again, wider. */
  | "short"
  /** Past the slack: set it aside and ask again. */
  | "set-aside";

/** Why a resume point is refused: ahead of the clock it was recorded on, or out of reach. */
export type ResumeRefusal = "ahead" | "expired";

/**
 * Whether `point` can be resumed from at all, judged by an answer made (on the record's clock)
 * within `answeredAt` to a window of `windowMs`, when no window may be longer than `retentionMs`.
 */
export function refuseResume(
  point: ResumePoint,
  windowMs: number,
  answeredAt: TimeBounds,
  retentionMs: number,
): ResumeRefusal | undefined {
  if (point.fromMs > answeredAt.high) return "ahead";
  if (point.fromMs < answeredAt.low - retentionMs) return "expired";
  // The longest window there is fell short of the point: no window reaches it.
  if (windowMs >= retentionMs && judgeResumeWindow(point, windowMs, answeredAt) === "short")
    return "expired";
  return undefined;
}

/** Whole seconds a resumed first window asks for, sent when the record's clock reads `now`. */
export function resumeWindowSeconds(point: ResumePoint, now: TimeBounds, allowanceMs: number) {
  return Math.max(1, Math.ceil((now.high + allowanceMs - point.fromMs) / 1000));
}

/** Judges an answer to a window of `windowMs`, answered (record's clock) within `answeredAt`. */
export function judgeResumeWindow(
  point: ResumePoint,
  windowMs: number,
  answeredAt: TimeBounds,
): ResumeVerdict {
  const frontLow = answeredAt.low - windowMs;
  const frontHigh = answeredAt.high - windowMs;
  if (frontLow < point.fromMs - point.slackMs) return "set-aside";
  return frontHigh <= point.fromMs ? "covered" : "short";
}
