/**
 * Approving and rejecting in the dashboard (`A`, `R`, then `y`): who is asking and the quorum
 * (the vote context, read once through whoami), the confirmation that says what is decided, and
 * the vote sent, whose answered activity replaces its row at once. A key pressed before whoami
 * answered goes on as soon as it has.
 */
import type { MutableRefObject } from "react";
import { useEffect, useRef, useState } from "react";
import type { VoteAction } from "../activity/activity-decision.js";
import { confirmation, decideActivity } from "../activity/activity-decision.js";
import type { VoteContext } from "../activity/awaiting-vote.js";
import { voteAnswer } from "../activity/vote-answer.js";
import type { Activity } from "../api/schemas.js";
import type { ActivityVoting } from "../feeds/dashboard-sources.js";
import type { FeedStore } from "../feeds/feed-store.js";
import { describeError } from "../feeds/poller.js";
import type { UiAction, UiState } from "./ui-state.js";

/** The vote context, loaded once when voting is available. */
export function useVoteContext(voting: ActivityVoting | undefined): VoteContext {
  const [voteContext, setVoteContext] = useState<VoteContext>({ state: "loading" });
  useEffect(() => {
    if (!voting) return;
    const controller = new AbortController();
    voting.loadContext(controller.signal).then(
      ({ context, notes }) => setVoteContext({ state: "loaded", context, notes }),
      (err: unknown) => {
        if (!controller.signal.aborted)
          setVoteContext({ state: "failed", error: describeError(err) });
      },
    );
    return () => controller.abort();
  }, [voting]);
  return voteContext;
}

export interface VoteFlowOptions {
  voting: ActivityVoting | undefined;
  voteContext: VoteContext;
  /** The activities feed: an answered vote's activity replaces its row. */
  activities: FeedStore<Activity[]>;
  /** The activity of the row with this key (as the pane showed it); undefined when it is gone. */
  activityFor: (key: string) => Activity | undefined;
  latest: MutableRefObject<UiState>;
  apply: (action: UiAction) => void;
}

/** `startVote` for A and R, `sendVote` for y (the key step's effects). */
export function useVoteFlow(options: VoteFlowOptions): {
  startVote: (action: VoteAction, key: string) => void;
  sendVote: () => void;
} {
  const { voting, voteContext, activities, activityFor, latest, apply } = options;
  const pendingVote = useRef<{ action: VoteAction; key: string } | undefined>(undefined);
  /** A or R on the activity of the row `key`: say why not, or show what is decided and wait for y. */
  const startVote = (action: VoteAction, key: string) => {
    const activity = activityFor(key);
    if (!activity)
      return apply({
        type: "notice",
        text: "the selected activity is no longer listed: nothing to vote on",
      });
    if (!voting) return apply({ type: "notice", text: "voting is not available here" });
    if (voteContext.state === "loading") {
      // Who is asking is still being read: the confirmation opens as soon as it is known.
      pendingVote.current = { action, key };
      return apply({ type: "notice", text: "reading who you are (whoami) before the vote…" });
    }
    if (voteContext.state === "failed")
      return apply({ type: "notice", text: `cannot vote: ${voteContext.error}` });
    const context = { ...voteContext.context, now: Date.now() };
    const decision = decideActivity(activity, context);
    const check = decision.can[action];
    if (!check.allowed) return apply({ type: "notice", text: `cannot ${action}: ${check.why}` });
    const { question, header, details } = confirmation(decision, action, context);
    // The fingerprint shown now is the one the vote will name, whatever a poll brings meanwhile.
    apply({
      type: "vote",
      change: {
        type: "openVote",
        action,
        activityId: decision.id,
        fingerprint: decision.fingerprint,
        question,
        header,
        details: [...details, ...voteContext.notes.map((n) => `  note         ${n}`)],
      },
    });
  };
  /**
   * y: send the vote on the fingerprint the confirmation showed; an answer about that activity
   * replaces its row at once, one about another is said and applied nowhere.
   */
  const sendVote = () => {
    const vote = latest.current.vote;
    if (!voting || vote?.phase !== "sending" || voteContext.state !== "loaded") return;
    const { action, activityId, fingerprint } = vote;
    const context = voteContext.context;
    voting.vote(action, fingerprint).then(
      (answered) => {
        const answer = voteAnswer({ action, activityId, fingerprint }, answered, {
          ...context,
          now: Date.now(),
        });
        if (answer.about) {
          activities.update((list) => list.map((a) => (a.id === answered.id ? answered : a)));
        }
        apply({
          type: "vote",
          change: { type: "voteDone", activityId, outcome: answer.outcome, ok: answer.ok },
        });
      },
      (err: unknown) =>
        apply({
          type: "vote",
          change: {
            type: "voteDone",
            activityId,
            outcome: `not ${action === "approve" ? "approved" : "rejected"}: ${describeError(err)}`,
            ok: false,
          },
        }),
    );
  };

  // A or R pressed before whoami answered: go on with it once the vote context is known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: startVote reads this render's state; the context is what changes
  useEffect(() => {
    const pending = pendingVote.current;
    if (!pending || voteContext.state === "loading") return;
    pendingVote.current = undefined;
    startVote(pending.action, pending.key);
  }, [voteContext]);

  return { startVote, sendVote };
}
