import { describe, expect, it } from "vitest";
import type { RetryInfo, RetryPolicy } from "../../src/api/retry.js";
import { backoffMs, MAX_TIMER_MS, sleep, withRetries } from "../../src/api/retry.js";

const policy: RetryPolicy = {
  retries: 4,
  minDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryAfterMs: 5000,
};

class Flaky extends Error {
  constructor(readonly retryAfterMs?: number) {
    super("flaky");
  }
}

const hooks = (onRetry?: (i: RetryInfo) => void) => ({
  retryable: (e: Error) => e instanceof Flaky,
  retryAfterMs: (e: Error) => (e as Flaky).retryAfterMs,
  tooLongRetryAfter: (_e: Error, asked: number) => new Error(`too long: ${asked}`),
  onRetry,
});

describe("backoffMs", () => {
  it("doubles from the minimum up to the maximum, with jitter over the upper half", () => {
    const low = { ...policy, random: () => 0 };
    const high = { ...policy, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, low))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, high))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});

describe("withRetries", () => {
  it("retries only what is retryable, telling onRetry before each wait how long it is", async () => {
    const infos: { info: RetryInfo; at: number }[] = [];
    const attemptsAt: number[] = [];
    const err = await withRetries(
      async (n) => {
        attemptsAt.push(performance.now());
        throw n < 3 ? new Flaky() : new Error("final");
      },
      { ...policy, minDelayMs: 40, random: () => 0.5 },
      hooks((info) => infos.push({ info, at: performance.now() })),
    ).catch((e) => e);
    expect((err as Error).message).toBe("final");
    expect(attemptsAt).toHaveLength(3);
    expect(infos.map((i) => [i.info.attempt, i.info.retriesLeft, i.info.delayMs])).toEqual([
      [1, 3, 30],
      [2, 2, 60],
    ]);
    // Reported before the wait, and the wait is what was reported.
    for (const [k, { info, at }] of infos.entries()) {
      const next = attemptsAt[k + 1] as number;
      expect(at).toBeLessThan(next);
      expect(next - at).toBeGreaterThanOrEqual(info.delayMs - 2);
    }
  });

  it("gives up after the last retry, with retriesLeft 0 on the last notice", async () => {
    const infos: RetryInfo[] = [];
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Flaky(0);
        },
        { ...policy, retries: 2 },
        hooks((i) => infos.push(i)),
      ),
    ).rejects.toBeInstanceOf(Flaky);
    expect(calls).toBe(3);
    expect(infos.map((i) => [i.attempt, i.retriesLeft, i.retryAfter])).toEqual([
      [1, 1, true],
      [2, 0, true],
    ]);
  });

  it("waits exactly the Retry-After, and refuses one beyond the cap without waiting", async () => {
    const infos: RetryInfo[] = [];
    let calls = 0;
    const out = await withRetries(
      async () => {
        calls += 1;
        if (calls === 1) throw new Flaky(120);
        return "ok";
      },
      policy,
      hooks((i) => infos.push(i)),
    );
    expect(out).toBe("ok");
    expect(infos[0]?.delayMs).toBe(120);
    const started = performance.now();
    await expect(
      withRetries(
        async () => {
          throw new Flaky(60_000);
        },
        policy,
        hooks(),
      ),
    ).rejects.toThrow("too long: 60000");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 30);
    const started = performance.now();
    await expect(
      withRetries(
        async () => {
          throw new Flaky(4000);
        },
        policy,
        { ...hooks(), signal: controller.signal },
      ),
    ).rejects.toThrow("stop");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("sleep never hands Node's timer more than it can hold", async () => {
    const controller = new AbortController();
    const pending = sleep(30 * 86_400_000, controller.signal);
    const raced = await Promise.race([
      pending.then(() => "fired"),
      new Promise((r) => setTimeout(() => r("waiting"), 50)),
    ]);
    expect(raced).toBe("waiting");
    controller.abort(new Error("done"));
    await expect(pending).rejects.toThrow("done");
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
  });
});
