import { describe, expect, it } from "vitest";
import {
  bucketStep,
  bucketsPerColumn,
  columnsOf,
  errorHeatmap,
  hasBaseline,
  intensity,
  MAX_BUCKETS,
  median,
  type ReplicaErrors,
  replicaRow,
} from "../../src/logs/error-heatmap.js";
import type { IndexedEvents } from "../../src/logs/line-groups.js";
import type { LogLine, StoreEvent } from "../../src/logs/model/log-line.js";
import { Random } from "../../src/sim/random.js";
import { DebugLogs } from "../../src/sim/traffic/debug-logs.js";

/** Bucket-aligned start (a multiple of every step up to an hour). */
const T0 = 1_795_000_000_000 - (1_795_000_000_000 % 3_600_000);

function line(ms: number, label: string, content: string, deploymentId?: string): LogLine {
  return {
    kind: "line",
    replicaLabel: label,
    seconds: String(Math.floor(ms / 1000)),
    nanos: 0,
    sortKey: ms,
    content,
    late: false,
    deploymentId,
  };
}

function events(list: StoreEvent[]): IndexedEvents {
  const sorted = [...list].sort((a, b) => a.sortKey - b.sortKey);
  return { size: () => sorted.length, at: (i) => (sorted[i] ? { event: sorted[i] } : undefined) };
}

/** `perBucket[b]` errors (after one info line) of `label` in each 20 s bucket b, spread out. */
function replicaLines(label: string, perBucket: readonly number[]): LogLine[] {
  const out: LogLine[] = [];
  perBucket.forEach((n, b) => {
    const from = T0 + b * 20_000;
    out.push(line(from + 1, label, "INFO tick"));
    for (let k = 0; k < n; k++) {
      out.push(
        line(from + 2 + k * Math.floor(19_000 / Math.max(1, n)), label, `ERROR boom ${b}.${k}`),
      );
    }
  });
  return out;
}

