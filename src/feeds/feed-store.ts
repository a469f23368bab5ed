/**
 * What a side-pane poller publishes: its latest data, when it last succeeded, and its error
 * state. Read by components through useSyncExternalStore (`subscribe`, `getSnapshot`).
 */
export interface FeedSnapshot<T> {
  data: T | undefined;
  /** Client wall-clock ms of the last success. */
  lastUpdated: number | undefined;
  error: string | undefined;
  /** Failed polls in a row. */
  failures: number;
  /** Round trip of the last poll, ms. */
  latencyMs: number | undefined;
}

export class FeedStore<T> {
  private snapshot: FeedSnapshot<T> = {
    data: undefined,
    lastUpdated: undefined,
    error: undefined,
    failures: 0,
    latencyMs: undefined,
  };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): FeedSnapshot<T> => this.snapshot;

  succeed(data: T, at: number, latencyMs: number): void {
    this.set({ data, lastUpdated: at, error: undefined, failures: 0, latencyMs });
  }

  /**
   * A change known before the next poll (a vote's answered activity): applied to the data now,
   * leaving when the feed last succeeded as it was. Ignored while there is no data yet.
   */
  update(change: (data: T) => T): void {
    if (this.snapshot.data === undefined) return;
    this.set({ ...this.snapshot, data: change(this.snapshot.data) });
  }

  fail(error: string): void {
    this.set({ ...this.snapshot, error, failures: this.snapshot.failures + 1 });
  }

  private set(next: FeedSnapshot<T>): void {
    this.snapshot = next;
    for (const l of this.listeners) l();
  }
}
