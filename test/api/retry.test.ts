import { describe, expect, it } from "vitest";
import type { RetryInfo, RetryPolicy } from "../../src/api/retry.js";
import { backoffMs, MAX_TIMER_MS, sleep, withRetries } from "../../src/api/retry.js";
import type { RetryDecision } from "../../src/api/retry-decision.js";

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

const decide = (e: Error): RetryDecision => {
  if (!(e instanceof Flaky)) return { action: "stop", reason: "not flaky" };
  return e.retryAfterMs === undefined
    ? { action: "back-off", reason: "flaky" }
    : { action: "wait", afterMs: e.retryAfterMs, reason: "asked" };
};

/** The waits between attempts, recorded in order with the other events, not slept. */
const recorder = () => {
  const events: string[] = [];
  return {
    events,
    sleep: async (ms: number) => {
      events.push(`wait ${ms}`);
    },
  };
};

const hooks = (onRetry?: (i: RetryInfo) => void, waits = recorder()) => ({
  decide,
  tooLongRetryAfter: (_e: Error, asked: number) => new Error(`too long: ${asked}`),
  onRetry,
  sleep: waits.sleep,
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
    const waits = recorder();
    const infos: RetryInfo[] = [];
    const err = await withRetries(
      async (n) => {
        waits.events.push(`attempt ${n}`);
        throw n < 3 ? new Flaky() : new Error("final");
      },
      { ...policy, minDelayMs: 40, random: () => 0.5 },
      hooks((info) => {
        infos.push(info);
        waits.events.push(`notice ${info.delayMs}`);
      }, waits),
    ).catch((e) => e);
    expect((err as Error).message).toBe("final");
    expect(infos.map((i) => [i.attempt, i.retriesLeft, i.delayMs])).toEqual([
      [1, 3, 30],
      [2, 2, 60],
    ]);
    // Reported before the wait, and the wait is what was reported.
    expect(waits.events).toEqual([
      "attempt 1",
      "notice 30",
      "wait 30",
      "attempt 2",
      "notice 60",
      "wait 60",
      "attempt 3",
    ]);
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
    const waits = recorder();
    let calls = 0;
    const out = await withRetries(
      async () => {
        calls += 1;
        if (calls === 1) throw new Flaky(120);
        return "ok";
      },
      policy,
      hooks((i) => infos.push(i), waits),
    );
    expect(out).toBe("ok");
    expect(infos[0]?.delayMs).toBe(120);
    expect(waits.events).toEqual(["wait 120"]);
    const none = recorder();
    await expect(
      withRetries(
        async () => {
          throw new Flaky(60_000);
        },
        policy,
        hooks(undefined, none),
      ),
    ).rejects.toThrow("too long: 60000");
    expect(none.events).toEqual([]);
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Flaky(4000);
        },
        policy,
        {
          ...hooks(),
          signal: controller.signal,
          // The real wait, aborted once it has begun.
          sleep: (ms, signal) => {
            const waiting = sleep(ms, signal);
            controller.abort(new Error("stop"));
            return waiting;
          },
        },
      ),
    ).rejects.toThrow("stop");
    expect(calls).toBe(1);
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
