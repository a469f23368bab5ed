import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TurnkeyApiError } from "../../src/api/errors.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogStore } from "../../src/logs/model/log-store.js";
import { FollowerStopError, LogFollower } from "../../src/tail/follower.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";
import { responseMeta } from "../helpers/response-meta.js";
import { mulberry } from "../helpers/seeded-random.js";

/** Lines of one replica; `percentWithTs` of them carry a timestamp, contents from `contents`. */
const lineSpec = (percentWithTs: number, contents: string[]) =>
  fc.record({
    // Mostly busy, sometimes a quiet spell as long as a window, so lines fall off its front.
    gapMs: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 900 }), weight: 9 },
      { arbitrary: fc.integer({ min: 900, max: 12_000 }), weight: 1 },
    ),
    sameTime: fc.boolean(),
    repeats: fc.integer({ min: 1, max: 3 }),
    hasTs: fc.integer({ min: 0, max: 99 }).map((n) => n < percentWithTs),
    content: fc.constantFrom(...contents),
  });

const scenarioOf = (percentWithTs: number, contents: string[]) =>
  fc.record({
    replicas: fc.array(
      fc.array(lineSpec(percentWithTs, contents), { minLength: 0, maxLength: 60 }),
      { minLength: 1, maxLength: 3 },
    ),
    lagMs: fc.integer({ min: 0, max: 3000 }),
    skewMs: fc.integer({ min: -300_000, max: 300_000 }),
    clientWrongByMs: fc.integer({ min: -600_000, max: 600_000 }),
    failureRate: fc.double({ min: 0, max: 0.35, noNaN: true }),
    maxLatencyMs: fc.integer({ min: 0, max: 6000 }),
    seed: fc.integer(),
  });

const scenario = scenarioOf(85, ["a", "b", "c", "heartbeat ok", '{"level":"error"}', "用户"]);
/** Stack traces and blank lines: many untimestamped lines, few distinct contents. */
const untimestampedScenario = scenarioOf(30, ["", "x"]);

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * The API gives an untimestamped line no identity of its own: it can be told from an identical
 * one only by the timestamped lines of its replica around it. A replica that prints identical
 * untimestamped lines and no timestamped one for longer than a window is ambiguous to any
 * client (the same response can mean "the old lines" or "new ones"), so generated replicas
 * timestamp a line at least every 2 s around an untimestamped one, and before a quiet spell.
 */
const MAX_UNTIMESTAMPED_SPAN_MS = 2000;

function buildLines(s: Scenario, start: number, random: () => number): ModelLine[] {
  const lines: ModelLine[] = [];
  s.replicas.forEach((specs, r) => {
    let t = start;
    let lastTs = Number.NEGATIVE_INFINITY;
    specs.forEach((spec, j) => {
      if (!spec.sameTime) t += spec.gapMs + 0.000001 * (1 + Math.floor(random() * 999));
      const next = specs[j + 1];
      const quietNext = next !== undefined && !next.sameTime && next.gapMs > 900;
      const hasTs = spec.hasTs || t - lastTs > MAX_UNTIMESTAMPED_SPAN_MS || quietNext;
      if (hasTs) lastTs = t;
      for (let k = 0; k < spec.repeats; k++) {
        lines.push({
          replicaLabel: `replica ${r + 1}/${s.replicas.length}`,
          t,
          hasTs,
          content: spec.content,
          visibleAt: t + random() * s.lagMs,
        });
      }
    });
  });
  return lines;
}

const key = (replica: string, hasTs: boolean, t: number | undefined, content: string) =>
  `${replica}|${hasTs ? t : "none"}|${content}`;

/**
 * A line stamped an hour ahead of the server's clock in every replica, printed once: every window
 * holds it until the server's clock passes it, and it must move nothing (what is forgotten, the
 * server clock estimate).
 */
function aheadLines(s: Scenario, start: number, random: () => number): ModelLine[] {
  return s.replicas.map((_specs, r) => {
    const at = start + random() * 20_000;
    return {
      replicaLabel: `replica ${r + 1}/${s.replicas.length}`,
      t: at + 3_600_000,
      hasTs: true,
      content: "ahead",
      visibleAt: at,
    };
  });
}

/**
 * Lines out of place that a hostile server adds to its answers whatever the window: one stamped in
 * 1970 in every answer, and one stamped a year ahead only for 3 s. Neighbours of untimestamped
 * lines they must not be.
 */
