/**
 * Where `!` goes within a rise (src/logs/error-onset.ts), through the heatmap that finds the rise:
 * the first error new to the replica, or of the message that rose most; and in the simulator's
 * incident, the storm's first error rather than the background error before it.
 */
import { describe, expect, it } from "vitest";
import { errorHeatmap } from "../../src/logs/error-heatmap.js";
import { MIN_NEW_COUNT } from "../../src/logs/error-onset.js";
import type { IndexedEvents } from "../../src/logs/line-groups.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { Random } from "../../src/sim/random.js";
import { DebugLogs } from "../../src/sim/traffic/debug-logs.js";

const T0 = 1_795_000_000_000 - (1_795_000_000_000 % 3_600_000);
const BACKGROUND = "ERROR ledger: unhandled rejection: Error: upstream timeout after 5000ms";
const NEW =
  "ERROR signer: upstream timeout after 5000ms (pool exhausted: 64 of 64 connections busy)";

function line(ms: number, label: string, content: string): LogLine {
  return {
    kind: "line",
    replicaLabel: label,
    seconds: String(Math.floor(ms / 1000)),
    nanos: 0,
    sortKey: ms,
    content,
    late: false,
  };
}

function events(list: LogLine[]): IndexedEvents & { list: LogLine[] } {
  const sorted = [...list].sort((a, b) => a.sortKey - b.sortKey);
  return {
    list: sorted,
    size: () => sorted.length,
    at: (i) => (sorted[i] ? { event: sorted[i] } : undefined),
  };
}

/**
 * Replica 2 of 2: two background errors in each 20 s bucket for `buckets` buckets, and in bucket
 * 6 `storm` lines after one background error.
 */
function incident(storm: (at: number, k: number) => string, count = 20): LogLine[] {
  const out: LogLine[] = [];
  for (let b = 0; b < 8; b++) {
    const from = T0 + b * 20_000;
    out.push(line(from + 1000, "replica 1/2", "INFO ok"));
    out.push(line(from + 1000, "replica 2/2", BACKGROUND));
    out.push(line(from + 9000, "replica 2/2", `${BACKGROUND} (attempt ${b})`));
    if (b === 6)
      for (let k = 0; k < count; k++)
        out.push(line(from + 2000 + k * 100, "replica 2/2", storm(from, k)));
  }
  return out;
}

describe("the onset of a rise", () => {
  it("is the first error new to the replica, not the background error before it in the bucket", () => {
    const src = events(incident(() => NEW));
    const rise = errorHeatmap(src)?.rise;
    expect(rise?.from).toBe(T0 + 120_000);
    // The heatmap's rule: the first error of the bucket, the background one.
    expect(src.list[rise?.index ?? -1]?.content).toBe(BACKGROUND);
    expect(rise?.onset?.rule).toBe("new");
    expect(src.list[rise?.onset?.index ?? -1]?.content).toBe(NEW);
    expect(rise?.onset?.count).toBe(20);
  });

  it("compares messages with numbers, hex and ids masked", () => {
    // The background error with other figures is the background still; the
    // storm's lines vary in their figures.
    const src = events(
      incident((_, k) =>
        k < 5
          ? `${BACKGROUND.replace("5000", String(4000 + k))} (attempt ${100 + k})`
          : NEW.replace("64 of", `${k} of`),
      ),
    );
    const rise = errorHeatmap(src)?.rise;
    expect(rise?.onset?.rule).toBe("new");
    expect(src.list[rise?.onset?.index ?? -1]?.content).toBe(NEW.replace("64 of", "5 of"));
  });

  it("takes a new message only when it came a few times in the rise", () => {
    const once = Array.from({ length: MIN_NEW_COUNT - 1 }, (_, k) => `ERROR risk: rare thing ${k}`);
    const src = events(incident((_, k) => once[k] ?? BACKGROUND));
    const onset = errorHeatmap(src)?.rise?.onset;
    expect(onset?.rule).toBe("rose most");
    expect(src.list[onset?.index ?? -1]?.content).toBe(BACKGROUND);
  });

  it("is the first of the message that rose most when every message was seen before", () => {
    const src = events(incident((_, k) => (k % 4 === 0 ? `${BACKGROUND} (attempt 9)` : NEW))).list;
    // The storm's message was printed once before, in bucket 2.
    src.push(line(T0 + 45_000, "replica 2/2", NEW));
    const sorted = events(src);
    const onset = errorHeatmap(sorted)?.rise?.onset;
    expect(onset?.rule).toBe("rose most");
    expect(sorted.list[onset?.index ?? -1]?.content).toBe(NEW);
    expect(onset?.count).toBe(15);
    expect(onset?.before).toBeCloseTo(1 / 6);
  });
});

describe("the onset in the simulator's incident", () => {
  it("is the storm's first error, after background errors in the same bucket", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const logs = new DebugLogs(new Random(seed), {
        replicas: 3,
        logRate: 8,
        retentionMs: 3_600_000,
        ingestLagMs: 0,
        startMs: T0,
        incident: true,
      });
      let last = T0;
      const lines = logs.query(T0 + 5 * 60_000, 0, 0).map((e): LogLine => {
        if (e.line.ts) last = Number(e.line.ts.seconds) * 1000 + Number(e.line.ts.nanos) / 1e6;
        return { ...line(last, e.replicaLabel, e.line.content), seconds: e.line.ts?.seconds };
      });
      const src = events(lines);
      const rise = errorHeatmap(src)?.rise;
      expect(rise?.replica.name).toBe("replica 2");
      expect(rise?.onset?.rule).toBe("new");
      const onset = src.list[rise?.onset?.index ?? -1];
      expect(onset?.content).toMatch(/pool exhausted|enclave heap/);
      // The storm begins 30 s in; the bucket it is in began at 20 s.
      expect(onset?.sortKey).toBeGreaterThanOrEqual(T0 + 30_000);
    }
  });
});
