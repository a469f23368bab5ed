/**
 * What the enclave app's services print about the organization's traffic, as a real signer,
 * policy engine, ledger and mailer would, each naming the record by its full id: the signer when a
 * generated activity arrives, when it waits for the root quorum and when it has checked a vote on
 * one (the vote's id, its activity's), the policy engine when it allows or denies one, the ledger
 * when a Solana transaction of the organization's accounts confirms, the mailer at each email
 * event (its id, its message's). The debug logs (./debug-logs.ts) print each at its moment on a
 * replica running then, so the ids the dashboard's side panes know turn up in its log pane.
 *
 * None of them is an error: a denied activity is the policy engine doing its work (WARN), and
 * the incident's errors and the heatmap's rise stay the scenario's own.
 */
import type { OrgState } from "../organization/org-state.js";
import { policiesOf } from "../organization/wallet-queries.js";
import type { ActivityQueue, QueueMoment, QueueVote } from "./activity-queue.js";
import { PRINTED_AHEAD_MS } from "./debug-logs.js";
import type { EmailEvents } from "./email-events.js";
import type { SolTransactions } from "./sol-transactions.js";

/**
 * How long after a vote is cast the signer logs it, having checked its stamp against the quorum:
 * longer than the debug logs print ahead, so that a vote cast now (approve_activity) is printed.
 */
export const VOTE_LOGGED_AFTER_MS = PRINTED_AHEAD_MS + 250;

export interface ServiceLine {
  /** Server time it is printed at (epoch ms). */
  at: number;
  /** The record it is about: which replica prints it is drawn from this. */
  id: string;
  content: string;
}

/** Where the debug logs take the services' lines from: those of moments in [from, to). */
export interface ServiceLineSource {
  linesDuring(from: number, to: number): ServiceLine[];
}

/** The policy that allows an activity of a type, by the action its condition names. */
function allowingPolicy(state: OrgState, type: string): string | undefined {
  // A send is signed before it is sent: the policy that allows signing allows it.
  const action = type.includes("EXPORT") ? "EXPORT" : /SIGN|SEND/.test(type) ? "SIGN" : undefined;
  if (!action) return undefined;
  return policiesOf(state).find(
    (p) => p.effect === "EFFECT_ALLOW" && p.condition.includes(`activity.action == '${action}'`),
  )?.policyName;
}

function momentLine(state: OrgState, m: QueueMoment): string {
  switch (m.kind) {
    case "created":
      return `INFO  signer: activity ${m.id} ${m.type} received`;
    case "consensus":
      return `INFO  signer: activity ${m.id} ${m.type} awaiting consensus (${m.approvals} of ${m.threshold} approvals)`;
    case "failed":
      return `WARN  policy: activity ${m.id} ${m.type} denied: no policy allows this signer`;
    case "completed": {
      const policy = allowingPolicy(state, m.type);
      return policy
        ? `INFO  policy: activity ${m.id} allowed by policy "${policy}"`
        : `INFO  policy: activity ${m.id} allowed: submitted by a root user`;
    }
  }
}

function voteLine(v: QueueVote): string {
  const how = v.vote.selection === "VOTE_SELECTION_APPROVED" ? "approves" : "rejects";
  return `INFO  signer: vote ${v.vote.id} by ${v.vote.userName} ${how} activity ${v.activityId} ${v.type}`;
}

/** The signer's, policy engine's, ledger's and mailer's lines of the simulated organization. */
export class ServiceLines implements ServiceLineSource {
  constructor(
    private readonly state: OrgState,
    private readonly queue: ActivityQueue,
    private readonly sol: SolTransactions,
    private readonly emails: EmailEvents,
  ) {}

  linesDuring(from: number, to: number): ServiceLine[] {
    const out: ServiceLine[] = this.queue.momentsDuring(from, to).map((m) => ({
      at: m.at,
      id: m.id,
      content: momentLine(this.state, m),
    }));
    for (const tx of this.sol.madeDuring(from, to)) {
      const transfer = tx.transfers[0];
      const what = transfer ? ` (${transfer.direction} ${transfer.asset.symbol})` : "";
      out.push({
        at: tx.at,
        id: tx.signature,
        content: `INFO  ledger: solana transaction ${tx.signature} confirmed in slot ${tx.slot}${what}`,
      });
    }
    const after = VOTE_LOGGED_AFTER_MS;
    for (const v of this.queue.votesDuring(from - after, to - after))
      out.push({ at: v.at + after, id: v.vote.id, content: voteLine(v) });
    for (const e of this.emails.madeDuring(from, to)) {
      out.push({
        at: e.at,
        id: e.id,
        content: `INFO  mailer: email event ${e.id} ${e.eventType} of message ${e.messageId} to ${e.toAddress}`,
      });
    }
    return out.sort((a, b) => a.at - b.at);
  }
}
