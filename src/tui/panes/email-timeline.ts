/** The email pane's view: events grouped per messageId into a timeline, newest message first. */
import type { EmailEvent } from "../../api/schemas.js";
import { onceEach } from "../../feeds/unique-keys.js";
import { lit, type Safe, safeBounded } from "../../text/safe-text.js";
import { stringifyForTerminal } from "../../text/terminal-json.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { DetailView } from "./detail-view.js";
import { field } from "./detail-view.js";

/** Longest address, event type or detail rendered in a pane row (the detail view shows more). */
const MAX_ROW_FIELD = 512;

/** The event types the API documents, for colours; any other is shown but not coloured. */
export const KNOWN_EVENT_TYPES = ["Send", "Delivery", "Bounce", "DeliveryDelay", "Complaint"];

export interface EmailStep {
  eventType: Safe;
  /** ms after the message's first event. */
  afterMs: number;
  /** What the timeline shows after the step (a bounce's reason); not a delivery's SMTP reply. */
  detail: Safe | undefined;
}

export interface EmailMessage {
  /** The provider's message id, as received: identity only. */
  messageId: string;
  toAddress: Safe;
  fromAddress: Safe;
  firstAt: number;
  lastAt: number;
  steps: EmailStep[];
  /** The latest event type: what the message's state is now. */
  outcome: Safe;
  /** The latest event type when the API documents it (for colours). */
  knownOutcome: string | undefined;
  events: EmailEvent[];
  /** Events of it the server sent more than once (each shown once). */
  repeated: number;
}

function detailOf(e: EmailEvent): string | undefined {
  const d = e.details;
  if (e.eventType === "Bounce")
    return (
      [d.bounceType, d.bounceSubType, d.diagnosticCode].filter(Boolean).join(" / ") || undefined
    );
  if (e.eventType === "DeliveryDelay")
    return [d.deliveryDelayType, d.diagnosticCode].filter(Boolean).join(" / ") || undefined;
  if (e.eventType === "Complaint") return d.complaintFeedbackType;
  if (e.eventType === "Delivery") return d.deliverySmtpResponse;
  return undefined;
}

const timeOf = (e: EmailEvent) => {
  const n = Number(e.timestamp);
  return Number.isFinite(n) ? n : 0;
};

export function groupEmailEvents(
  events: readonly EmailEvent[],
  eventTypeFilter?: string,
): EmailMessage[] {
  const byMessage = new Map<string, EmailEvent[]>();
  const repeats = new Map<string, number>();
  for (const { item: e, times } of onceEach(events, (e) => e.id)) {
    const list = byMessage.get(e.messageId) ?? [];
    list.push(e);
    byMessage.set(e.messageId, list);
    if (times > 1) repeats.set(e.messageId, (repeats.get(e.messageId) ?? 0) + 1);
  }
  const messages: EmailMessage[] = [];
  for (const [messageId, list] of byMessage) {
    list.sort((a, b) => timeOf(a) - timeOf(b));
    const first = list[0] as EmailEvent;
    const last = list[list.length - 1] as EmailEvent;
    if (eventTypeFilter && !list.some((e) => e.eventType === eventTypeFilter)) continue;
    messages.push({
      messageId,
      toAddress: safeBounded(first.toAddress, MAX_ROW_FIELD),
      fromAddress: safeBounded(first.fromAddress, MAX_ROW_FIELD),
      firstAt: timeOf(first),
      lastAt: timeOf(last),
      steps: list.map((e) => {
        const detail = e.eventType === "Delivery" ? undefined : detailOf(e);
        return {
          eventType: safeBounded(e.eventType, MAX_ROW_FIELD),
          afterMs: timeOf(e) - timeOf(first),
          detail: detail === undefined ? undefined : safeBounded(detail, MAX_ROW_FIELD),
        };
      }),
      outcome: safeBounded(last.eventType, MAX_ROW_FIELD),
      knownOutcome: KNOWN_EVENT_TYPES.includes(last.eventType) ? last.eventType : undefined,
      events: list,
      repeated: repeats.get(messageId) ?? 0,
    });
  }
  return messages.sort((a, b) => b.lastAt - a.lastAt);
}

/** Every field of every event of one message. */
export function emailDetail(m: EmailMessage): DetailView {
  const fields = [field(lit`message id`, m.messageId)];
  for (const [i, e] of m.events.entries()) {
    const at = Number(e.timestamp);
    fields.push(
      field(
        lit`event ${i + 1}`,
        `${e.eventType} at ${Number.isFinite(at) ? formatMsRfc3339(at, false) : e.timestamp}`,
      ),
      field(lit`  id`, e.id),
      field(lit`  from`, e.fromAddress),
      field(lit`  to`, e.toAddress),
    );
    if (e.senderTenant !== undefined) fields.push(field(lit`  tenant`, e.senderTenant));
    for (const [key, value] of Object.entries(e.details)) {
      const text = typeof value === "string" ? value : stringifyForTerminal(value);
      fields.push(field(lit`  ${safeBounded(key, 64)}`, text));
    }
  }
  return { title: lit`Email to ${m.toAddress}`, fields };
}
