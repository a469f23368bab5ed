import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogFollower } from "../../src/tail/follower.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";
import { mulberry } from "../helpers/seeded-random.js";

const WALL = 1_790_000_000_000;

interface MergeScenario {
  replicas: number;
  linesPerReplica: number;
  /** Per replica: how late its lines reach the server, at most (in order). */
  lagMs: number[];
  skewMs: number;
  clientWrongByMs: number;
  failureRate: number;
  maxLatencyMs: number;
  holdBackMs: number;
  seed: number;
}

const mergeScenario: fc.Arbitrary<MergeScenario> = fc.record({
  replicas: fc.integer({ min: 1, max: 4 }),
  linesPerReplica: fc.integer({ min: 0, max: 80 }),
  lagMs: fc.array(fc.integer({ min: 0, max: 2500 }), { minLength: 4, maxLength: 4 }),
  skewMs: fc.integer({ min: -120_000, max: 120_000 }),
  clientWrongByMs: fc.integer({ min: -600_000, max: 600_000 }),
  failureRate: fc.constantFrom(0, 0, 0.25),
  maxLatencyMs: fc.integer({ min: 0, max: 3000 }),
  holdBackMs: fc.constantFrom(0, 1000, 3000),
  seed: fc.integer(),
});

function linesOf(s: MergeScenario, random: () => number): ModelLine[] {
  const lines: ModelLine[] = [];
  const start = WALL + s.skewMs + 500;
  for (let r = 0; r < s.replicas; r++) {
    let t = start;
    let visible = start;
    for (let i = 0; i < s.linesPerReplica; i++) {
      t += random() * 400 + 0.000001 * (1 + Math.floor(random() * 999));
      // A replica's lines reach the server through one pipe: late, but in their order.
      visible = Math.max(visible, t + random() * (s.lagMs[r] ?? 0));
      lines.push({
        replicaLabel: `replica ${r + 1}/${s.replicas}`,
        t,
        hasTs: true,
        content: `r${r + 1} line ${i}`,
        visibleAt: visible,
      });
    }
  }
  return lines;
}

/** Follows the model server the way `run` does (flushing at the end), collecting lines. */
async function follow(s: MergeScenario) {
  const random = mulberry(s.seed);
  const time = new SimTime(WALL + s.clientWrongByMs);
  const lines = linesOf(s, random);
  const server = new ModelServer(lines, time, {
    skewMs: s.skewMs - s.clientWrongByMs,
    failureRate: s.failureRate,
    maxLatencyMs: s.maxLatencyMs,
    random,
  });
  const follower = new LogFollower({
    fetchLogs: server.fetchLogs,
    clock: time.clock,
    overlapMs: 5000,
    holdBackMs: s.holdBackMs,
  });
  const emitted: LogLine[] = [];
  follower.onEvents((events) => {
    for (const e of events) if (e.kind === "line") emitted.push(e);
  });
  const end = Math.max(0, ...lines.map((l) => l.visibleAt - (WALL + s.skewMs)));
  let clean = 0;
  for (let polls = 0; clean < 3 && polls < 5000; polls++) {
    const result = await follower.pollOnce();
    // Run on past the hold-back (and the Date header's one-second resolution).
    if (time.mono > end + s.holdBackMs + 2000 && result.ok) clean += 1;
    time.mono += follower.nextDelayMs(result);
  }
  const heldAtEnd = follower.heldCount();
  follower.flush();
  return { lines, emitted, heldAtEnd, follower };
}

