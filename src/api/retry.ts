/**
 * The client's one retry mechanism: attempts of one request, with exponential backoff and jitter
 * between them, or exactly the delay a `Retry-After` asks for (within a cap). Which failures are
 * tried again is the caller's decision (./retry-decision.ts). p-retry runs the attempts
 * (counting, abort); the wait between two attempts is decided
 * here alone, in `delayBefore`, and slept in p-retry's `onFailedAttempt` (the way p-retry
 * documents custom delays), because p-retry's own delay depends on the attempt number only and so
 * could not honour a server's `Retry-After`. Its own delay is therefore zero: there is one wait.
 */
import pRetry from "p-retry";
import type { RetryDecision } from "./retry-decision.js";

/** At most this long can a Node timer wait; a longer delay would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The first backoff delay; it doubles with each retry, with jitter. */
  minDelayMs: number;
  /** The longest backoff delay. */
  maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer one ends the retries (see TooLongRetryAfter). */
  maxRetryAfterMs: number;
  /** A number in [0, 1); Math.random by default. */
  random?: () => number;
}

/** What `onRetry` is told before the wait that precedes the next attempt. */
export interface RetryInfo {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Retries that remain after the one about to be made (0: it is the last). */
  retriesLeft: number;
  error: Error;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Whether the delay is the server's `Retry-After`, rather than the client's own backoff. */
  retryAfter: boolean;
}

export interface RetryHooks {
  signal?: AbortSignal | undefined;
  /**
   * What to do after this failed attempt (./retry-decision.ts): back off, wait what the server
   * asked (`Retry-After`), or stop.
   */
  decide(error: Error): RetryDecision;
  /** The error to end with when the server asks for a longer wait than the policy allows. */
  tooLongRetryAfter(error: Error, retryAfterMs: number, maxMs: number): Error;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** The wait between two attempts: `sleep` below unless given (tests record the waits). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** The backoff before the retry that follows failed attempt `attempt` (from 1): equal jitter. */
export function backoffMs(attempt: number, policy: RetryPolicy): number {
  const random = policy.random ?? Math.random;
  const exponential = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Resolves after `ms` (at most MAX_TIMER_MS), or rejects with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait before the retry that follows failed attempt `attempt`, or the error that ends it. */
function delayBefore(
  attempt: number,
  error: Error,
  decision: RetryDecision,
  policy: RetryPolicy,
  hooks: RetryHooks,
): { delayMs: number; retryAfter: boolean } {
  if (decision.action !== "wait") return { delayMs: backoffMs(attempt, policy), retryAfter: false };
  const asked = decision.afterMs;
  if (asked > policy.maxRetryAfterMs) {
    throw hooks.tooLongRetryAfter(error, asked, policy.maxRetryAfterMs);
  }
  return { delayMs: Math.max(0, asked), retryAfter: true };
}

/**
 * Runs `attempt(1)`, and again after each retryable failure while retries remain. Resolves with
 * the first success; rejects with the last error, a TooLongRetryAfter's error, or the signal's
 * reason once it aborts.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks,
): Promise<T> {
  try {
    return await pRetry(attempt, {
      retries: policy.retries,
      // The wait is delayBefore's, slept in onFailedAttempt; p-retry adds none of its own.
      minTimeout: 0,
      maxTimeout: 0,
      randomize: false,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      shouldRetry: ({ error }) => hooks.decide(error).action !== "stop",
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        if (hooks.signal?.aborted) throw hooks.signal.reason;
        const decision = hooks.decide(error);
        if (retriesLeft <= 0 || decision.action === "stop") return;
        const { delayMs, retryAfter } = delayBefore(attemptNumber, error, decision, policy, hooks);
        hooks.onRetry?.({
          attempt: attemptNumber,
          retriesLeft: retriesLeft - 1,
          error,
          delayMs,
          retryAfter,
        });
        await (hooks.sleep ?? sleep)(delayMs, hooks.signal);
      },
    });
  } catch (err) {
    if (hooks.signal?.aborted) throw hooks.signal.reason;
    throw err;
  }
}