function outOfPlaceLines(s: Scenario, start: number, random: () => number): ModelLine[] {
  return s.replicas.flatMap((_specs, r) => {
    const label = `replica ${r + 1}/${s.replicas.length}`;
    const at = start + random() * 20_000;
    return [
      {
        replicaLabel: label,
        t: 86_400_000 + r,
        hasTs: true,
        content: "in 1970",
        visibleAt: start,
        always: { from: start, until: Number.POSITIVE_INFINITY },
      },
      {
        replicaLabel: label,
        t: at + 365 * 86_400_000,
        hasTs: true,
        content: "a year ahead, briefly",
        visibleAt: at,
        always: { from: at, until: at + 3000 },
      },
    ];
  });
}

interface Hostile {
  noDate: boolean;
  outOfPlace?: boolean;
  /** The first window, as `tail` asks it (default: all the server has). */
  sinceMs?: number;
}

async function follow(s: Scenario, hostile?: Hostile) {
  const random = mulberry(s.seed);
  const wall = 1_790_000_000_000;
  const time = new SimTime(wall + s.clientWrongByMs);
  // Lines start a little after the follower does, on the server's clock.
  const start = wall + s.skewMs + 500;
  const lines = buildLines(s, start, random);
  if (hostile) lines.push(...aheadLines(s, start, random));
  if (hostile?.outOfPlace) lines.push(...outOfPlaceLines(s, start, random));
  const end =
    Math.max(start, ...lines.filter((l) => !l.always).map((l) => l.visibleAt)) - (wall + s.skewMs);
  const server = new ModelServer(lines, time, {
    skewMs: s.skewMs - s.clientWrongByMs,
    failureRate: s.failureRate,
    maxLatencyMs: s.maxLatencyMs,
    random,
    noDate: hostile?.noDate === true,
  });
  const follower = new LogFollower({
    fetchLogs: server.fetchLogs,
    clock: time.clock,
    overlapMs: 5000,
    sinceMs: hostile?.sinceMs,
  });
  const emitted: LogLine[] = [];
  const store = new LogStore();
  follower.onEvents((events) => {
    for (const e of events) if (e.kind === "line") emitted.push(e);
    store.append(events);
  });
  let polls = 0;
  // Poll until well after the last line is visible and a few clean polls have run.
  let cleanAfterEnd = 0;
  while (cleanAfterEnd < 3 && polls < 5000) {
    const result = await follower.pollOnce();
    polls += 1;
    if (time.mono > end + 1000 && result.ok) cleanAfterEnd += 1;
    time.mono += follower.nextDelayMs(result);
  }
  return { lines, emitted, store, follower };
}

async function assertExactlyOnce(s: Scenario, hostile?: Hostile) {
  const { lines, emitted, store, follower } = await follow(s, hostile);
  const want = new Map<string, number>();
  for (const l of lines) {
    // Sent for a few seconds only, a poll may miss it: at most once (below).
    if (l.always && l.always.until !== Number.POSITIVE_INFINITY) continue;
    const seconds = Math.floor(l.t / 1000);
    const nanos = Math.round((l.t - seconds * 1000) * 1e6);
    const k = key(l.replicaLabel, l.hasTs, seconds * 1000 + nanos / 1e6, l.content);
    want.set(k, (want.get(k) ?? 0) + 1);
  }
  const got = new Map<string, number>();
  for (const e of emitted) {
    const stamped = e.seconds !== undefined;
    const k = key(e.replicaLabel, stamped, stamped ? e.sortKey : undefined, e.content);
    got.set(k, (got.get(k) ?? 0) + 1);
  }
  const brief = [...got].filter(([k]) => k.endsWith("|a year ahead, briefly"));
  for (const [k, n] of brief) {
    expect(n).toBe(1);
    got.delete(k);
  }
  expect(got).toEqual(want);
  expect(store.size()).toBe(emitted.length);
  // The store holds every replica's timestamped lines in timestamp order.
  for (let i = 1; i < store.size(); i++) {
    expect(store.at(i)?.event.sortKey).toBeGreaterThanOrEqual(store.at(i - 1)?.event.sortKey ?? 0);
  }
  // De-duplication memory is bounded by the overlap, not by the stream.
  expect(follower.memorySize()).toBeLessThanOrEqual(lines.length);
}

async function assertOrderKept(raw: Scenario) {
  const s = { ...raw, lagMs: 0 };
  const { lines, emitted } = await follow(s);
  for (const label of new Set(lines.map((l) => l.replicaLabel))) {
    const want = lines.filter((l) => l.replicaLabel === label).map((l) => l.content);
    const got = emitted.filter((l) => l.replicaLabel === label).map((l) => l.content);
    expect(got).toEqual(want);
  }
  expect(emitted.some((e) => e.late)).toBe(false);
}

