/**
 * The side panes' events as they come: watches the stores the pane pollers publish into
 * (activities, email events, Solana transactions, deployment health) and hands on, after each
 * poll that brought something new, the events of it not handed on before (./pane-events.ts), in
 * time order. The dashboard puts them among the log's lines; `tail --events` prints them among
 * its own. It polls nothing itself: what is polled, and how often, is the pollers'.
 */
import type { Activity, EmailEvent, SolTransaction } from "../api/schemas.js";
import type { PaneEvent } from "../logs/model/pane-event.js";
import type { HealthView } from "./deployment-health.js";
import type { FeedStore } from "./feed-store.js";
import { PaneEventLog } from "./pane-events.js";

/** The stores read; an absent one is a source not configured (nothing is said for it). */
export interface PaneEventStores {
  activities?: FeedStore<Activity[]> | undefined;
  email?: FeedStore<EmailEvent[]> | undefined;
  solana?: FeedStore<Map<string, SolTransaction[]>> | undefined;
  health?: FeedStore<HealthView> | undefined;
}

export class PaneEventFeed {
  private readonly log: PaneEventLog;
  /** The data each store held when last read (a poll publishes a new object). */
  private readonly seen = new Map<string, unknown>();

  constructor(
    private readonly stores: PaneEventStores,
    log?: PaneEventLog,
  ) {
    this.log = log ?? new PaneEventLog();
  }

  /**
   * Hands on what the stores hold now, then what each poll brings, until the returned function
   * is called.
   */
  watch(onEvents: (events: PaneEvent[]) => void): () => void {
    const { activities, email, solana, health } = this.stores;
    const detach: (() => void)[] = [];
    const each = <T>(
      name: string,
      store: FeedStore<T> | undefined,
      read: (d: T) => PaneEvent[],
    ) => {
      if (!store) return;
      const look = () => {
        const data = store.getSnapshot().data;
        if (data === undefined || this.seen.get(name) === data) return;
        this.seen.set(name, data);
        const events = read(data);
        if (events.length === 0) return;
        events.sort((a, b) => a.at - b.at);
        onEvents(events);
      };
      look();
      detach.push(store.subscribe(look));
    };
    each("activities", activities, (d) => this.log.activities(d));
    each("email", email, (d) => this.log.email(d));
    each("solana", solana, (d) => this.log.solana(d));
    each("health", health, (d) => this.log.health(d.changes));
    return () => {
      for (const d of detach.splice(0)) d();
    };
  }
}
