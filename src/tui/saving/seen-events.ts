/**
 * What the side panes saw happen, kept for a ticket bundle (./ticket-bundle.ts writes those of
 * its range): each poll's records go through the one reading of them as events
 * (src/feeds/pane-events.ts: an activity's status changing, each vote, a deployment's replicas
 * or live deployment changing …), and the events are kept, oldest first, at most MAX_SEEN (the
 * oldest go first).
 */
import type { Activity, EmailEvent, SolTransaction } from "../../api/schemas.js";
import type { HealthChange } from "../../feeds/deployment-health.js";
import { PaneEventLog } from "../../feeds/pane-events.js";
import type { PaneEvent } from "../../logs/model/pane-event.js";

/** The most events kept. */
export const MAX_SEEN = 20_000;

export class SeenEvents {
  private readonly log = new PaneEventLog();
  private kept: PaneEvent[] = [];

  constructor(private readonly max = MAX_SEEN) {}

  activities(list: readonly Activity[] | undefined): void {
    if (list) this.keep(this.log.activities(list));
  }

  email(list: readonly EmailEvent[] | undefined): void {
    if (list) this.keep(this.log.email(list));
  }

  solana(byAddress: ReadonlyMap<string, readonly SolTransaction[]> | undefined): void {
    if (byAddress) this.keep(this.log.solana(byAddress));
  }

  health(changes: readonly HealthChange[] | undefined): void {
    if (changes) this.keep(this.log.health(changes));
  }

  /** The events seen, in the order they were seen. */
  events(): readonly PaneEvent[] {
    return this.kept;
  }

  private keep(events: readonly PaneEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) this.kept.push(e);
    // Trimmed in steps, not one event at a time.
    if (this.kept.length > this.max) this.kept = this.kept.slice(-Math.floor(this.max * 0.9));
  }
}
