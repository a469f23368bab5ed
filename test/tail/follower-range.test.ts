/**
 * The follower's time range (`tail --since 20:33 --until 20:40`): only lines stamped within it are
 * handed on, each once, through skew, latency, failed polls and late lines; a follow stops polling
 * once every line up to the end is in, and a duration back is measured on the server's clock.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogFollower, type TimeRange } from "../../src/tail/follower.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";
import { mulberry } from "../helpers/seeded-random.js";

const WALL = 1_790_000_000_000;
/** The lines span a minute of server time from the follow's start. */
const SPAN_MS = 60_000;

interface RangeScenario {
  skewMs: number;
  lagMs: number;
  failureRate: number;
  maxLatencyMs: number;
  /** The range, as fractions of the span. */
  from: number;
  length: number;
  seed: number;
}

const scenario: fc.Arbitrary<RangeScenario> = fc.record({
  skewMs: fc.integer({ min: -120_000, max: 120_000 }),
  lagMs: fc.integer({ min: 0, max: 2500 }),
  failureRate: fc.constantFrom(0, 0, 0.25),
  maxLatencyMs: fc.integer({ min: 0, max: 2000 }),
  from: fc.double({ min: 0, max: 0.8, noNaN: true }),
  length: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
  seed: fc.integer(),
});

function linesOf(s: RangeScenario, random: () => number): ModelLine[] {
  const lines: ModelLine[] = [];
  for (let r = 1; r <= 3; r++) {
    let visible = 0;
    for (let t = WALL + s.skewMs + random() * 300; t < WALL + s.skewMs + SPAN_MS; ) {
      visible = Math.max(visible, t + random() * s.lagMs);
      lines.push({
        replicaLabel: `replica ${r}/3`,
        t,
        hasTs: true,
        content: `r${r} ${t}`,
        visibleAt: visible,
      });
      t += random() * 300 + 0.000001 * (1 + Math.floor(random() * 999));
    }
  }
  return lines;
}

/** Follows with `run(…, true)` as tail -f does, sleeping on simulated time; returns what came. */
async function follow(s: RangeScenario, range: (serverStart: number) => TimeRange) {
  const random = mulberry(s.seed);
  const time = new SimTime(WALL);
  const lines = linesOf(s, random);
  const server = new ModelServer(lines, time, {
    skewMs: s.skewMs,
    failureRate: s.failureRate,
    maxLatencyMs: s.maxLatencyMs,
    random,
  });
  let polls = 0;
  // A follow that never stopped would run on in simulated time: ended here, and failed below.
  const controller = new AbortController();
  const follower = new LogFollower({
    fetchLogs: (request, options) => {
      polls += 1;
      if (polls >= 2000) controller.abort();
      return server.fetchLogs(request, options);
    },
    clock: time.clock,
    overlapMs: 5000,
    holdBackMs: 1000,
    sinceMs: 10_000,
    range: range(WALL + s.skewMs),
    sleep: async (ms) => {
      time.mono += ms;
    },
    random,
  });
  const emitted: LogLine[] = [];
  follower.onEvents((events) => {
    for (const e of events) if (e.kind === "line") emitted.push(e);
  });
  await follower.run(controller.signal, true);
  expect(controller.signal.aborted).toBe(false);
  return { lines, emitted, stoppedAt: time.mono, follower };
}

describe("the follower's time range", () => {
  it("hands on exactly the lines stamped within it, each once, and stops polling past its end", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        let fromMs = 0;
        let untilMs = 0;
        const { lines, emitted, stoppedAt } = await follow(s, (start) => {
          fromMs = start + s.from * SPAN_MS;
          untilMs = fromMs + s.length * SPAN_MS;
          return { fromMs, until: { atMs: untilMs } };
        });
        const want = lines.filter((l) => l.t >= fromMs && l.t <= untilMs).map((l) => l.content);
        expect(emitted.map((l) => l.content).sort()).toEqual(want.sort());
        // It stopped soon after the end had passed on the server (not at the span's end).
        const endMono = untilMs - WALL - s.skewMs;
        expect(stoppedAt).toBeLessThan(endMono + 5000 + 3 * 2000 + 4 * s.maxLatencyMs + 60_000);
      }),
      { numRuns: 60 },
    );
  });

  it("hands on the range's first lines when every try fails for longer than --since (a found case)", async () => {
    // Four failed tries over 10.5 s before the first answer: --since 10 s still reaches back to
    // where the follow began, not to 10 s before that answer.
    const s: RangeScenario = {
      skewMs: 0,
      lagMs: 0,
      failureRate: 0.25,
      maxLatencyMs: 0,
      from: 0,
      length: 0.01,
      seed: 2073407998,
    };
    let fromMs = 0;
    let untilMs = 0;
    const { lines, emitted } = await follow(s, (start) => {
      fromMs = start;
      untilMs = fromMs + s.length * SPAN_MS;
      return { fromMs, until: { atMs: untilMs } };
    });
    const want = lines.filter((l) => l.t >= fromMs && l.t <= untilMs).map((l) => l.content);
    expect(want.length).toBeGreaterThan(5);
    expect(emitted.map((l) => l.content).sort()).toEqual(want.sort());
  });

  it("measures a duration back from the server's time when it first answers", async () => {
    const s: RangeScenario = {
      skewMs: 90_000,
      lagMs: 0,
      failureRate: 0,
      maxLatencyMs: 0,
      from: 0,
      length: 0,
      seed: 7,
    };
    // The lines of the span are not out yet at the start: a range ending 5 s before the server's
    // start takes none of them, whatever this machine's clock says.
    const before = await follow(s, () => ({ until: { agoMs: 5000 } }));
    expect(before.lines.length).toBeGreaterThan(100);
    expect(before.emitted).toEqual([]);
    // The end had passed when it began: it stopped after its first windows.
    expect(before.stoppedAt).toBeLessThan(30_000);
  });

  it("with no range hands on every line (the range is what narrows)", async () => {
    const random = mulberry(3);
    const time = new SimTime(WALL);
    const s = { skewMs: 0, lagMs: 0, failureRate: 0, maxLatencyMs: 0, from: 0, length: 1, seed: 3 };
    const lines = linesOf(s, random).filter((l) => l.t < WALL + 5000);
    for (const l of lines) l.visibleAt = WALL;
    const server = new ModelServer(lines, time, { ...s, random });
    time.mono = 6000;
    const follower = new LogFollower({
      fetchLogs: server.fetchLogs,
      clock: time.clock,
      sinceMs: 10_000,
    });
    const emitted: string[] = [];
    follower.onEvents((events) => {
      for (const e of events) if (e.kind === "line") emitted.push(e.content);
    });
    await follower.run(new AbortController().signal, false);
    expect(emitted.sort()).toEqual(lines.map((l) => l.content).sort());
    expect(follower.reachedEnd()).toBe(false);
  });
});
