/**
 * What a checkpoint keeps (issue #30, point 2): the lines a later first window can send again,
 * let go by what responses left out whatever order lines came in, and no more than a cap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogFollower } from "../../src/tail/follower.js";
import { HandledLines, type HandledRecord } from "../../src/tail/handled-lines.js";
import { DIGEST_CHARS, digestOf, lineKey } from "../../src/tail/line-identity.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";
import { mulberry } from "../helpers/seeded-random.js";

const WALL = 1_790_000_000_000;
const YEAR = 365 * 24 * 3_600_000;

function digestsOf(r: HandledRecord): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < r.lines.length; i += DIGEST_CHARS) {
    const d = r.lines.slice(i, i + DIGEST_CHARS);
    m.set(d, (m.get(d) ?? 0) + 1);
  }
  return m;
}

/**
 * Lines of `replicas` replicas at `rate` lines/s each for `seconds`, each reaching the server up
 * to `lagMs` late (so they come out of order), one stamped a year ahead early on, and one stamped
 * in 1970 that a hostile server sends in every answer.
 */
function disorderedLines(o: {
  replicas: number;
  rate: number;
  seconds: number;
  lagMs: number;
  seed: number;
}): ModelLine[] {
  const random = mulberry(o.seed);
  const start = WALL + 500;
  const lines: ModelLine[] = [];
  for (let r = 0; r < o.replicas; r++) {
    for (let i = 0; i < o.rate * o.seconds; i++) {
      const t = start + (i * 1000) / o.rate + r * 0.001 + random() * 0.0009;
      lines.push({
        replicaLabel: `replica ${r + 1}/${o.replicas}`,
        t,
        hasTs: true,
        content: `line ${i}`,
        visibleAt: t + random() * o.lagMs,
      });
    }
  }
  lines.push({
    replicaLabel: "replica 1/1",
    t: start + 1000 + YEAR,
    hasTs: true,
    content: "a year ahead",
    visibleAt: start + 1000,
  });
  lines.push({
    replicaLabel: "replica 1/1",
    t: 86_400_000,
    hasTs: true,
    content: "in 1970",
    visibleAt: start + 2000,
    always: { from: start + 2000, until: Number.POSITIVE_INFINITY },
  });
  return lines;
}

interface Recorded {
  record: HandledRecord;
  /** Lines handed on when it was taken. */
  handedOn: number;
}

/** Follows the lines with a HandledLines recording after every batch, as tail does. */
async function follow(lines: ModelLine[], untilMs: number, cap?: number) {
  const random = mulberry(7);
  const time = new SimTime(WALL);
  const server = new ModelServer(lines, time, {
    skewMs: 0,
    failureRate: 0.05,
    maxLatencyMs: 300,
    random,
  });
  const overflows: string[] = [];
  const handled = new HandledLines("dep", {
    ...(cap ? { cap } : {}),
    onOverflow: (t) => overflows.push(t),
  });
  const follower = new LogFollower({
    fetchLogs: server.fetchLogs,
    clock: time.clock,
    holdBackMs: 1000,
    sinceMs: 60_000,
    random,
  });
  follower.onResponse((s) => handled.sighted(s));
  const handedOn: LogLine[] = [];
  const records: Recorded[] = [];
  let largest = 0;
  follower.onEvents((batch) => {
    for (const e of handled.add(batch)) if (e.kind === "line") handedOn.push(e);
    const record = handled.record(follower.progress());
    if (record) records.push({ record, handedOn: handedOn.length });
    largest = Math.max(largest, handled.size());
  });
  while (time.mono < untilMs) {
    const result = await follower.pollOnce();
    time.mono += follower.nextDelayMs(result);
  }
  return { handled, handedOn, records, overflows, largest };
}

