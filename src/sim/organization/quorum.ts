/**
 * The root quorum's rules for votes: who may vote on an activity awaiting consensus, and where
 * the votes stand against the threshold. For activities submitted to the simulator and for the
 * generated queue alike.
 */
import { failedPrecondition, permissionDenied } from "../http/sim-error.js";
import type { OrgState, UserRecord, VoteRecord } from "./org-state.js";

export type Tally = "approved" | "rejected" | "waiting";

/** Throws Turnkey's error unless `voter` may vote on the activity now. */
export function checkVoter(
  activity: { id: string; status: string; votes: readonly VoteRecord[] },
  state: OrgState,
  voter: UserRecord,
): void {
  if (activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    throw failedPrecondition(
      `activity ${activity.id} is ${activity.status}, not awaiting consensus`,
    );
  }
  if (!state.rootQuorum.userIds.includes(voter.userId)) {
    throw permissionDenied(
      `request not authorized: user ${voter.userName} is not in the root quorum, so cannot vote on activity ${activity.id}`,
    );
  }
  if (activity.votes.some((v) => v.userId === voter.userId)) {
    throw failedPrecondition(`user ${voter.userName} has already voted on activity ${activity.id}`);
  }
}

/**
 * "approved" once `threshold` root users approved, "rejected" once too few root users are left
 * to approve, else "waiting".
 */
export function tally(votes: readonly VoteRecord[], quorum: OrgState["rootQuorum"]): Tally {
  const count = (selection: VoteRecord["selection"]) =>
    votes.filter((v) => v.selection === selection && quorum.userIds.includes(v.userId)).length;
  if (count("VOTE_SELECTION_APPROVED") >= quorum.threshold) return "approved";
  if (quorum.userIds.length - count("VOTE_SELECTION_REJECTED") < quorum.threshold)
    return "rejected";
  return "waiting";
}