describe("the error heatmap", () => {
  it("counts error and fatal lines per replica and bucket, by the filters' level rule", () => {
    const map = errorHeatmap(
      events([
        line(T0 + 1_000, "replica 1/2", "ERROR one"),
        line(T0 + 2_000, "replica 1/2", '{"level":"fatal","msg":"two"}'),
        line(T0 + 3_000, "replica 1/2", "    at frame (/app/x.js:1:1)"),
        line(T0 + 4_000, "replica 1/2", "WARN not an error"),
        line(T0 + 25_000, "replica 2/2", "level=error msg=three"),
        { kind: "gap", from: T0, to: T0 + 1, reason: "x", sortKey: T0 + 5_000 },
      ]),
    );
    expect(map?.bucketMs).toBe(20_000);
    expect(map?.buckets).toBe(2);
    expect(map?.replicas.map((r) => [r.name, r.errors, r.lines, r.totalErrors])).toEqual([
      ["replica 1", [2, 0], 4, 2],
      ["replica 2", [0, 1], 1, 1],
    ]);
    // The first error line of each bucket, by its index in the events.
    expect(map?.replicas[0]?.firstError).toEqual([0, -1]);
    expect(map?.replicas[1]?.firstError).toEqual([-1, 5]);
  });

  it("holds nothing without lines", () => {
    expect(errorHeatmap(events([]))).toBeUndefined();
    expect(
      errorHeatmap(events([{ kind: "gap", from: 0, to: 1, reason: "x", sortKey: T0 }])),
    ).toBeUndefined();
  });

  it("keeps one row per replica number, whatever the replica count said", () => {
    expect(replicaRow(line(0, "replica 2/3", "")).name).toBe("replica 2");
    expect(replicaRow(line(0, "replica 2/4", "")).key).toBe(
      replicaRow(line(0, "replica 2/3", "")).key,
    );
    expect(replicaRow(line(0, "5b2da4 replica 2/3", "", "d1")).name).toBe("5b2da4 replica 2");
    expect(replicaRow(line(0, "main", "")).name).toBe("main");
    const map = errorHeatmap(
      events([
        line(T0, "replica 10/10", "INFO a"),
        line(T0 + 1, "replica 2/3", "INFO a"),
        line(T0 + 2, "replica 2/4", "INFO a"),
        line(T0 + 3, "main", "INFO a"),
      ]),
    );
    expect(map?.replicas.map((r) => r.name)).toEqual(["replica 2", "replica 10", "main"]);
    expect(map?.replicas[0]?.lines).toBe(2);
    expect(map?.replicas[0]?.label).toBe("replica 2/4");
  });

  it("chooses buckets from the span, never more than MAX_BUCKETS", () => {
    expect(bucketStep(0)).toBe(20_000);
    expect(bucketStep(60 * 60_000)).toBe(20_000);
    expect(bucketStep(3 * 60 * 60_000)).toBe(60_000);
    expect(bucketStep(400 * 86_400_000)).toBe(2 * 86_400_000);
    for (const span of [1, 59_999, 7_180_000, 7_180_001, 86_400_000, 9e10]) {
      const step = bucketStep(span);
      expect(Math.floor(span / step) + 2).toBeLessThanOrEqual(MAX_BUCKETS + 1);
    }
    const far = errorHeatmap(
      events([line(T0, "replica 1/1", "INFO a"), line(T0 + 9e10, "replica 1/1", "ERROR b")]),
    );
    expect(far?.buckets).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(far?.replicas[0]?.errors.at(-1)).toBe(1);
  });

  it("takes the median of a replica's buckets from its first line to its last", () => {
    expect(median([])).toBe(0);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 8])).toBe(3.5);
    // Replica 2 joins late: the buckets before its first line are no part of its baseline.
    const map = errorHeatmap(
      events([
        ...replicaLines("replica 1/2", [0, 0, 0, 0, 4, 4, 4]),
        ...replicaLines("replica 2/2", [0, 0, 0, 0, 4, 4, 4]).filter(
          (l) => l.sortKey >= T0 + 80_000,
        ),
      ]),
    );
    expect(map?.replicas.map((r) => r.baseline)).toEqual([0, 4]);
  });

  it("finds where errors first rose: 3x the baseline and at least 5, the earliest bucket", () => {
    const all = events([
      ...replicaLines("replica 1/3", [2, 2, 2, 2, 2, 2, 7, 30, 2]),
      ...replicaLines("replica 2/3", [1, 1, 1, 1, 1, 1, 1, 1, 1]),
      ...replicaLines("replica 3/3", [2, 2, 2, 2, 2, 2, 2, 40, 2]),
    ]);
    const map = errorHeatmap(all);
    const rise = map?.rise;
    expect(rise?.replica.name).toBe("replica 1");
    expect(rise?.bucket).toBe(6);
    expect(rise?.errors).toBe(7);
    expect(rise?.from).toBe(T0 + 120_000);
    expect(rise?.to).toBe(T0 + 140_000);
    expect(map?.replicas.map((r) => r.rise)).toEqual([6, undefined, 7]);
    // The first error line of replica 1 in that bucket.
    const first = all.at(rise?.index ?? -1)?.event;
    expect(first?.kind === "line" && first.content).toBe("ERROR boom 6.0");
  });

  it("names the first error line of the rising bucket, and in a tie the replica whose came first", () => {
    const r1 = replicaLines("replica 1/2", [1, 1, 1, 1, 1, 9]);
    const r2 = replicaLines("replica 2/2", [1, 1, 1, 1, 1, 9]).map((l) => ({
      ...l,
      sortKey: l.sortKey - 0.5,
    }));
    const all = events([...r1, ...r2]);
    const map = errorHeatmap(all);
    const rise = map?.rise;
    expect(rise?.replica.name).toBe("replica 2");
    const first = all.at(rise?.index ?? -1)?.event as LogLine;
    expect(first.replicaLabel).toBe("replica 2/2");
    expect(first.content).toBe("ERROR boom 5.0");
  });

  it("finds no rise in a calm log, in one shorter than the baseline needs, or below 5 errors", () => {
    const calm = errorHeatmap(events(replicaLines("replica 1/1", [5, 6, 4, 5, 7, 5, 6, 14, 5, 4])));
    expect(calm?.rise).toBeUndefined();
    // 4 buckets: a storm, but no baseline yet.
    expect(errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 50])))?.rise).toBeUndefined();
    // No errors usually, then 4: under the 5 a rise needs.
    expect(
      errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 0, 0, 4])))?.rise,
    ).toBeUndefined();
    expect(
      errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 0, 0, 5])))?.rise?.bucket,
    ).toBe(5);
  });

  it("reads each cell against the replica's baseline, merged columns too", () => {
    expect(intensity(0, 4)).toBe("none");
    expect(intensity(4, 4)).toBe("usual");
    expect(intensity(1, 0)).toBe("usual");
    expect(intensity(8, 4)).toBe("above");
    expect(intensity(9, 4)).toBe("high");
    // A count alone is never a rise: only a bucket of a replica with a baseline is (columnsOf).
    expect(intensity(12, 4)).toBe("high");
    expect(intensity(4, 0)).toBe("high");
    expect(intensity(50, 0)).toBe("high");
    // Two buckets a column: twice the baseline and twice the floor.
    expect(intensity(8, 4, 2)).toBe("usual");
    expect(intensity(9, 0, 2)).toBe("high");
    expect(bucketsPerColumn(360, 60)).toBe(6);
    expect(bucketsPerColumn(61, 60)).toBe(2);
    expect(bucketsPerColumn(10, 60)).toBe(1);
    const map = errorHeatmap(events(replicaLines("replica 1/1", [1, 1, 1, 30, 1])));
    const replica = map?.replicas[0];
    if (!replica) throw new Error("no replica");
    expect(columnsOf(replica, 2)).toEqual({
      errors: [2, 31, 1],
      intensity: ["usual", "rise", "usual"],
    });
    // A column is a rise where one of its buckets is (the one ! goes to), merged with a quiet one.
    const merged = errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 0, 5, 0])));
    expect(merged?.rise?.bucket).toBe(4);
    expect(columnsOf(merged?.replicas[0] as ReplicaErrors, 2).intensity).toEqual([
      "none",
      "none",
      "rise",
    ]);
  });

  it("draws no rise before a replica has a baseline, however many errors", () => {
    // 4 buckets: a storm, but under the 5 buckets a median needs to be a baseline.
    const young = errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 50])));
    const replica = young?.replicas[0] as ReplicaErrors;
    expect(hasBaseline(replica)).toBe(false);
    expect(young?.rise).toBeUndefined();
    expect(columnsOf(replica, 1).intensity).toEqual(["none", "none", "none", "high"]);
    // One bucket more: a baseline, and the storm is a rise.
    const grown = errorHeatmap(events(replicaLines("replica 1/1", [0, 0, 0, 0, 50])));
    expect(columnsOf(grown?.replicas[0] as ReplicaErrors, 1).intensity.at(-1)).toBe("rise");
  });
});

