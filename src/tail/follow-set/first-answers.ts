/**
 * The wait for the first answers of the deployments a follow starts with. Their first windows
 * reach back further than a merge holds lines, so a merged stream prints nothing before each has
 * answered (or failed, or gone away), for FIRST_ANSWERS_WAIT_MS at most: one that keeps failing
 * does not hold the others' lines. One that appears later is not waited for: its first lines may
 * be older than some already printed.
 */
import type { Clock } from "../../api/clock.js";

/** How long the first lines wait for every deployment's first answer, at most. */
export const FIRST_ANSWERS_WAIT_MS = 10_000;

export class FirstAnswers {
  private readonly unanswered: Set<string>;
  private readonly until: number;

  constructor(
    deploymentIds: Iterable<string>,
    private readonly clock: Clock,
    waitMs = FIRST_ANSWERS_WAIT_MS,
  ) {
    this.unanswered = new Set(deploymentIds);
    this.until = clock.monotonic() + waitMs;
  }

  /** The deployment answered, failed, stopped or went away: no longer waited for. */
  settled(deploymentId: string): void {
    this.unanswered.delete(deploymentId);
  }

  /** Whether the wait is over: every one has answered, or the time is up. */
  over(): boolean {
    return this.unanswered.size === 0 || this.clock.monotonic() > this.until;
  }
}
