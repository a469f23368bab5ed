/**
 * The list panes' rows as selection and the key step see them: each record's key (its identity
 * from one poll to the next) and how a notice names it (`activity 418b4e9d`), in the order the
 * pane shows them.
 */

import type { ListRow } from "../state/list-selection.js";
import type { ActivityRow } from "./activity-summary.js";
import type { EmailMessage } from "./email-timeline.js";
import type { TransferRow } from "./solana-transfers.js";

export function activityListRows(rows: readonly ActivityRow[]): ListRow[] {
  return rows.map((r) => ({ key: r.key, name: `activity ${r.idText}` }));
}

export function emailListRows(messages: readonly EmailMessage[]): ListRow[] {
  return messages.map((m) => ({ key: m.messageId, name: `the email to ${m.toAddress}` }));
}

export function transferListRows(rows: readonly TransferRow[]): ListRow[] {
  return rows.map((t) => ({
    key: t.key,
    name: `the transfer of ${t.amount} ${t.symbol} ${t.direction === "IN" ? "from" : "to"} ${t.counterparty}`,
  }));
}
