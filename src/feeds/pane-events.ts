/**
 * The side panes' records as events on the log's clock (src/logs/model/pane-event.ts), read from
 * each poll's data, for the log to interleave among its lines:
 *
 * - activity: an activity created (its createdAt);
 * - status: an activity's status changing, as polls saw it (its updatedAt); an activity first
 *   seen past CREATED gives the status it had then;
 * - vote: each vote, by whom (its createdAt);
 * - email: each email event (type, recipient);
 * - solana: each transfer of a transaction (direction, amount, counterparty; its block time);
 * - deployment: ready or desired replicas changing, the targeted (live) deployment changing
 *   (./deployment-health.ts's record; the cluster's time when it gave one, else the answer's).
 *
 * `PaneEventLog` takes each poll's data in and gives the events not given before, once each
 * (by identity), bounded: past MAX_EVENT_KEYS identities the oldest are forgotten. The text is
 * the server's words unsanitized: whoever prints it sanitizes it.
 */
import { shortStatus, shortType, timestampMs } from "../activity/activity-fields.js";
import type { Activity, EmailEvent, SolTransaction } from "../api/schemas.js";
import type { PaneEvent } from "../logs/model/pane-event.js";
import { validatedAmount } from "../text/validated-amount.js";
import type { HealthChange, Replicas } from "./deployment-health.js";

/** Identities remembered (the oldest are forgotten first). */
export const MAX_EVENT_KEYS = 50_000;
/** The longest server value put in a text. */
const MAX_VALUE = 256;

const value = (s: string | undefined) => (s ?? "").slice(0, MAX_VALUE);

function voter(v: Activity["votes"][number]): string {
  return value(v.user?.userName || v.user?.userEmail || v.userId);
}

function selection(s: string): string {
  return s === "VOTE_SELECTION_APPROVED"
    ? "approved"
    : s === "VOTE_SELECTION_REJECTED"
      ? "rejected"
      : value(s);
}

const replicas = (r: Replicas | undefined) => (r ? `${r.ready}/${r.desired} ready` : "none");

/** The events of one health change. */
function healthEvent(c: HealthChange): PaneEvent {
  const at = (c.kind === "replicas" ? c.updatedAt : undefined) ?? c.serverDate ?? c.seenAt;
  if (c.kind === "targeted") {
    return {
      kind: "deployment",
      at,
      key: `targeted\u0000${c.appId}\u0000${c.from}\u0000${c.to}\u0000${c.seenAt}`,
      text: `live deployment of app ${value(c.appId)}: ${value(c.from) || "none"} → ${value(c.to) || "none"}`,
      fields: { appId: c.appId, from: c.from ?? "", to: c.to ?? "" },
    };
  }
  const what =
    c.from === undefined
      ? `appeared, ${replicas(c.to)}`
      : c.to === undefined
        ? "left the app's status"
        : `${replicas(c.from)} → ${replicas(c.to)}`;
  return {
    kind: "deployment",
    at,
    key: `replicas\u0000${c.deploymentId}\u0000${replicas(c.from)}\u0000${replicas(c.to)}\u0000${c.seenAt}`,
    text: `deployment ${value(c.deploymentId)}: ${what}`,
    fields: {
      deploymentId: c.deploymentId,
      appId: c.appId,
      ...(c.to ? { ready: String(c.to.ready), desired: String(c.to.desired) } : {}),
    },
  };
}

export class PaneEventLog {
  private readonly keys = new Set<string>();
  /** Each activity's status as last seen. */
  private readonly statuses = new Map<string, string>();

  constructor(private readonly maxKeys = MAX_EVENT_KEYS) {}

