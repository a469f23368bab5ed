/**
 * A side-pane poller: fetches on an interval (one request in flight at a time) and publishes into
 * a FeedStore. A failure is kept as the pane's error state and the poller goes on, backing off.
 */
import type { Clock } from "../api/clock.js";
import { systemClock } from "../api/clock.js";
import { TurnkeyApiError } from "../api/errors.js";
import { FeedStore } from "./feed-store.js";

export interface PollerOptions<T> {
  intervalMs: number;
  fetch: (signal: AbortSignal) => Promise<T>;
  clock?: Clock;
}

export function describeError(err: unknown): string {
  if (err instanceof TurnkeyApiError) return err.describe();
  return err instanceof Error ? err.message : String(err);
}

export class Poller<T> {
  readonly store = new FeedStore<T>();
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: PollerOptions<T>) {
    this.clock = options.clock ?? systemClock;
  }

  /** One poll now; resolves when the store has the result. */
  async pollOnce(): Promise<void> {
    const started = this.clock.monotonic();
    try {
      const data = await this.options.fetch(this.controller.signal);
      if (this.controller.signal.aborted) return;
      this.store.succeed(data, this.clock.now(), this.clock.monotonic() - started);
    } catch (err) {
      if (this.controller.signal.aborted) return;
      this.store.fail(describeError(err));
    }
  }

  start(): void {
    const loop = async () => {
      await this.pollOnce();
      if (this.controller.signal.aborted) return;
      const failures = this.store.getSnapshot().failures;
      const delay =
        failures === 0
          ? this.options.intervalMs
          : Math.min(60_000, this.options.intervalMs * 2 ** Math.min(failures, 5));
      this.timer = setTimeout(loop, delay);
    };
    void loop();
  }

  stop(): void {
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
  }
}
