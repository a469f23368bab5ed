import { describe, expect, it } from "vitest";
import { TurnkeyApiError } from "../../src/api/errors.js";
import { LogFollower } from "../../src/tail/follower.js";
import { formatFollowerFigures, formatFollowerStatus } from "../../src/tail/follower-status.js";
import { endsFollow, failedPollDelayMs, nextPollDelayMs } from "../../src/tail/poll-loop.js";
import { SimTime } from "../helpers/log-server.js";
import { responseMeta } from "../helpers/response-meta.js";
import { waitFor } from "../helpers/wait-for.js";

describe("the wait after failed polls", () => {
  it("counts failed polls, doubles from 0.5-1 s, is capped at max(5 s, interval) and jittered", () => {
    for (const random of [() => 0, () => 0.5, () => 0.999]) {
      const waits = [1, 2, 3, 4, 5, 20, 1000].map((n) => failedPollDelayMs(n, 2000, random));
      expect(waits[0]).toBeGreaterThanOrEqual(500);
      expect(waits[0]).toBeLessThanOrEqual(1000);
      for (const w of waits) expect(w).toBeLessThanOrEqual(5000);
      expect(waits.at(-1)).toBeGreaterThanOrEqual(2500);
    }
    expect(failedPollDelayMs(9, 30_000, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(failedPollDelayMs(9, 30_000, () => 0.999)).toBeGreaterThan(5000);
    // Jitter: different draws, different waits.
    expect(failedPollDelayMs(5, 2000, () => 0)).not.toBe(failedPollDelayMs(5, 2000, () => 0.9));
  });

  it("waits exactly what a server's Retry-After asks (up to 10 minutes)", () => {
    expect(failedPollDelayMs(1, 2000, Math.random, 42_000)).toBe(42_000);
    expect(failedPollDelayMs(1, 2000, Math.random, 3_600_000)).toBe(600_000);
  });

  it("polls one interval after the last send on average, the send times walking across a second", () => {
    let sentAt = 0;
    const phases = new Set<number>();
    for (let poll = 0; poll < 8; poll++) {
      const d = nextPollDelayMs({
        covered: true,
        intervalMs: 2000,
        idlePolls: 0,
        poll,
        sinceSentMs: 30,
      });
      expect(d + 30).toBeGreaterThanOrEqual(1750);
      expect(d + 30).toBeLessThanOrEqual(2250);
      sentAt += 30 + d;
      phases.add(Math.round((sentAt % 1000) / 125) % 8);
    }
    // Every eighth of a second in 8 polls, 2 s apart on average.
    expect(sentAt / 8).toBe(2000);
    expect(phases.size).toBe(8);
    expect(
      nextPollDelayMs({ covered: false, intervalMs: 2000, idlePolls: 0, poll: 1, sinceSentMs: 0 }),
    ).toBe(0);
    expect(
      nextPollDelayMs({ covered: true, intervalMs: 2000, idlePolls: 30, poll: 1, sinceSentMs: 0 }),
    ).toBeGreaterThan(7000);
  });

  it("ends a follow on failures no retry can help, not on server errors", () => {
    const api = (grpcCode: number, httpStatus: number) =>
      new TurnkeyApiError({ httpStatus, grpcCode, message: "m" });
    expect(endsFollow(api(16, 401))).toBe(true);
    expect(endsFollow(api(9, 400))).toBe(true);
    expect(endsFollow(api(13, 500))).toBe(false);
    expect(endsFollow(api(8, 429))).toBe(false);
    expect(endsFollow(new Error("connection reset"))).toBe(false);
  });
});

describe("the follower retrying", () => {
  it("asks the client for one attempt per poll, says when the next try is, and honours Retry-After", async () => {
    const time = new SimTime(1_790_000_000_000);
    const retriesAsked: (number | undefined)[] = [];
    let fail: Error | undefined = new Error("connection refused by 127.0.0.1:1");
    const follower = new LogFollower({
      clock: time.clock,
      random: () => 0.5,
      fetchLogs: async (_req, options) => {
        retriesAsked.push(options.retries);
        time.mono += 10;
        if (fail) throw fail;
        return { data: { entries: [] }, meta: responseMeta({ serverDate: 1_790_000_000_000 }) };
      },
    });
    for (let n = 1; n <= 6; n++) {
      const r = await follower.pollOnce();
      const s = follower.getState();
      expect(s.phase).toBe("retrying");
      expect(s.retries).toBe(n);
      const wait = follower.nextDelayMs(r);
      expect(wait).toBeLessThanOrEqual(5000);
      expect(s.nextPollAt).toBe(time.mono + wait);
      expect(formatFollowerStatus(s, time.mono)).toBe(
        `retrying in ${Math.ceil(wait / 1000)}s, attempt ${n + 1}: connection refused by 127.0.0.1:1`,
      );
      time.mono += wait;
    }
    expect(retriesAsked.every((r) => r === 0)).toBe(true);
    fail = new TurnkeyApiError({
      httpStatus: 429,
      grpcCode: 8,
      message: "slow down",
      retryAfterMs: 42_000,
    });
    const limited = await follower.pollOnce();
    expect(follower.nextDelayMs(limited)).toBe(42_000);
    expect(formatFollowerStatus(follower.getState(), time.mono)).toMatch(
      /^retrying in 42s \(the server's Retry-After\), attempt 8: RESOURCE_EXHAUSTED/,
    );
    // Before any good poll there are no figures to call stale.
    expect(formatFollowerFigures(follower.getState(), time.mono)).toMatch(/^0 lines\/s · /);
    fail = undefined;
    const ok = await follower.pollOnce();
    expect(ok.ok).toBe(true);
    expect(formatFollowerStatus(follower.getState(), time.mono)).toBe("live");
    time.mono += 10_000;
    fail = new Error("reset");
    await follower.pollOnce();
    expect(formatFollowerFigures(follower.getState(), time.mono)).toMatch(
      /^stale, last poll 10s ago: /,
    );
    expect(formatFollowerStatus(follower.getState(), time.mono)).not.toMatch(/gave up/);
  });

  it("polls at once on retryNow, instead of finishing the wait", async () => {
    let polls = 0;
    let failing = true;
    const slept: number[] = [];
    const follower = new LogFollower({
      fetchLogs: async () => {
        polls += 1;
        if (failing) throw new Error("connection refused");
        return { data: { entries: [] }, meta: responseMeta() };
      },
      random: () => 0.999,
      // The real sleep would wait seconds; this one waits for the wake-up alone.
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          slept.push(ms);
          if (signal.aborted) resolve();
          signal.addEventListener("abort", () => resolve(), { once: true });
        }),
    });
    const controller = new AbortController();
    const running = follower.run(controller.signal, true);
    await waitFor(() => slept.length === 1, "the wait after the failed poll", { everyMs: 1 });
    expect(polls).toBe(1);
    failing = false;
    follower.retryNow();
    await waitFor(() => slept.length === 2, "the wait after the next poll", { everyMs: 1 });
    expect(polls).toBe(2);
    expect(follower.getState().phase).toBe("live");
    controller.abort();
    await running;
    expect(follower.getState().phase).toBe("stopped");
  });
});

describe("the follower sharing a request limit", () => {
  it("plans its window only once it holds a slot: time waiting for one neither widens nor shortens it", async () => {
    const time = new SimTime(1_790_000_000_000);
    const asked: (string | undefined)[] = [];
    let waitedMs = 0;
    const follower = new LogFollower({
      clock: time.clock,
      random: () => 0.5,
      intervalMs: 2000,
      overlapMs: 0,
      minOverlapMs: 0,
      acquireSlot: async () => {
        // Another deployment holds the slot for a while.
        time.mono += waitedMs;
        return () => {};
      },
      fetchLogs: async (req) => {
        asked.push(req.sinceSeconds);
        time.mono += 5;
        return {
          data: { entries: [] },
          meta: responseMeta({ serverDate: Math.floor(time.clock.now() / 1000) * 1000 }),
        };
      },
    });
    await follower.pollOnce();
    time.mono += 2000;
    await follower.pollOnce();
    const calm = asked.at(-1);
    waitedMs = 9000;
    time.mono += 2000;
    await follower.pollOnce();
    // Waiting 9 s for the slot makes the window cover those 9 s too, not miss them.
    expect(Number(asked.at(-1))).toBeGreaterThanOrEqual(Number(calm) + 9);
  });
});
