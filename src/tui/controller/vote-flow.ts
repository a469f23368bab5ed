/**
 * Approving and rejecting from the dashboard (`A`, `R`, then `y`): who is asking and the quorum
 * (read once through whoami when the dashboard starts), the confirmation that says what is
 * decided, and the vote sent on the fingerprint shown, whose answered activity replaces its row
 * at once when the answer is about it. A key pressed before whoami answered goes on as soon as
 * it has. What the activity asks to sign is decoded first (src/activity/decode): its summary in
 * the confirmation's fixed header, its lines first in the part that scrolls. The rules are
 * src/activity's; the confirmation's state is ../vote-state.ts.
 */
import type { VoteAction } from "../../activity/activity-decision.js";
import { confirmation, decideActivity } from "../../activity/activity-decision.js";
import { CONFLICT_TEXT } from "../../activity/activity-identity.js";
import type { VoteContext } from "../../activity/awaiting-vote.js";
import { type DecodedIntent, decodedLines } from "../../activity/decode/decoded-intent.js";
import type { IntentDecoder } from "../../activity/decode/intent-decoder.js";
import { voteAnswer, voteFailed } from "../../activity/vote-answer.js";
import type { Activity } from "../../api/schemas.js";
import type { ActivityVoting } from "../../feeds/dashboard-sources.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { describeError } from "../../feeds/poller.js";
import type { SavedVote } from "../../logs/saved/saved-header.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { UiAction, UiState } from "../state/ui-state.js";

/** What the flow reads and changes of the dashboard around it. */
export interface VoteHost {
  voting: ActivityVoting | undefined;
  /** Decodes what the activity asks to sign; absent: the confirmation shows the intent alone. */
  decoder?: IntentDecoder | undefined;
  /** The activities feed: an answered vote's activity replaces its row. */
  activities: FeedStore<Activity[]> | undefined;
  /** The activity of the row with this key, as the pane shows it; undefined when it is gone. */
  activityFor(key: string): Activity | undefined;
  /**
   * Whether the server now sends different activities (by type or fingerprint) under this id:
   * none of them is voted on until it settles.
   */
  contested?(activityId: string): boolean;
  state(): UiState;
  apply(action: UiAction): void;
  now(): number;
  /** Who is asking became known (or could not be): what awaits my vote may have changed. */
  contextChanged(): void;
  /** A vote sent and answered about its activity: recorded (a ticket bundle lists them). */
  cast?(vote: SavedVote): void;
}

export class VoteFlow {
  private known: VoteContext = { state: "loading" };
  private pending: { action: VoteAction; key: string } | undefined;
  private readonly stopped = new AbortController();

  constructor(private readonly host: VoteHost) {}

  /** Who is asking, the quorum and names: loading, loaded or failed. */
  get context(): VoteContext {
    return this.known;
  }

  /** Reads who is asking (once), when voting is available. */
  start(): void {
    const voting = this.host.voting;
    if (!voting) return;
    const signal = this.stopped.signal;
    voting.loadContext(signal).then(
      ({ context, notes }) => this.learned({ state: "loaded", context, notes }),
      (err: unknown) => {
        if (!signal.aborted) this.learned({ state: "failed", error: describeError(err) });
      },
    );
  }

  stop(): void {
    this.stopped.abort();
  }

  /**
   * The clock's tick: the organization's names read again once the reading is old enough; what
   * is shown from then on names what was added or renamed meanwhile.
   */
  tick(): void {
    const known = this.known;
    if (known.state !== "loaded" || this.stopped.signal.aborted) return;
    const reading = this.host.voting?.refreshNames?.(this.stopped.signal);
    reading?.then(
      (names) => {
        const now = this.known;
        if (this.stopped.signal.aborted || now.state !== "loaded") return;
        if (names === now.context.names) return;
        this.known = {
          ...now,
          context: { ...now.context, names, userNames: names.userNames() },
        };
        this.host.contextChanged();
      },
      () => undefined,
    );
  }

  private learned(context: VoteContext): void {
    if (this.stopped.signal.aborted) return;
    this.known = context;
    this.host.contextChanged();
    // A or R pressed before whoami answered: go on with it now.
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.begin(pending.action, pending.key);
  }

  private notice(text: string): void {
    this.host.apply({ type: "notice", text });
  }

