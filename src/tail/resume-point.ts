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
 */

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