describe("the follower against a model server", () => {
  it("emits every line exactly once, through faults, slow polls, skew, late and identical lines", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => assertExactlyOnce(s)),
      { numRuns: 60 },
    );
  });

  it("emits every line exactly once beside lines stamped an hour ahead, with or without Date headers", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.boolean(), (s, noDate) => assertExactlyOnce(s, { noDate })),
      { numRuns: 60 },
    );
  });

  it("emits every line exactly once beside lines out of place that a hostile server adds to every answer, or to a few, with or without Date headers", async () => {
    await fc.assert(
      // Without Date headers, a neighbour out of place that goes in the very answer whose front
      // passes the line's other neighbour is told from one that fell away at the front by how far
      // fronts moved since: a first window of all the server has gives no front to start from, so
      // this one is as long as tail's.
      fc.asyncProperty(untimestampedScenario, fc.boolean(), (s, noDate) =>
        assertExactlyOnce(s, { noDate, outOfPlace: true, sinceMs: noDate ? 600_000 : undefined }),
      ),
      { numRuns: 80 },
    );
  });

  it("emits every line exactly once when many identical lines carry no timestamp", async () => {
    await fc.assert(
      fc.asyncProperty(untimestampedScenario, (s) => assertExactlyOnce(s)),
      { numRuns: 80 },
    );
  });

  it("keeps each replica's own order in the stream when nothing arrives late", async () => {
    await fc.assert(fc.asyncProperty(scenario, assertOrderKept), { numRuns: 40 });
    await fc.assert(fc.asyncProperty(untimestampedScenario, assertOrderKept), { numRuns: 40 });
  });

  it("emits exactly once in scenarios the properties once found wrong", async () => {
    // Lines of content "": after gapMs (or at the same instant), `repeats` of them.
    const later = (gapMs: number, repeats: number, hasTs = true) => ({
      gapMs,
      sameTime: false,
      repeats,
      hasTs,
      content: "",
    });
    const same = (repeats: number, hasTs = true) => ({
      ...later(0, repeats, hasTs),
      sameTime: true,
    });
    const base = { lagMs: 0, skewMs: 0, clientWrongByMs: 0 };
    // A slow poll grew the round-trip allowance, so the next window reached back past lines whose
    // identities had been forgotten.
    await assertExactlyOnce({
      ...base,
      replicas: [
        [same(2), later(0, 1), later(0, 3), later(382, 2), same(3)].concat([
          later(305, 1),
          later(438, 1),
          later(719, 1),
          later(8852, 2),
          same(1),
        ]),
        [same(1), same(1), same(1), same(1)],
      ],
      failureRate: 0,
      maxLatencyMs: 5575,
      seed: -1576268286,
    });
    // Identical untimestamped lines between timestamped ones of one instant: the window's front
    // cut the first of them away, and the rest were matched to the ones that fell off.
    await assertExactlyOnce({
      ...base,
      replicas: [
        [later(900, 1), later(0, 1), later(0, 1), later(0, 1), later(900, 1)].concat([
          later(0, 2),
          later(0, 3),
          later(0, 3),
        ]),
        [later(0, 1), later(0, 3, false), later(2, 1), same(1), same(2, false), same(1)],
      ],
      failureRate: 0.3167819997761399,
      maxLatencyMs: 2343,
      seed: -692001294,
    });
  });
});

