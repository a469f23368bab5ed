/** The email pane's view: events grouped per messageId into a timeline, newest message first. */
import type { EmailEvent } from "../api/schemas.js";

export interface EmailStep {
  eventType: string;
  /** ms after the message's first event. */
  afterMs: number;
  detail: string | undefined;
}

export interface EmailMessage {
  messageId: string;
  toAddress: string;
  fromAddress: string;
  firstAt: number;
  lastAt: number;
  steps: EmailStep[];
  /** The latest event type: what the message's state is now. */
  outcome: string;
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

export function groupEmailEvents(
  events: readonly EmailEvent[],
  eventTypeFilter?: string,
): EmailMessage[] {
  const byMessage = new Map<string, EmailEvent[]>();
  const seen = new Set<string>();
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const list = byMessage.get(e.messageId) ?? [];
    list.push(e);
    byMessage.set(e.messageId, list);
  }
  const messages: EmailMessage[] = [];
  for (const [messageId, list] of byMessage) {
    list.sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
    const first = list[0] as EmailEvent;
    const last = list[list.length - 1] as EmailEvent;
    if (eventTypeFilter && !list.some((e) => e.eventType === eventTypeFilter)) continue;
    messages.push({
      messageId,
      toAddress: first.toAddress,
      fromAddress: first.fromAddress,
      firstAt: Number(first.timestamp),
      lastAt: Number(last.timestamp),
      steps: list.map((e) => ({
        eventType: e.eventType,
        afterMs: Number(e.timestamp) - Number(first.timestamp),
        detail: detailOf(e),
      })),
      outcome: last.eventType,
    });
  }
  return messages.sort((a, b) => b.lastAt - a.lastAt);
}