describe("what a checkpoint keeps", () => {
  it("holds every line handed on that a first window reaching back within its slack can send again", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer(),
        async (replicas, rate, lagMs, seed) => {
          const lines = disorderedLines({ replicas, rate, seconds: 20, lagMs, seed });
          const { handedOn, records } = await follow(lines, 25_000);
          expect(records.length).toBeGreaterThan(5);
          for (const { record, handedOn: upTo } of records) {
            const kept = digestsOf(record);
            // Room enough to place a later first window: whole seconds, a Date header's second.
            expect(record.slackMs).toBeGreaterThanOrEqual(2500);
            // A later first window's front is no earlier than this: it sends every line placed
            // from there on, and the hostile server's line in every answer.
            const reach = record.resumeFromMs - record.slackMs;
            const need = new Map<string, number>();
            for (const e of handedOn.slice(0, upTo)) {
              if (e.sortKey < reach && e.content !== "in 1970") continue;
              const d = digestOf(lineKey(e));
              need.set(d, (need.get(d) ?? 0) + 1);
            }
            for (const [d, n] of need) expect(kept.get(d) ?? 0).toBeGreaterThanOrEqual(n);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it("stays as small as the windows, with a line from the future early on and lines out of order", async () => {
    // 3 replicas at 100 lines/s, up to 3 s late, for 2 minutes: the windows hold at most about
    // 11 s of lines (overlap up to 5 s, interval 2 s, hold-back, allowance, a second of rounding).
    const lines = disorderedLines({ replicas: 3, rate: 100, seconds: 120, lagMs: 3000, seed: 3 });
    const { handled, records, largest } = await follow(lines, 125_000);
    const last = records.at(-1)?.record as HandledRecord;
    expect(largest).toBeLessThan(300 * 12);
    expect(handled.size()).toBeLessThan(300 * 12);
    // The line a year ahead is kept (every window sends it); so is the one from 1970.
    const kept = digestsOf(last);
    const keyOf = (label: string, t: number, content: string) => {
      const seconds = Math.floor(t / 1000);
      return `${label}\u0000${seconds}.${Math.round((t - seconds * 1000) * 1e6)}\u0000${content}`;
    };
    const ahead = lines.find((l) => l.content === "a year ahead") as ModelLine;
    const old = lines.find((l) => l.content === "in 1970") as ModelLine;
    expect(kept.get(digestOf(keyOf(ahead.replicaLabel, ahead.t, ahead.content)))).toBe(1);
    expect(kept.get(digestOf(keyOf(old.replicaLabel, old.t, old.content)))).toBe(1);
    // Its point is the follow's measured progress, not the line a year ahead.
    expect(last.resumeFromMs).toBeLessThan(WALL + 125_000);
    expect(last.resumeFromMs).toBeGreaterThan(WALL + 110_000);
  }, 60_000);

  it("keeps at most its cap: past it, says so once, moves its point on and records the gap", async () => {
    const lines = disorderedLines({ replicas: 3, rate: 100, seconds: 30, lagMs: 0, seed: 5 });
    const { handled, records, overflows, largest } = await follow(lines, 30_000, 500);
    expect(largest).toBeLessThanOrEqual(500);
    expect(handled.size()).toBeLessThanOrEqual(500);
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toMatch(/keeps at most 500 lines.*a gap marker would say so/);
    const last = records.at(-1)?.record as HandledRecord;
    expect(last.lines.length / DIGEST_CHARS).toBeLessThanOrEqual(500);
    expect(last.gap).toBeDefined();
    const gap = HandledLines.gapMarker(last);
    expect(gap?.kind).toBe("gap");
    expect(gap?.reason).toMatch(/not read again/);
  }, 60_000);

  it("drops each line carried from before a restart once, and keeps what is new", () => {
    const line = (content: string, seconds: string): LogLine => ({
      kind: "line",
      replicaLabel: "replica 1/1",
      seconds,
      nanos: 5,
      sortKey: Number(seconds) * 1000,
      content,
      late: false,
    });
    const before = new HandledLines("dep");
    before.add([line("a", "100"), line("b", "101"), line("b", "101")]);
    const record = before.record({
      resumeFromMs: 90_000,
      clock: "server",
      slackMs: 3000,
      resuming: false,
      response: 0,
    }) as HandledRecord;
    expect(record.lines.length).toBe(3 * DIGEST_CHARS);
    const after = new HandledLines("dep", { resumedFrom: record });
    const out = after.add([
      line("a", "100"),
      line("b", "101"),
      line("b", "101"),
      line("b", "101"),
      line("c", "102"),
    ]);
    expect(out.map((e) => (e.kind === "line" ? e.content : "gap"))).toEqual(["b", "c"]);
    // A second restart drops them again: they are kept, as handed on.
    const again = after.record({
      resumeFromMs: 95_000,
      clock: "server",
      slackMs: 3000,
      resuming: false,
      response: 0,
    }) as HandledRecord;
    expect(again.lines.length).toBe(5 * DIGEST_CHARS);
  });
});
