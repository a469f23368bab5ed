/**
 * A follow resumed from a checkpoint (issue #30, point 1): its first window reaches back to the
 * recorded point, judged by the answer's Date header, and no further than the slack; an answer
 * that reached too far is set aside, one that fell short is followed at once by a wider window.
 */
import { describe, expect, it } from "vitest";
import type { LogEvent, LogLine } from "../../src/logs/model/log-line.js";
import { LogFollower, ResumeRefusedError } from "../../src/tail/follower.js";
import { judgeResumeWindow, type ResumePoint, refuseResume } from "../../src/tail/resume-point.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";

const WALL = 1_790_000_000_000;

describe("judging a resumed first window", () => {
  const point: ResumePoint = { fromMs: 100_000, slackMs: 3000, clock: "server" };
  it("covers when its front is between the point less the slack and the point", () => {
    expect(judgeResumeWindow(point, 10_000, { low: 108_000, high: 109_000 })).toBe("covered");
  });
  it("falls short when its front may be after the point", () => {
    expect(judgeResumeWindow(point, 10_000, { low: 109_500, high: 110_500 })).toBe("short");
  });
  it("is set aside when its front may be before the slack", () => {
    expect(judgeResumeWindow(point, 10_000, { low: 106_000, high: 107_000 })).toBe("set-aside");
  });
});

describe("refusing a point that cannot be resumed from", () => {
  const point: ResumePoint = { fromMs: 100_000, slackMs: 3000, clock: "server" };
  it("refuses a point ahead of the clock at the answer, and one no window the server keeps reaches", () => {
    expect(refuseResume(point, 1000, { low: 70_000, high: 71_000 }, 3_600_000)).toBe("ahead");
    expect(refuseResume(point, 1000, { low: 99_000, high: 100_000 }, 3_600_000)).toBeUndefined();
    expect(refuseResume(point, 60_000, { low: 200_000, high: 201_000 }, 60_000)).toBe("expired");
    // The longest window there is, answered a little late, falls short: expired too.
    expect(refuseResume(point, 60_000, { low: 159_000, high: 161_000 }, 60_000)).toBe("expired");
    expect(refuseResume(point, 60_000, { low: 157_000, high: 158_000 }, 60_000)).toBeUndefined();
  });
});

