/**
 * How long one piece of buffer-wide work may run on the main thread (judging lines against the
 * filters, finding a search's next match) before it stops and lets the event loop answer: keys,
 * q, Ctrl-C, SIGTERM, the next frame. Work that runs out says so (`exhausted`) and goes on in a
 * later slice from what it remembered, never from the start.
 */

/** One slice's share of a frame: what a view or a key may spend judging lines. */
export const SLICE_MS = 12;
/** The units any slice does before it looks at the clock: a small buffer is judged at once. */
const MIN_UNITS = 1024;

export class WorkBudget {
  private calls = 0;
  /** True once the deadline passed while work was asked for. */
  exhausted = false;

  private constructor(
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}

  /** A budget of `ms` from now, on `now` (performance.now unless a test gives its own). */
  static of(ms: number, now: () => number = () => performance.now()): WorkBudget {
    return new WorkBudget(now() + ms, now);
  }

  /** No deadline: the work is done whole (tests, the CLI, a save that must have every line). */
  static unlimited(): WorkBudget {
    return new WorkBudget(Number.POSITIVE_INFINITY, () => 0);
  }

  /**
   * Whether `cost` more units of work (a row judged is one) may run; false (and exhausted) once
   * the deadline passed.
   */
  allows(cost = 1): boolean {
    if (this.exhausted) return false;
    const before = this.calls;
    this.calls += cost;
    if (this.calls <= MIN_UNITS) return true;
    // The clock is read every 32 rows: reading it costs more than judging a row.
    if ((cost > 1 || (before & 31) === 0) && this.now() > this.deadline) this.exhausted = true;
    return !this.exhausted;
  }
}
