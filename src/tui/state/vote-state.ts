/**
 * Voting on an activity from the dashboard (`A` approve, `R` reject): the confirmation showing
 * what is decided, the vote in flight, and its result, as a pure state with its own actions.
 * The lines come from the decision core (activity/activity-decision.ts); what the answer to a
 * vote means, from activity/vote-answer.ts.
 */
import type { VoteAction } from "../../activity/activity-decision.js";
import type { DecodedSummary } from "../../activity/decode/decoded-intent.js";

/** What every phase shows: what is decided (kept in view) and the rest (scrolled). */
interface VoteShown {
  action: VoteAction;
  activityId: string;
  /** The fingerprint shown when the confirmation opened: the one the vote names. */
  fingerprint: string;
  /** `Approve this activity?` */
  question: string;
  /** The verb and type, id, the whole fingerprint, the quorum, what an export lets out. */
  header: readonly string[];
  /** What the activity signs in one line, below the header (src/activity/decode). */
  summary?: DecodedSummary | undefined;
  /** Creator, votes by name, root users, intent, what this vote does, notes. */
  details: readonly string[];
  /** How far the details are scrolled (↑ ↓ PgUp PgDn). */
  scroll: number;
}

export type VoteUi =
  | (VoteShown & { phase: "confirm" | "sending" })
  | (VoteShown & {
      phase: "done";
      /** `approved activity …: COMPLETED`, or the API's error in one line. */
      outcome: string;
      ok: boolean;
    });

export type VoteUiAction =
  | {
      type: "openVote";
      action: VoteAction;
      activityId: string;
      fingerprint: string;
      question: string;
      header: readonly string[];
      summary?: DecodedSummary | undefined;
      details: readonly string[];
    }
  | { type: "sendVote" }
  | { type: "voteDone"; activityId: string; outcome: string; ok: boolean }
  /** The details scrolled by `by` rows, within 0..max. */
  | { type: "scrollVote"; by: number; max: number }
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
        header: action.header,
        ...(action.summary ? { summary: action.summary } : {}),
        details: action.details,
        scroll: 0,
      };
    case "sendVote":
      return state?.phase === "confirm" ? { ...state, phase: "sending" } : state;
    case "voteDone":
      if (state?.phase !== "sending" || state.activityId !== action.activityId) return state;
      return { ...state, phase: "done", outcome: action.outcome, ok: action.ok };
    case "scrollVote":
      if (!state) return state;
      return { ...state, scroll: Math.max(0, Math.min(action.max, state.scroll + action.by)) };
    case "closeVote":
      return undefined;
  }
}

/** What cancelling a confirmation says: nothing was sent. */
export function cancelledText(action: VoteAction): string {
  return `not ${action === "approve" ? "approved" : "rejected"}: cancelled, nothing was sent`;
}