describe("the follower's windows and failures", () => {
  it("never sends sinceSeconds 0 and grows the window to cover a slow response", async () => {
    const time = new SimTime(0);
    const requests: (string | undefined)[] = [];
    let slow = false;
    const follower = new LogFollower({
      clock: time.clock,
      overlapMs: 2000,
      sinceMs: 1,
      fetchLogs: async (req) => {
        requests.push(req.sinceSeconds);
        time.mono += slow ? 20_000 : 50;
        return {
          data: { entries: [] },
          meta: responseMeta(),
        };
      },
    });
    await follower.pollOnce();
    time.mono += 2000;
    slow = true;
    const slowResult = await follower.pollOnce();
    expect(slowResult.covered).toBe(false);
    slow = false;
    expect(follower.nextDelayMs(slowResult)).toBe(0);
    await follower.pollOnce();
    expect(requests[0]).toBe("1");
    expect(requests.every((r) => r !== "0")).toBe(true);
    // The poll after the slow one covers the 20 s it took.
    expect(Number(requests[2])).toBeGreaterThanOrEqual(22);
  });

  it("reports a gap after an outage longer than the server keeps logs", async () => {
    const time = new SimTime(1_790_000_000_000);
    let down = false;
    const follower = new LogFollower({
      clock: time.clock,
      serverRetentionMs: 60_000,
      fetchLogs: async () => {
        time.mono += 10;
        if (down) throw new Error("unreachable");
        return {
          data: { entries: [] },
          meta: responseMeta(),
        };
      },
    });
    const gaps: string[] = [];
    follower.onEvents((events) => {
      for (const e of events) if (e.kind === "gap") gaps.push(e.reason);
    });
    await follower.pollOnce();
    down = true;
    time.mono += 120_000;
    const failed = await follower.pollOnce();
    expect(failed.ok).toBe(false);
    expect(follower.getState().phase).toBe("retrying");
    down = false;
    await follower.pollOnce();
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatch(/longer than the server keeps logs/);
    expect(follower.getState().phase).toBe("live");
  });

  it("reports a gap when a tailLines response comes back full, and shows nothing older later", async () => {
    const time = new SimTime(0);
    const entry = (s: number, c: string) => ({
      replicaLabel: "replica 1/1",
      line: { content: c, ts: { seconds: String(s), nanos: "0" } },
    });
    const responses = [
      [entry(8, "h"), entry(9, "i")],
      [entry(5, "e"), entry(6, "f"), entry(7, "g"), entry(8, "h"), entry(9, "i"), entry(10, "j")],
    ];
    const follower = new LogFollower({
      clock: time.clock,
      tailLines: 2,
      fetchLogs: async () => ({
        data: { entries: responses.shift() ?? [] },
        meta: responseMeta(),
      }),
    });
    const out: string[] = [];
    follower.onEvents((events) => {
      for (const e of events) out.push(e.kind === "gap" ? "GAP" : e.content);
    });
    await follower.pollOnce();
    await follower.pollOnce();
    expect(out).toEqual(["GAP", "h", "i", "j"]);
  });

  it("stops on auth errors and on a deployment not in debug mode, with the client's error", async () => {
    for (const [code, status, message] of [
      [16, 401, "could not verify api key signature"],
      [7, 403, "request not authorized"],
      [9, 400, "deployment d is not running in debug mode"],
    ] as const) {
      const cause = new TurnkeyApiError({ httpStatus: status, grpcCode: code, message });
      const follower = new LogFollower({
        fetchLogs: async () => {
          throw cause;
        },
      });
      const err = await follower.pollOnce().catch((e) => e);
      expect(err).toBeInstanceOf(FollowerStopError);
      expect((err as FollowerStopError).cause).toBe(cause);
      expect((err as Error).message).toContain(message);
      expect(follower.getState().phase).toBe("failed");
    }
  });
});

describe("the follower's memory", () => {
  it("holds only what an overlap can still re-send, however long it follows", async () => {
    const time = new SimTime(1_790_000_000_000);
    let seq = 0;
    const perPoll = 600; // 300 lines/s at one poll every 2 s
    const follower = new LogFollower({
      clock: time.clock,
      overlapMs: 5000,
      fetchLogs: async (request) => {
        time.mono += 20;
        const entries = [];
        // The server's time is that of line seq + perPoll: the window holds 300 lines a second.
        const since = Number(request.sinceSeconds ?? 3600);
        for (let i = Math.max(0, seq + perPoll - since * 300); i < seq + perPoll; i++) {
          const ms = 1_790_000_000_000 + (i * 2000) / perPoll;
          const seconds = Math.floor(ms / 1000);
          entries.push({
            replicaLabel: "replica 1/1",
            line: {
              content: `line ${i}`,
              ts: {
                seconds: String(seconds),
                nanos: String(Math.round((ms - seconds * 1000) * 1e6)),
              },
            },
          });
        }
        seq += perPoll;
        return {
          data: { entries },
          meta: responseMeta({ serverDate: Math.floor(time.clock.now() / 1000) * 1000 }),
        };
      },
    });
    let emitted = 0;
    follower.onEvents((events) => {
      emitted += events.length;
    });
    for (let poll = 0; poll < 400; poll++) {
      await follower.pollOnce();
      time.mono += 1980;
    }
    expect(emitted).toBe(400 * perPoll);
    // A line is forgotten once a response left it out and the last covered poll is further past
    // that response's window than any window reaches back (overlap 5 s + the most a round-trip
    // allowance can grow to, 15 s, + 2 s for rounding and drift), checked once a poll: about
    // 24 s of lines at 300/s, however long the follow.
    expect(follower.memorySize()).toBeLessThan(300 * 26);
  });
});