describe("the error heatmap over the simulator's logs", () => {
  /** `minutes` of one scenario's debug logs, as a store holds them. */
  function simulated(incident: boolean, seed: number, minutes: number): IndexedEvents {
    const logs = new DebugLogs(new Random(seed), {
      replicas: 3,
      logRate: 8,
      retentionMs: 3_600_000,
      ingestLagMs: 0,
      startMs: T0,
      incident,
    });
    let last = T0;
    const lines = logs.query(T0 + minutes * 60_000, 0, 0).map((e): LogLine => {
      if (e.line.ts) last = Number(e.line.ts.seconds) * 1000 + Number(e.line.ts.nanos) / 1e6;
      return { ...line(last, e.replicaLabel, e.line.content), seconds: e.line.ts?.seconds };
    });
    return events(lines);
  }

  it("finds the incident scenario's rise on replica 2, before it crashed at 45 s", () => {
    for (const seed of [1, 2, 3]) {
      const rise = errorHeatmap(simulated(true, seed, 5))?.rise;
      expect(rise?.replica.name).toBe("replica 2");
      expect(rise?.from).toBe(T0 + 20_000);
    }
  });

  it("finds none in the demo scenario's calm", () => {
    for (const seed of [1, 2, 3]) {
      const map = errorHeatmap(simulated(false, seed, 15));
      expect(map?.replicas.length).toBe(3);
      expect(map?.replicas.every((r) => r.totalErrors > 100)).toBe(true);
      expect(map?.rise).toBeUndefined();
    }
  });
});
