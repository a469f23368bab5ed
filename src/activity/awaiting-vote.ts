/**
 * Whether an activity awaits my vote: it awaits votes, and (once who is asking is known) I may
 * still approve or reject it. The dashboard counts these in its status line, `v` shows only
 * them, and the bell rings for the ones newly awaiting votes.
 */
import type { Activity } from "../api/schemas.js";
import { AWAITING_VOTES, type DecisionContext, decideActivity } from "./activity-decision.js";

export { AWAITING_VOTES };

/** Who is asking, the quorum and names, for votes: loading, loaded (with notes), or failed. */
export type VoteContext =
  | { state: "loading" }
  | { state: "loaded"; context: DecisionContext; notes: string[] }
  | { state: "failed"; error: string };

/**
 * Whether I may still vote on it: awaiting votes, and approve or reject allowed for me. While
 * who is asking is not known (loading, or whoami failed), every activity awaiting votes counts.
 */
export function awaitsMyVote(a: Activity, voteContext: VoteContext, now: number): boolean {
  if (a.status !== AWAITING_VOTES) return false;
  if (voteContext.state !== "loaded") return true;
  const d = decideActivity(a, { ...voteContext.context, now });
  return d.can.approve.allowed || d.can.reject.allowed;
}

/** The ids awaiting votes in `activities` that are not in `seen`: what the bell rings for. */
export function newlyAwaiting(
  activities: readonly Activity[],
  seen: ReadonlySet<string>,
): string[] {
  return activities.filter((a) => a.status === AWAITING_VOTES && !seen.has(a.id)).map((a) => a.id);
}
