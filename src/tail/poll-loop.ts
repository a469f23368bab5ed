/**
 * The follower's poll loop: when the next poll goes out, and the one sleep before it.
 *
 * Cadence. While lines flow, a poll goes out one interval after the previous one was sent
 * (not after it came back), so each window is the interval plus the overlap and allowance. Each
 * interval is moved by up to an eighth of it (250 ms at most) so that over 8 polls the send times
 * fall at every eighth of a second (quarters first): the responses' Date headers, of one-second
 * resolution, then pin the server's clock down to about a tenth of a second (see
 * ./server-clock.ts), which lets the overlap shrink (see ./arrival-meter.ts). On average the
 * interval is as given. While idle it stretches, up to 4×.
 * A response slower than its window covered is followed at once by a wider poll.
 *
 * Failures. A failed poll is one attempt (the client does not retry inside a follow); the backoff
 * counts failed polls in a row: 0.5-1 s after the first, doubling, capped at max(5 s, interval),
 * with equal jitter, so the server answering again is seen within the cap. A server's
 * `Retry-After` is waited exactly (up to 10 minutes). `retryNow` ends any wait at once.
 */
import { retryDecision } from "../api/retry-decision.js";

/** Moves of successive intervals, in units of an eighth of the interval: phases 0, 2, 4, 6, 7, 5, 3, 1. */
const PHASE_STEPS: readonly number[] = [1, 1, 1, 0.5, -1, -1, -1, -0.5];
/** At most this long is a server's Retry-After waited for. */
const MAX_RETRY_AFTER_MS = 600_000;

/** The wait after `failures` failed polls in a row (from 1). */
export function failedPollDelayMs(
  failures: number,
  intervalMs: number,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, retryAfterMs));
  const cap = Math.max(5000, intervalMs);
  const exponential = Math.min(cap, 1000 * 2 ** Math.min(20, Math.max(0, failures - 1)));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * The wait before the poll after a successful one: `poll` numbers the polls (for the spread),
 * `sinceSentMs` is how long ago the last one was sent, `idlePolls` how many in a row brought
 * nothing.
 */
export function nextPollDelayMs(o: {
  covered: boolean;
  intervalMs: number;
  idlePolls: number;
  poll: number;
  sinceSentMs: number;
}): number {
  if (!o.covered) return 0;
  const stretch = Math.min(4, 1 + Math.floor(o.idlePolls / 3));
  const spread =
    (PHASE_STEPS[o.poll % PHASE_STEPS.length] as number) * Math.min(o.intervalMs / 8, 250);
  return Math.max(0, Math.round(o.intervalMs * stretch + spread - o.sinceSentMs));
}

/**
 * Whether a failed poll ends the follow: a failure no retry can help (a redirect, a port fetch
 * refuses, a refused response), or the API saying the request itself is wrong (authentication,
 * permission, no such deployment, not in debug mode, invalid argument): ../api/retry-decision.ts.
 */
export function endsFollow(err: unknown): boolean {
  return retryDecision(err, "follow").action === "stop";
}

/** Resolves after `ms`, or as soon as `signal` aborts. The follower's only sleep. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