  /** A or R on the activity of the row `key`: say why not, or show what is decided and wait for y. */
  begin(action: VoteAction, key: string): void {
    const activity = this.host.activityFor(key);
    const known = this.known;
    if (!activity) this.notice("the selected activity is no longer listed: nothing to vote on");
    else if (this.host.contested?.(activity.id)) {
      this.notice(
        `cannot ${action}: ${CONFLICT_TEXT}; none of them can be voted on until the server sends one`,
      );
    } else if (!this.host.voting) this.notice("voting is not available here");
    else if (known.state === "loading") {
      // Who is asking is still being read: the confirmation opens as soon as it is known.
      this.pending = { action, key };
      this.notice("reading who you are (whoami) before the vote…");
    } else if (known.state === "failed") this.notice(`cannot vote: ${known.error}`);
    else this.decodeThenConfirm(action, activity, known);
  }

  /** The confirmation once what the activity asks to sign is decoded (at once when it is). */
  private decodeThenConfirm(
    action: VoteAction,
    activity: Activity,
    known: Extract<VoteContext, { state: "loaded" }>,
  ): void {
    const decoder = this.host.decoder;
    const lookup = decoder?.lookup(activity);
    if (!decoder || !lookup || lookup.state === "none") {
      this.confirm(action, activity, known, undefined);
      return;
    }
    if (lookup.state === "done") {
      this.confirm(action, activity, known, lookup.decoded);
      return;
    }
    this.notice("decoding what the activity signs before the vote…");
    void decoder.decode(activity).then((decoded) => {
      // Another confirmation opened meanwhile, or the dashboard stopped: this one is not shown.
      if (this.stopped.signal.aborted || this.host.state().vote) return;
      this.confirm(action, activity, known, decoded);
    });
  }

  /** What is decided, shown for y; or why this person cannot cast that vote. */
  private confirm(
    action: VoteAction,
    activity: Activity,
    known: Extract<VoteContext, { state: "loaded" }>,
    decoded: DecodedIntent | undefined,
  ): void {
    const context = { ...known.context, now: this.host.now() };
    const decision = decideActivity(activity, context);
    const check = decision.can[action];
    if (!check.allowed) {
      this.notice(`cannot ${action}: ${check.why}`);
      return;
    }
    const { question, header, details } = confirmation(decision, action, context);
    // The fingerprint shown now is the one the vote will name, whatever a poll brings meanwhile.
    this.host.apply({
      type: "vote",
      change: {
        type: "openVote",
        action,
        activityId: decision.id,
        fingerprint: decision.fingerprint,
        question,
        header,
        ...(decoded ? { summary: decoded.summary } : {}),
        details: [
          ...(decoded ? decodedLines(decoded, "  ", context.names) : []),
          ...details,
          ...known.notes.map((n) => `  note         ${n}`),
        ],
      },
    });
  }

  /**
   * y (the confirmation is now sending): the vote on the fingerprint it showed; an answer about
   * that activity replaces its row at once, one about another is said and applied nowhere.
   */
  send(): void {
    const vote = this.host.state().vote;
    const voting = this.host.voting;
    const known = this.known;
    if (!voting || vote?.phase !== "sending" || known.state !== "loaded") return;
    const { action, activityId, fingerprint } = vote;
    const done = (outcome: string, ok: boolean) =>
      this.host.apply({ type: "vote", change: { type: "voteDone", activityId, outcome, ok } });
    // A poll since the confirmation opened brought a second, different record under its id.
    if (this.host.contested?.(activityId)) {
      done(
        `not ${action === "approve" ? "approved" : "rejected"}: ${CONFLICT_TEXT}; nothing was sent`,
        false,
      );
      return;
    }
    voting.vote(action, fingerprint).then(
      (answered) => {
        const context = { ...known.context, now: this.host.now() };
        const answer = voteAnswer({ action, activityId, fingerprint }, answered, context);
        if (answer.about) {
          this.host.activities?.update((list) =>
            list.map((a) => (a.id === answered.id ? answered : a)),
          );
          this.host.cast?.({
            activityId,
            type: answered.type,
            fingerprint,
            decision: action,
            time: formatMsRfc3339(this.host.now(), true),
          });
        }
        done(answer.outcome, answer.ok);
      },
      (err: unknown) => done(voteFailed(action, describeError(err)), false),
    );
  }
}