  /** The events of these activities not given before. */
  activities(list: readonly Activity[]): PaneEvent[] {
    const out: PaneEvent[] = [];
    for (const a of list) {
      const type = shortType(value(a.type));
      const created = timestampMs(a.createdAt);
      const id = value(a.id);
      if (created !== undefined && Number.isFinite(created)) {
        this.push(out, {
          kind: "activity",
          at: created,
          key: `created\u0000${a.id}`,
          text: `activity ${id} created: ${type}`,
          fields: { activityId: a.id, type: a.type },
        });
      }
      const was = this.statuses.get(a.id);
      if (was !== a.status && !(was === undefined && a.status === "ACTIVITY_STATUS_CREATED")) {
        const updated = timestampMs(a.updatedAt);
        const at = updated !== undefined && Number.isFinite(updated) ? updated : created;
        if (at !== undefined && Number.isFinite(at)) {
          const from = was === undefined ? "" : `${shortStatus(was)} → `;
          this.push(out, {
            kind: "status",
            at,
            key: `status\u0000${a.id}\u0000${a.status}`,
            text: `activity ${id} ${type}: ${from}${shortStatus(value(a.status))}`,
            fields: { activityId: a.id, type: a.type, status: a.status, from: was ?? "" },
          });
        }
      }
      if (this.statuses.size < this.maxKeys || this.statuses.has(a.id))
        this.statuses.set(a.id, a.status);
      for (const v of a.votes) {
        const at = timestampMs(v.createdAt) ?? timestampMs(a.updatedAt);
        if (at === undefined || !Number.isFinite(at)) continue;
        this.push(out, {
          kind: "vote",
          at,
          key: `vote\u0000${v.id}`,
          text: `vote on activity ${id} ${type}: ${selection(v.selection)} by ${voter(v)}`,
          fields: { activityId: a.id, voteId: v.id, userId: v.userId, selection: v.selection },
        });
      }
    }
    return out;
  }

  /** The email events not given before. */
  email(list: readonly EmailEvent[]): PaneEvent[] {
    const out: PaneEvent[] = [];
    for (const e of list) {
      const at = timestampMs(e.timestamp);
      if (at === undefined || !Number.isFinite(at)) continue;
      this.push(out, {
        kind: "email",
        at,
        key: `email\u0000${e.id}`,
        text: `email ${value(e.eventType)} to ${value(e.toAddress)} (message ${value(e.messageId)})`,
        fields: { emailEventId: e.id, messageId: e.messageId, to: e.toAddress, type: e.eventType },
      });
    }
    return out;
  }

  /** The transfers not given before, of each address's transactions. */
  solana(byAddress: ReadonlyMap<string, readonly SolTransaction[]>): PaneEvent[] {
    const out: PaneEvent[] = [];
    for (const [address, txs] of byAddress) {
      for (const tx of txs) {
        const at = timestampMs(tx.block.timestamp);
        if (at === undefined || !Number.isFinite(at)) continue;
        tx.transfers.forEach((t, i) => {
          const decimals = t.asset?.decimals ?? 9;
          const amount = validatedAmount(t.amount, decimals).shown;
          const symbol = value(t.asset?.symbol ?? "SOL");
          const way = t.direction === "IN" ? "from" : "to";
          this.push(out, {
            kind: "solana",
            at,
            key: `solana\u0000${tx.signature}\u0000${i}\u0000${address}`,
            text: `solana ${t.direction} ${amount} ${symbol} ${way} ${value(t.counterparty)} (${value(tx.status)}, tx ${value(tx.signature)})`,
            fields: {
              signature: tx.signature,
              address,
              direction: t.direction,
              amount: t.amount,
              counterparty: t.counterparty,
            },
          });
        });
      }
    }
    return out;
  }

  /** The deployment health changes not given before. */
  health(changes: readonly HealthChange[]): PaneEvent[] {
    const out: PaneEvent[] = [];
    for (const c of changes) this.push(out, healthEvent(c));
    return out;
  }

  private push(out: PaneEvent[], event: PaneEvent): void {
    if (this.keys.has(event.key)) return;
    if (this.keys.size >= this.maxKeys) {
      const oldest = this.keys.values().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    this.keys.add(event.key);
    out.push(event);
  }
}
