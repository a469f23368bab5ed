/**
 * Restart-safe following (issue #30) against a model server, across restarts at random moments:
 * a follow writes each batch to its output, then records a checkpoint; it is killed between polls
 * or between writing a batch and recording it; the next follow cuts the output back to the
 * recorded length and resumes from the checkpoint (read back from its text). Among the lines,
 * some are stamped a year ahead (sent by every window, as a server filtering by timestamp does)
 * and some in 1970 or an hour behind, sent by a hostile server in every answer whatever the
 * window; some only for a few seconds. Between runs this machine's clock may be set by seconds,
 * and the server may send no Date header at all. Every line the server keeps sending is in the
 * output exactly once; one it sent only for a while, at most once. Nothing is skipped, nothing
 * is there twice, whatever the timestamps say.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CheckpointFile,
  parseCheckpoint,
  resumePointOf,
  serializeCheckpoint,
} from "../../src/tail/checkpoint.js";
import { LogFollower } from "../../src/tail/follower.js";
import { HandledLines } from "../../src/tail/handled-lines.js";
import { lineKey } from "../../src/tail/line-identity.js";
import type { ModelLine } from "../helpers/log-server.js";
import { ModelServer, SimTime } from "../helpers/log-server.js";
import { mulberry } from "../helpers/seeded-random.js";

const WALL = 1_790_000_000_000;
const YEAR = 365 * 24 * 3_600_000;

const scenario = fc.record({
  replicas: fc.integer({ min: 1, max: 3 }),
  /** Lines per second per replica. */
  rate: fc.integer({ min: 2, max: 40 }),
  seconds: fc.integer({ min: 10, max: 50 }),
  lagMs: fc.integer({ min: 0, max: 3000 }),
  skewMs: fc.integer({ min: -300_000, max: 300_000 }),
  clientWrongByMs: fc.integer({ min: -600_000, max: 600_000 }),
  failureRate: fc.double({ min: 0, max: 0.3, noNaN: true }),
  maxLatencyMs: fc.integer({ min: 0, max: 1500 }),
  /**
   * A server that sends no Date header: this machine's clock stands in for the server's, and is
   * not set between runs (then nothing can tell how far back to ask: see the README).
   */
  noDate: fc.boolean(),
  hostile: fc.array(
    fc.record({
      kind: fc.constantFrom("ahead", "ahead-brief", "behind", "behind-brief", "1970"),
      /** Seconds into the lines when it first comes. */
      at: fc.integer({ min: 0, max: 50 }),
    }),
    { maxLength: 6 },
  ),
  runs: fc.array(
    fc.record({
      polls: fc.integer({ min: 1, max: 12 }),
      /** Killed after writing the last batch, before recording it. */
      midBatch: fc.boolean(),
      downMs: fc.integer({ min: 0, max: 20_000 }),
      /** This machine's clock is set by this much while the follow is down. */
      clockStepMs: fc.oneof(fc.constant(0), fc.integer({ min: -5000, max: 5000 })),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  seed: fc.integer(),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function textsOf(t: number): { seconds: string; nanos: string } {
  const seconds = Math.floor(t / 1000);
  return { seconds: String(seconds), nanos: String(Math.round((t - seconds * 1000) * 1e6)) };
}

const keyOf = (l: ModelLine) => {
  const ts = l.hasTs ? textsOf(l.t) : undefined;
  return `${l.replicaLabel}\u0000${ts ? `${ts.seconds}.${ts.nanos}` : "-"}\u0000${l.content}`;
};

function buildLines(s: Scenario, start: number, random: () => number): ModelLine[] {
  const lines: ModelLine[] = [];
  for (let r = 0; r < s.replicas; r++) {
    const label = `replica ${r + 1}/${s.replicas}`;
    let t = start;
    for (let i = 0; t < start + s.seconds * 1000; i++) {
      t += (random() * 2000) / s.rate + 0.000001 * (1 + Math.floor(random() * 999));
      const roll = random();
      const visibleAt = t + random() * s.lagMs;
      // Untimestamped lines have contents of their own (identical ones near a restart are told
      // apart by nothing but their count: see the README).
      const hasTs = roll > 0.05;
      const content = hasTs ? `line ${i % 7}` : `frame ${i}`;
      lines.push({ replicaLabel: label, t, hasTs, content, visibleAt });
      // Two identical lines at one instant, now and then.
      if (roll > 0.95) lines.push({ replicaLabel: label, t, hasTs, content, visibleAt });
    }
  }
  s.hostile.forEach((h, i) => {
    const at = start + h.at * 1000;
    const label = `replica ${1 + (i % s.replicas)}/${s.replicas}`;
    const brief = { from: at, until: at + 3000 };
    const forever = { from: at, until: Number.POSITIVE_INFINITY };
    const content = `hostile ${i} ${h.kind}`;
    if (h.kind === "ahead")
      lines.push({ replicaLabel: label, t: at + YEAR, hasTs: true, content, visibleAt: at });
    else if (h.kind === "ahead-brief")
      lines.push({
        replicaLabel: label,
        t: at + YEAR,
        hasTs: true,
        content,
        visibleAt: at,
        always: brief,
      });
    else if (h.kind === "behind")
      lines.push({
        replicaLabel: label,
        t: at - 3_600_000,
        hasTs: true,
        content,
        visibleAt: at,
        always: forever,
      });
    else if (h.kind === "behind-brief")
      lines.push({
        replicaLabel: label,
        t: at - 3_600_000,
        hasTs: true,
        content,
        visibleAt: at,
        always: brief,
      });
    else
      lines.push({
        replicaLabel: label,
        t: 86_400_000 + i,
        hasTs: true,
        content,
        visibleAt: at,
        always: forever,
      });
  });
  return lines;
}

class Killed extends Error {}

/** The output after every run, and the lines expected in it. */
async function followWithRestarts(s: Scenario) {
  const random = mulberry(s.seed);
  const time = new SimTime(WALL + s.clientWrongByMs);
  const start = WALL + s.skewMs + 500;
  const lines = buildLines(s, start, random);
  const server = new ModelServer(lines, time, {
    skewMs: s.skewMs - s.clientWrongByMs,
    failureRate: s.failureRate,
    maxLatencyMs: s.maxLatencyMs,
    random,
    noDate: s.noDate,
  });
  const end = Math.max(...lines.map((l) => l.visibleAt)) - (WALL + s.skewMs);
  let checkpoint: string | undefined;
  const output: string[] = [];
  const runs = [...s.runs, undefined];
  for (const run of runs) {
    const read = checkpoint
      ? parseCheckpoint(checkpoint, ["dep"], 11_000, time.clock.now())
      : undefined;
    if (read && "error" in read) throw new Error(read.error);
    // The output cut back to its recorded length, before anything else.
    if (read?.outputFile) output.length = read.outputFile.length;
    const record = read?.records.get("dep");
    const handled = new HandledLines("dep", { resumedFrom: record });
    const follower = new LogFollower({
      fetchLogs: server.fetchLogs,
      clock: time.clock,
      overlapMs: 5000,
      holdBackMs: 1000,
      sinceMs: 600_000,
      resume: record ? resumePointOf(record) : undefined,
      random,
    });
    follower.onResponse((sighting) => handled.sighted(sighting));
    const write = (deployments: CheckpointFile["deployments"]) => {
      checkpoint = serializeCheckpoint({
        format: 3,
        deployments,
        outputFile: { dev: "1", ino: "1", length: output.length },
      });
    };
    // As tail with --output-file: the file's length is recorded before the first batch.
    if (!read?.outputFile) {
      const r = handled.record(follower.progress());
      write(r ? [r] : []);
    }
    let killAfterBatch = false;
    follower.onEvents((batch) => {
      for (const e of handled.add(batch)) if (e.kind === "line") output.push(lineKey(e));
      if (killAfterBatch) throw new Killed();
      const r = handled.record(follower.progress());
      if (r) write([r]);
    });
    let cleanAfterEnd = 0;
    try {
      for (let poll = 0; run ? poll < run.polls : cleanAfterEnd < 3 && poll < 5000; poll++) {
        killAfterBatch = run?.midBatch === true && poll === run.polls - 1;
        const result = await follower.pollOnce();
        if (time.mono > end + 11_000 && result.ok && result.covered) cleanAfterEnd += 1;
        time.mono += follower.nextDelayMs(result);
      }
      // Ctrl-C at the end: what the hold-back holds is written and recorded.
      if (!run) follower.flush();
    } catch (err) {
      if (!(err instanceof Killed)) throw err;
    }
    if (run) {
      time.mono += run.downMs;
      if (!s.noDate) time.wallStep += run.clockStepMs;
    }
  }
  const want = new Map<string, number>();
  const atMostOnce = new Set<string>();
  for (const l of lines) {
    const k = keyOf(l);
    if (l.always && l.always.until !== Number.POSITIVE_INFINITY) atMostOnce.add(k);
    else want.set(k, (want.get(k) ?? 0) + 1);
  }
  const got = new Map<string, number>();
  for (const k of output) got.set(k, (got.get(k) ?? 0) + 1);
  return { want, atMostOnce, got };
}

async function assertExactlyOnceAcrossRestarts(s: Scenario) {
  const { want, atMostOnce, got } = await followWithRestarts(s);
  const lost: string[] = [];
  const twice: string[] = [];
  for (const [k, n] of want) if ((got.get(k) ?? 0) < n) lost.push(k);
  for (const [k, n] of got) {
    if (atMostOnce.has(k) ? n > 1 : n > (want.get(k) ?? 0)) twice.push(k);
  }
  expect({ lost, twice }).toEqual({ lost: [], twice: [] });
}

describe("following with --checkpoint and --output-file, killed and restarted", () => {
  it("has every line in the output exactly once, lines stamped a year ahead and in 1970 included", async () => {
    await fc.assert(fc.asyncProperty(scenario, assertExactlyOnceAcrossRestarts), {
      numRuns: 60,
    });
  }, 120_000);

  it("has every line exactly once in cases the property once found wrong", async () => {
    // No Date header, and a line stamped a year ahead sent for 3 s after the untimestamped
    // "frame 17" and "frame 19": taken for their next neighbour, it bounded where they could be,
    // and once it went they were taken for new lines and written again.
    await assertExactlyOnceAcrossRestarts({
      replicas: 1,
      rate: 2,
      seconds: 11,
      lagMs: 0,
      skewMs: 0,
      clientWrongByMs: 0,
      failureRate: 0,
      maxLatencyMs: 0,
      noDate: true,
      hostile: [{ kind: "ahead-brief", at: 9 }],
      runs: [{ polls: 1, midBatch: false, downMs: 0, clockStepMs: 0 }],
      seed: -2107459103,
    });
    // Answers up to 1.1 s slow, and a record whose slack (3 s) no window could be placed within:
    // after three answers set aside the fourth was taken as it was, and its lines stamped before
    // the slack were dropped by their timestamps, the line stamped in 1970 among them (written
    // once before, then cut from the output with the batch a kill left unrecorded).
    await assertExactlyOnceAcrossRestarts({
      replicas: 1,
      rate: 6,
      seconds: 10,
      lagMs: 0,
      skewMs: 0,
      clientWrongByMs: 0,
      failureRate: 0,
      maxLatencyMs: 1130,
      noDate: false,
      hostile: [{ kind: "1970", at: 18 }],
      runs: [
        { polls: 4, midBatch: true, downMs: 6351, clockStepMs: 0 },
        { polls: 4, midBatch: true, downMs: 0, clockStepMs: 1577 },
        { polls: 1, midBatch: false, downMs: 3644, clockStepMs: 469 },
        { polls: 1, midBatch: false, downMs: 0, clockStepMs: 0 },
      ],
      seed: -1323861130,
    });
    // The same, and "frame 0", the replica's first line in place, came right after a line
    // stamped an hour behind that the server sends whatever the window: placed by that line, it
    // was taken for a line before the slack and dropped.
    await assertExactlyOnceAcrossRestarts({
      replicas: 1,
      rate: 11,
      seconds: 14,
      lagMs: 0,
      skewMs: 0,
      clientWrongByMs: 0,
      failureRate: 0,
      maxLatencyMs: 1160,
      noDate: false,
      hostile: [{ kind: "behind", at: 0 }],
      runs: [
        { polls: 1, midBatch: false, downMs: 0, clockStepMs: 567 },
        { polls: 3, midBatch: false, downMs: 0, clockStepMs: 0 },
        { polls: 1, midBatch: true, downMs: 4957, clockStepMs: 0 },
        { polls: 4, midBatch: false, downMs: 0, clockStepMs: 0 },
      ],
      seed: -446225956,
    });
  });
});
