/**
 * One limit on requests in flight, shared by every deployment's follower (`--max-concurrent`):
 * a poll waits for a free slot (first come, first served) before it plans its window.
 */
/** Requests in flight at once over several deployments, unless `--max-concurrent` says. */
export const DEFAULT_MAX_CONCURRENT = 4;

export class RequestLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** Waits for a slot; resolves to its release (call it once). */
  async acquire(): Promise<() => void> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.waiting.shift()?.();
    };
  }

  /** Runs `call` in a slot, released when it settles. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await call();
    } finally {
      release();
    }
  }

  /** Requests in flight now. */
  inFlight(): number {
    return this.active;
  }
}
