/**
 * What the answer to a vote says, and whether it is about the activity voted on: only then may
 * it replace that activity's row. An answer about another activity, or with another
 * fingerprint, reports nothing about this vote's effect.
 */
import type { Activity } from "../api/schemas.js";
import type { DecisionContext, VoteAction } from "./activity-decision.js";
import { decideActivity, outcomeLine } from "./activity-decision.js";
import { otherActivity, sameFingerprint, shownId } from "./activity-identity.js";

/** A vote sent: the activity and fingerprint it named. */
export interface SentVote {
  action: VoteAction;
  activityId: string;
  fingerprint: string;
}

export function voteAnswer(
  sent: SentVote,
  answered: Activity,
  context: DecisionContext,
): { outcome: string; ok: boolean; about: boolean } {
  const other =
    otherActivity(sent.activityId, answered) ??
    (sameFingerprint(answered.fingerprint, sent.fingerprint)
      ? undefined
      : `the server answered for activity ${shownId(answered.id)} with another fingerprint`);
  if (other) {
    return {
      outcome: `${other}: what the vote did is not known (Enter on activity ${shownId(sent.activityId)} shows it after the next poll)`,
      ok: false,
      about: false,
    };
  }
  const after = decideActivity(answered, context);
  return {
    outcome: outcomeLine(sent.action, after, context),
    ok: answered.status !== "ACTIVITY_STATUS_FAILED",
    about: true,
  };
}

/** What a vote that failed says: `not approved: <the error>`. */
export function voteFailed(action: VoteAction, error: string): string {
  return `not ${action === "approve" ? "approved" : "rejected"}: ${error}`;
}
