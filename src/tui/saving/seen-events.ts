import type { PaneEvent } from "../../logs/model/pane-event.js";

/** The most events kept. */
export const MAX_SEEN = 20_000;

export class SeenEvents {
  private kept: PaneEvent[] = [];

  constructor(private readonly max = MAX_SEEN) {}

  /** The events seen, in the order they were seen. */
  events(): readonly PaneEvent[] {
    return this.kept;
  }

  /** Keeps a poll's events (each seen once: src/feeds/pane-event-feed.ts reads them). */
  keep(events: readonly PaneEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) this.kept.push(e);
    // Trimmed in steps, not one event at a time.
    if (this.kept.length > this.max) this.kept = this.kept.slice(-Math.floor(this.max * 0.9));
  }
}
