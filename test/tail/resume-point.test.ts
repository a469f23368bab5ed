/**
 * A follow resumed from a checkpoint (issue #30, point 1): its first window reaches back to the
 * recorded point, judged by the answer's Date header, and no further than the slack; an answer
 * that reached too far is set aside, one that fell short is followed at once by a wider window.
 */
import { describe, expect, it } from "vitest";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogFollower } from "../../src/tail/follower.js";
import { judgeResumeWindow, type ResumePoint } from "../../src/tail/resume-point.js";
import type { ModelLine } from "./model-server.js";
import { ModelServer, SimTime } from "./model-server.js";

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
});