describe("the follower's merge hold-back", () => {
  it("keeps every line exactly once and each replica in its own order, with or without it", async () => {
    await fc.assert(
      fc.asyncProperty(mergeScenario, async (s) => {
        const { lines, emitted } = await follow(s);
        expect(emitted.map((l) => l.content).sort()).toEqual(lines.map((l) => l.content).sort());
        for (let r = 1; r <= s.replicas; r++) {
          const label = `replica ${r}/${s.replicas}`;
          const want = lines.filter((l) => l.replicaLabel === label).map((l) => l.content);
          const got = emitted.filter((l) => l.replicaLabel === label).map((l) => l.content);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("merges replicas in timestamp order when it covers the ingest lag and no poll fails", async () => {
    await fc.assert(
      fc.asyncProperty(mergeScenario, async (raw) => {
        const s = { ...raw, holdBackMs: 3000, failureRate: 0 };
        const { lines, emitted, heldAtEnd } = await follow(s);
        expect(emitted).toHaveLength(lines.length);
        for (let i = 1; i < emitted.length; i++) {
          expect((emitted[i] as LogLine).sortKey).toBeGreaterThanOrEqual(
            (emitted[i - 1] as LogLine).sortKey,
          );
        }
        expect(emitted.some((l) => l.late)).toBe(false);
        // Long after the last line, nothing is left waiting for the watermark.
        expect(heldAtEnd).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it("without it, a lagging replica's lines come late (marked so); with it, in order", async () => {
    const lines: ModelLine[] = [];
    for (let i = 0; i < 40; i++) {
      const t = WALL + 500 + i * 100;
      lines.push({ replicaLabel: "replica 1/2", t, hasTs: true, content: `a${i}`, visibleAt: t });
      lines.push({
        replicaLabel: "replica 2/2",
        t: t + 50,
        hasTs: true,
        content: `b${i}`,
        visibleAt: t + 50 + 2500,
      });
    }
    const outcome = async (holdBackMs: number) => {
      const time = new SimTime(WALL);
      const server = new ModelServer(lines, time, {
        skewMs: 0,
        failureRate: 0,
        maxLatencyMs: 0,
        random: mulberry(1),
      });
      const follower = new LogFollower({
        fetchLogs: server.fetchLogs,
        clock: time.clock,
        holdBackMs,
      });
      const got: LogLine[] = [];
      follower.onEvents((events) => {
        for (const e of events) if (e.kind === "line") got.push(e);
      });
      while (time.mono < 10_000) {
        await follower.pollOnce();
        time.mono += 1000;
      }
      follower.flush();
      return got;
    };
    const want = [...lines].sort((x, y) => x.t - y.t).map((l) => l.content);
    const immediate = await outcome(0);
    expect([...immediate.map((l) => l.content)].sort()).toEqual([...want].sort());
    expect(immediate.filter((l) => l.late).length).toBeGreaterThan(0);
    expect(immediate.filter((l) => l.late).every((l) => l.replicaLabel === "replica 2/2")).toBe(
      true,
    );
    const held = await outcome(3000);
    expect(held.map((l) => l.content)).toEqual(want);
    expect(held.some((l) => l.late)).toBe(false);
  });

  it("grows to a replica's lag, so that after a first late line or two the stream is in order", async () => {
    const lines: ModelLine[] = [];
    for (let i = 0; i < 600; i++) {
      const t = WALL + 500 + i * 100;
      lines.push({ replicaLabel: "replica 1/2", t, hasTs: true, content: `a${i}`, visibleAt: t });
      // Replica 2's lines reach the server 2 to 2.5 s late.
      const u = t + 50;
      lines.push({
        replicaLabel: "replica 2/2",
        t: u,
        hasTs: true,
        content: `b${i}`,
        visibleAt: u + 2000 + (i % 6) * 100,
      });
    }
    const time = new SimTime(WALL);
    const server = new ModelServer(lines, time, {
      skewMs: 0,
      failureRate: 0,
      maxLatencyMs: 0,
      random: mulberry(2),
    });
    const follower = new LogFollower({
      fetchLogs: server.fetchLogs,
      clock: time.clock,
      holdBackMs: 1000,
    });
    const late: number[] = [];
    let count = 0;
    follower.onEvents((events) => {
      for (const e of events) {
        if (e.kind !== "line") continue;
        count += 1;
        if (e.late) late.push(e.sortKey - WALL);
      }
    });
    while (time.mono < 70_000) {
      const result = await follower.pollOnce();
      time.mono += follower.nextDelayMs(result);
    }
    follower.flush();
    expect(count).toBe(lines.length);
    expect(late.length).toBeGreaterThan(0);
    // Only while it learns: nothing after the first ten seconds of lines.
    expect(Math.max(...late)).toBeLessThan(10_000);
  });

  it("shows what it holds when a poll fails, instead of waiting for the next success", async () => {
    const time = new SimTime(WALL);
    let fail = false;
    const follower = new LogFollower({
      clock: time.clock,
      holdBackMs: 2000,
      fetchLogs: async () => {
        time.mono += 10;
        if (fail) throw new Error("connection reset");
        const seconds = Math.floor((WALL + time.mono) / 1000);
        return {
          data: {
            entries: [
              {
                replicaLabel: "replica 1/1",
                line: { content: "just now", ts: { seconds: String(seconds), nanos: "0" } },
              },
            ],
          },
          meta: {
            status: 200,
            serverDate: seconds * 1000,
            sentAtWall: 0,
            receivedAtWall: 0,
            sentAtMonotonic: 0,
            receivedAtMonotonic: 0,
            attempts: 1,
          },
        };
      },
    });
    const got: string[] = [];
    follower.onEvents((events) => {
      for (const e of events) if (e.kind === "line") got.push(e.content);
    });
    await follower.pollOnce();
    expect(got).toEqual([]);
    expect(follower.heldCount()).toBe(1);
    fail = true;
    time.mono += 1000;
    const failed = await follower.pollOnce();
    expect(failed.ok).toBe(false);
    expect(got).toEqual(["just now"]);
    expect(follower.heldCount()).toBe(0);
  });
});
