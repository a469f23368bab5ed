/**
 * The side panes' events on their way into the live log's store (shown while `I` is on): each
 * waits until the log has a line at or after its time, so it lands among the lines it happened
 * among, never ahead of lines still on their way (which would then arrive before it and move a
 * paused view). A quiet log holds an event MAX_HOLD_MS at most; at most MAX_PENDING wait, the
 * oldest going in first past that.
 */
import { eventMarker } from "../../logs/model/log-line.js";
import type { LogStore } from "../../logs/model/log-store.js";
import type { PaneEvent } from "../../logs/model/pane-event.js";

/** The longest an event waits for the log's lines to reach its time. */
export const MAX_HOLD_MS = 15_000;
/** The most events waiting. */
export const MAX_PENDING = 10_000;

export class EventMarkers {
  private pending: { event: PaneEvent; seenAt: number }[] = [];

  constructor(
    private readonly store: LogStore,
    private readonly now: () => number,
  ) {}

  /** Events from a poll: in when due, else waiting. */
  take(events: readonly PaneEvent[]): void {
    const seenAt = this.now();
    for (const event of events) this.pending.push({ event, seenAt });
    this.pending.sort((a, b) => a.event.at - b.event.at);
    this.flush();
  }

  /** The events now due (the log reached their time, or they waited long enough) into the store. */
  flush(): void {
    if (this.pending.length === 0) return;
    const newest = this.store.at(this.store.size() - 1)?.event.sortKey ?? Number.NEGATIVE_INFINITY;
    const now = this.now();
    const over = this.pending.length - MAX_PENDING;
    const due = this.pending.filter(
      (p, i) => i < over || p.event.at <= newest || now - p.seenAt >= MAX_HOLD_MS,
    );
    if (due.length === 0) return;
    const kept = new Set(due);
    this.pending = this.pending.filter((p) => !kept.has(p));
    this.store.append(due.map((p) => eventMarker(p.event)));
  }
}
