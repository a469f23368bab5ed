import type { Clock } from "../../src/api/clock.js";

/**
 * Time that moves only when a test moves it: a clock and a sleep on it. `advance` wakes each
 * sleeper whose time has come, in time order, letting what it starts run before the next (the
 * fake fetches a test gives resolve on promises alone). Nothing waits for the wall clock.
 */
export class ManualTime {
  mono = 0;
  private readonly sleepers = new Set<{ at: number; wake: () => void }>();

  constructor(readonly wallAtZero = 1_790_000_000_000) {}

  readonly clock: Clock = {
    now: () => this.wallAtZero + this.mono,
    monotonic: () => this.mono,
  };

  /** The sleep to inject: resolves when the time is advanced past `ms`, or the signal aborts. */
  readonly sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const sleeper = {
        at: this.mono + ms,
        wake: () => {
          this.sleepers.delete(sleeper);
          signal.removeEventListener("abort", sleeper.wake);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      signal.addEventListener("abort", sleeper.wake, { once: true });
    });

  /** How many sleeps are waiting. */
  sleeping(): number {
    return this.sleepers.size;
  }

  /** Moves the clock `ms` ahead, waking every sleeper on the way in time order. */
  async advance(ms: number): Promise<void> {
    const target = this.mono + ms;
    await settle();
    for (;;) {
      let next: { at: number; wake: () => void } | undefined;
      for (const s of this.sleepers) if (s.at <= target && (!next || s.at < next.at)) next = s;
      if (!next) break;
      this.mono = Math.max(this.mono, next.at);
      next.wake();
      await settle();
    }
    this.mono = target;
    await settle();
  }
}

/** Lets every promise that can settle now do so (no timer is waited for). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
