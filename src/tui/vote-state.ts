/**
 * Voting on an activity from the dashboard (`A` approve, `R` reject): the confirmation showing
 * what is decided, the vote in flight, and its result, as a pure state with its own actions.
 * The lines come from the decision core (feeds/activity-decision.ts); the dashboard sends the
 * vote through the fetcher the CLI wired, and applies the answered activity to the store.
 */
import type { VoteAction } from "../feeds/activity-decision.js";

export type VoteUi =
  | {
      phase: "confirm" | "sending";
      action: VoteAction;
      activityId: string;
      fingerprint: string;
      /** `Approve this activity?` */
      question: string;
      /** What is decided (terminal-safe, the fingerprint whole). */
      lines: readonly string[];
    }
  | {
      phase: "done";
      action: VoteAction;
      activityId: string;
      /** `approved activity …: COMPLETED`, or the API's error in one line. */
      outcome: string;
      ok: boolean;
      lines: readonly string[];
    };

export type VoteUiAction =
  | {
      type: "openVote";
      action: VoteAction;
      activityId: string;
      fingerprint: string;
      question: string;
      lines: readonly string[];
    }
  | { type: "sendVote" }
  | { type: "voteDone"; activityId: string; outcome: string; ok: boolean }
  | { type: "closeVote" };

/** The next vote state; a result for another activity than the one shown is ignored. */
export function voteReducer(state: VoteUi | undefined, action: VoteUiAction): VoteUi | undefined {
  switch (action.type) {
    case "openVote":
      return {
        phase: "confirm",
        action: action.action,
        activityId: action.activityId,
        fingerprint: action.fingerprint,
        question: action.question,
        lines: action.lines,
      };
    case "sendVote":
      return state?.phase === "confirm" ? { ...state, phase: "sending" } : state;
    case "voteDone":
      if (!state || state.activityId !== action.activityId) return state;
      return {
        phase: "done",
        action: state.action,
        activityId: state.activityId,
        outcome: action.outcome,
        ok: action.ok,
        lines: state.lines,
      };
    case "closeVote":
      return undefined;
  }
}

/** What cancelling a confirmation says: nothing was sent. */
export function cancelledText(action: VoteAction): string {
  return `not ${action === "approve" ? "approved" : "rejected"}: cancelled, nothing was sent`;
}
