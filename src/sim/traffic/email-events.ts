/**
 * Simulated email delivery: messages to the scenario's recipients over time, each a Send then,
 * some hundreds of milliseconds later, a Delivery, a Bounce, a DeliveryDelay (then Delivery) or a
 * Delivery followed by a Complaint. The mailer logs each by its id (./service-lines.ts).
 */
import type { Random } from "../random.js";

export interface SimEmailEvent {
  id: string;
  organizationId: string;
  messageId: string;
  eventType: string;
  fromAddress: string;
  toAddress: string;
  senderTenant?: string;
  timestamp: string;
  createdAt: string;
  details: Record<string, string>;
  at: number;
}

export class EmailEvents {
  private readonly events: SimEmailEvent[] = [];
  private nextAt: number;
  private generatedUntil: number;

  constructor(
    private readonly rng: Random,
    private readonly organizationId: string,
    private readonly recipients: string[],
    private readonly perMinute: number,
    startMs: number,
    private readonly retentionMs: number,
  ) {
    // Some history so the pane is not empty on start.
    this.generatedUntil = startMs - 10 * 60_000;
    this.nextAt = this.generatedUntil;
  }

  private add(
    messageId: string,
    to: string,
    type: string,
    at: number,
    details: Record<string, string> = {},
  ): void {
    this.events.push({
      id: this.rng.uuid(),
      organizationId: this.organizationId,
      messageId,
      eventType: type,
      fromAddress: "notifications@acme-payments.example",
      toAddress: to,
      senderTenant: "acme-prod",
      timestamp: String(Math.round(at)),
      createdAt: String(Math.round(at + this.rng.int(5, 60))),
      details,
      at,
    });
  }

  private message(at: number): void {
    const to = this.rng.pick(this.recipients);
    const messageId = `0100019${this.rng.hex(8)}-${this.rng.uuid()}-000000`;
    this.add(messageId, to, "Send", at);
    const after = this.rng.int(300, 2500);
    const roll = this.rng.next();
    if (roll < 0.12) {
      const permanent = this.rng.chance(0.6);
      this.add(messageId, to, "Bounce", at + after, {
        bounceType: permanent ? "Permanent" : "Transient",
        bounceSubType: permanent ? "NoEmail" : "MailboxFull",
        diagnosticCode: permanent ? "smtp; 550 5.1.1 user unknown" : "smtp; 452 4.2.2 mailbox full",
      });
    } else if (roll < 0.22) {
      this.add(messageId, to, "DeliveryDelay", at + after, {
        deliveryDelayType: "TransientCommunicationFailure",
        diagnosticCode: "smtp; 421 4.4.2 connection timed out",
      });
      this.add(messageId, to, "Delivery", at + after + this.rng.int(20_000, 90_000), {
        deliverySmtpResponse: "250 2.0.0 OK",
        deliveryProcessingTimeMillis: String(after + 45_000),
      });
    } else {
      this.add(messageId, to, "Delivery", at + after, {
        deliverySmtpResponse: "250 2.0.0 OK",
        deliveryProcessingTimeMillis: String(after),
      });
      if (roll > 0.96)
        this.add(messageId, to, "Complaint", at + after + this.rng.int(5_000, 60_000), {
          complaintFeedbackType: "abuse",
        });
    }
  }

  private advance(now: number): void {
    while (this.nextAt <= now) {
      this.message(this.nextAt);
      this.nextAt += this.rng.exponential(60_000 / this.perMinute);
    }
    this.generatedUntil = now;
    const cutoff = now - this.retentionMs;
    if (this.events.length > 0 && (this.events[0] as SimEmailEvent).at < cutoff) {
      const keep = this.events.filter((e) => e.at >= cutoff);
      this.events.length = 0;
      this.events.push(...keep);
    }
  }

  /**
   * Every recipient's events in [from, to), in time order: what the mailer logs
   * (./service-lines.ts). The same whenever asked: generating ahead changes no draw.
   */
  madeDuring(from: number, to: number): SimEmailEvent[] {
    this.advance(to);
    return this.events.filter((e) => e.at >= from && e.at < to).sort((a, b) => a.at - b.at);
  }

  /** Events for a recipient visible at `now`, newest first. */
  list(now: number, email: string, eventType?: string): SimEmailEvent[] {
    this.advance(now);
    return this.events
      .filter(
        (e) => e.at <= now && e.toAddress === email && (!eventType || e.eventType === eventType),
      )
      .sort((a, b) => b.at - a.at);
  }
}

export function toEmailEventJson(e: SimEmailEvent): Omit<SimEmailEvent, "at"> {
  const { at: _at, ...rest } = e;
  return rest;
}