describe("a follow resumed from a point", () => {
  /** 10 lines/s on the server's clock from 0 to 40 s (server ms since WALL). */
  const lines: ModelLine[] = Array.from({ length: 400 }, (_, i) => ({
    replicaLabel: "replica 1/1",
    t: WALL + i * 100 + 0.5,
    hasTs: true,
    content: `line ${i}`,
    visibleAt: WALL + i * 100 + 0.5,
  }));

  async function resumed(o: {
    serverMinusWallMs: number;
    clientWrongByMs: number;
    latencyMs?: number;
  }) {
    const time = new SimTime(WALL + o.clientWrongByMs);
    time.mono = 30_000;
    const server = new ModelServer(lines, time, {
      skewMs: -o.clientWrongByMs,
      failureRate: 0,
      maxLatencyMs: 2 * (o.latencyMs ?? 20),
      random: () => 0.5,
    });
    const asked: string[] = [];
    const follower = new LogFollower({
      clock: time.clock,
      holdBackMs: 0,
      resume: {
        fromMs: WALL + 20_000,
        // As a follow recording through such answers would have written (2.5 s + 2 allowances).
        slackMs: 2500 + 4 * (o.latencyMs ?? 20),
        clock: "server",
        serverMinusWallMs: o.serverMinusWallMs,
      },
      fetchLogs: async (request, options) => {
        asked.push(request.sinceSeconds ?? "-");
        return server.fetchLogs(request, options);
      },
    });
    const emitted: LogLine[] = [];
    follower.onEvents((events) => {
      for (const e of events) if (e.kind === "line") emitted.push(e);
    });
    for (let i = 0; i < 4; i++) {
      const result = await follower.pollOnce();
      time.mono += follower.nextDelayMs(result);
    }
    return { asked, emitted, follower };
  }

  it("asks back to the point, from the recorded clock offset", async () => {
    const { asked, emitted, follower } = await resumed({
      serverMinusWallMs: -600_000,
      clientWrongByMs: 600_000,
    });
    expect(asked[0]).toBe("11");
    // Nothing before the point less its slack; everything from the point on.
    const first = Math.min(...emitted.map((e) => e.sortKey));
    expect(first).toBeGreaterThanOrEqual(WALL + 17_000);
    expect(first).toBeLessThanOrEqual(WALL + 20_000);
    expect(new Set(emitted.map((e) => e.content)).size).toBe(emitted.length);
    expect(follower.progress()?.resuming).toBe(false);
  });

  it("sets aside an answer that reached back past the slack (this machine's clock was set since), and asks again", async () => {
    // The recorded offset is 30 s off: the first window reaches 30 s too far back.
    const { asked, emitted } = await resumed({ serverMinusWallMs: 30_000, clientWrongByMs: 0 });
    expect(Number(asked[0])).toBeGreaterThan(35);
    expect(Number(asked[1])).toBeLessThanOrEqual(12);
    expect(Math.min(...emitted.map((e) => e.sortKey))).toBeGreaterThanOrEqual(WALL + 17_000);
  });

  it("asks again at once, wider, when the first window fell short of the point", async () => {
    // The recorded offset is 5 s off the other way: the first window misses 5 s.
    const { asked, emitted } = await resumed({ serverMinusWallMs: -5000, clientWrongByMs: 0 });
    expect(Number(asked[1])).toBeGreaterThan(Number(asked[0]));
    const keys = emitted.map((e) => e.sortKey);
    expect(Math.min(...keys)).toBeLessThanOrEqual(WALL + 20_000);
    expect(new Set(emitted.map((e) => e.content)).size).toBe(emitted.length);
  });

  it("reaches the point through slow answers: the way there and back is allowed for when it asks again", async () => {
    // Each answer takes 3 s (made 1.5 s after the request went out): the first window, planned
    // with a quarter of a second for the way, falls short; the next allows for it.
    const { asked, emitted, follower } = await resumed({
      serverMinusWallMs: 0,
      clientWrongByMs: 0,
      latencyMs: 3000,
    });
    expect(follower.progress()?.resuming).toBe(false);
    expect(asked.length).toBeLessThanOrEqual(4);
    expect(Math.min(...emitted.map((e) => e.sortKey))).toBeLessThanOrEqual(WALL + 20_000);
    expect(new Set(emitted.map((e) => e.content)).size).toBe(emitted.length);
  });

  it("takes an answer past the slack once too many were set aside, and lets the next answer tell a line out of place from lines handed on before", async () => {
    // Answers take 3 s and the record allows half a second of slack: no window can be placed
    // within it, and the fourth answer set aside is taken as it is. Its lines stamped before the
    // slack wait for the next answer, whose window began within it: the line stamped in 1970
    // that the server sends whatever the window comes again and is handed on; those the window
    // placed before the slack (handed on before the restart) do not, and are dropped.
    const time = new SimTime(WALL);
    time.mono = 30_000;
    const old: ModelLine = {
      replicaLabel: "replica 1/1",
      t: 86_400_000,
      hasTs: true,
      content: "in 1970",
      visibleAt: WALL,
      always: { from: WALL, until: Number.POSITIVE_INFINITY },
    };
    const server = new ModelServer([...lines, old], time, {
      skewMs: 0,
      failureRate: 0,
      maxLatencyMs: 6000,
      random: () => 0.5,
    });
    const asked: string[] = [];
    const follower = new LogFollower({
      clock: time.clock,
      holdBackMs: 0,
      resume: { fromMs: WALL + 20_000, slackMs: 500, clock: "server", serverMinusWallMs: 0 },
      fetchLogs: async (request, options) => {
        asked.push(request.sinceSeconds ?? "-");
        return server.fetchLogs(request, options);
      },
    });
    const emitted: LogLine[] = [];
    follower.onEvents((events) => {
      for (const e of events) if (e.kind === "line") emitted.push(e);
    });
    for (let i = 0; i < 6; i++) {
      const result = await follower.pollOnce();
      time.mono += follower.nextDelayMs(result);
    }
    expect(asked.length).toBe(6);
    expect(follower.progress()?.resuming).toBe(false);
    expect(emitted.filter((e) => e.content === "in 1970")).toHaveLength(1);
    const placed = emitted.filter((e) => e.content !== "in 1970");
    expect(Math.min(...placed.map((e) => e.sortKey))).toBeGreaterThanOrEqual(WALL + 19_500);
    expect(Math.min(...placed.map((e) => e.sortKey))).toBeLessThanOrEqual(WALL + 20_000);
    expect(new Set(placed.map((e) => e.content)).size).toBe(placed.length);
  });

  /** A follow resumed from `resume` at server time WALL + 30 s; its requests and events. */
  async function firstAnswer(resume: ResumePoint) {
    const time = new SimTime(WALL);
    time.mono = 30_000;
    const server = new ModelServer(lines, time, {
      skewMs: 0,
      failureRate: 0,
      maxLatencyMs: 40,
      random: () => 0.5,
    });
    const asked: string[] = [];
    const follower = new LogFollower({
      clock: time.clock,
      holdBackMs: 0,
      resume,
      fetchLogs: async (request, options) => {
        asked.push(request.sinceSeconds ?? "-");
        return server.fetchLogs(request, options);
      },
    });
    const events: LogEvent[] = [];
    follower.onEvents((e) => events.push(...e));
    let error: unknown;
    try {
      for (let i = 0; i < 3; i++) {
        const result = await follower.pollOnce();
        time.mono += follower.nextDelayMs(result);
      }
    } catch (err) {
      error = err;
    }
    return { asked, events, error, follower };
  }

  it("refuses, at the first answer, a point ahead of the server's clock by its Date header: nothing handed on", async () => {
    // 30 s ahead of the server, with an offset that says the server's clock agrees.
    const { asked, events, error, follower } = await firstAnswer({
      fromMs: WALL + 60_000,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 30_000,
    });
    expect(asked).toHaveLength(1);
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ResumeRefusedError);
    const refused = error as ResumeRefusedError;
    expect(refused.refusal).toBe("ahead");
    expect(refused.byDateHeader).toBe(true);
    expect(refused.fromMs - refused.answeredAt.high).toBeGreaterThan(28_000);
    expect(follower.getState().phase).toBe("failed");
  });

  it("refuses a point older than the server keeps logs, never turning it into a gap", async () => {
    const { asked, events, error } = await firstAnswer({
      fromMs: WALL - 2 * 3_600_000,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 0,
      retentionMs: 3_600_000,
    });
    // The window asked is the most the server keeps, never more.
    expect(asked).toEqual(["3600"]);
    expect(events).toEqual([]);
    expect((error as ResumeRefusedError).refusal).toBe("expired");
  });

  it("asks no more than the server keeps when the recorded offset is days off, then places the window by the Date header", async () => {
    const { asked, events, error } = await firstAnswer({
      fromMs: WALL + 20_000,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 6 * 86_400_000,
      retentionMs: 5 * 86_400_000,
    });
    expect(error).toBeUndefined();
    expect(asked[0]).toBe(String(5 * 86_400));
    expect(Number(asked[1])).toBeLessThanOrEqual(12);
    const placed = events.filter((e): e is LogLine => e.kind === "line");
    expect(events.filter((e) => e.kind === "gap")).toEqual([]);
    expect(Math.min(...placed.map((e) => e.sortKey))).toBeGreaterThanOrEqual(WALL + 17_000);
    expect(new Set(placed.map((e) => e.content)).size).toBe(placed.length);
  });
});
