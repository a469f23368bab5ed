/**
 * `tvcwatch activity wait ID`: polls get_activity until the activity ends (COMPLETED, FAILED or
 * REJECTED) or the deadline's signal aborts, telling each change of where it stands (status,
 * votes) once. A poll that fails for a reason another poll may not meet (the network, a 5xx
 * after the client's retries) is said once and the wait goes on; any other failure ends it.
 */
import { retryDecision } from "../../../api/retry-decision.js";
import type { Activity } from "../../../api/schemas.js";

export type WaitOutcome =
  | { kind: "completed" | "failed" | "rejected"; activity: Activity }
  | { kind: "timeout"; activity: Activity | undefined; lastError: string | undefined };

export interface WaitDeps {
  /** get_activity, abandoned when `signal` aborts. */
  getActivity(signal: AbortSignal): Promise<Activity>;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Where the activity stands, in one line (changes are reported). */
  describe(activity: Activity): string;
  report(line: string): void;
}

const OUTCOMES: Readonly<Record<string, "completed" | "failed" | "rejected">> = {
  ACTIVITY_STATUS_COMPLETED: "completed",
  ACTIVITY_STATUS_FAILED: "failed",
  ACTIVITY_STATUS_REJECTED: "rejected",
};

/** Whether another poll may fare better than this failed one: as the client's own retries. */
function transient(err: unknown): boolean {
  return retryDecision(err, "request").action !== "stop";
}

export async function waitForActivity(
  deps: WaitDeps,
  intervalMs: number,
  deadline: AbortSignal,
): Promise<WaitOutcome> {
  let last: Activity | undefined;
  let lastLine: string | undefined;
  let lastError: string | undefined;
  for (;;) {
    try {
      const activity = await deps.getActivity(deadline);
      last = activity;
      lastError = undefined;
      const line = deps.describe(activity);
      if (line !== lastLine) deps.report(line);
      lastLine = line;
      const outcome = OUTCOMES[activity.status];
      if (outcome) return { kind: outcome, activity };
    } catch (err) {
      if (transient(err)) {
        const message = (err as Error).message;
        if (message !== lastError) deps.report(`poll failed: ${message}; still waiting`);
        lastError = message;
        lastLine = undefined;
      }
      if (deadline.aborted) return { kind: "timeout", activity: last, lastError };
      if (!transient(err)) throw err;
    }
    try {
      await deps.sleep(intervalMs, deadline);
    } catch {
      return { kind: "timeout", activity: last, lastError };
    }
  }
}
