/**
 * The heatmap's rows (src/tui/rows/heatmap-rows.ts) agree with the rule they state: `█` only for a
 * bucket that is a rise, none before a replica has a baseline, and the legend says so.
 */
import { describe, expect, it } from "vitest";
import { errorHeatmap } from "../../../src/logs/error-heatmap.js";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { heatmapRows } from "../../../src/tui/rows/heatmap-rows.js";

const T0 = 1_795_000_000_000 - (1_795_000_000_000 % 3_600_000);

/**
 * `perBucket[r][b]` errors (after one info line) of replica r+1 in each 20 s bucket b; -1: no
 * lines of it there.
 */
function heatmapOf(perBucket: number[][]) {
  const lines: LogLine[] = [];
  perBucket.forEach((buckets, r) => {
    buckets.forEach((n, b) => {
      for (let k = 0; k <= n; k++) {
        if (n < 0) break;
        const ms = T0 + b * 20_000 + 1 + k * 10 + r;
        lines.push({
          kind: "line",
          replicaLabel: `replica ${r + 1}/${perBucket.length}`,
          seconds: String(Math.floor(ms / 1000)),
          nanos: 0,
          sortKey: ms,
          content: k === 0 ? "INFO tick" : `ERROR boom ${b}.${k}`,
          late: false,
        });
      }
    });
  });
  lines.sort((a, b) => a.sortKey - b.sortKey);
  return errorHeatmap({
    size: () => lines.length,
    at: (i) => (lines[i] ? { event: lines[i] } : undefined),
  });
}

const text = (rows: ReturnType<typeof heatmapRows>) =>
  rows.map((r) => r.map((s) => s.text).join(""));

describe("the heatmap's rows", () => {
  it("draw no rise before a baseline (a storm 60 s in), and the legend says why", () => {
    const rows = text(
      heatmapRows(
        heatmapOf([
          [0, 0, 0, 30],
          [1, 0, 1, 0],
        ]),
        80,
      ),
    );
    const replicaRows = rows.filter((r) => r.startsWith("replica"));
    expect(replicaRows).toHaveLength(2);
    for (const r of replicaRows) expect(r).not.toContain("█");
    expect(replicaRows[0]).toContain("▓");
    expect(rows.join("\n")).toMatch(/^no baseline yet: a replica's median needs 5 × 20s/m);
    expect(rows.join(" ")).toContain(
      "no baseline yet: each replica's cells read against the median of what it has, ▓ at most, never █",
    );
  });

  it("draw █ where a bucket is a rise once there is a baseline, and count the replicas still without one", () => {
    const map = heatmapOf([
      [0, 0, 0, 0, 0, 30],
      [-1, -1, -1, 0, 0, 30],
    ]);
    const rows = text(heatmapRows(map, 80));
    const [one, two] = rows.filter((r) => r.startsWith("replica"));
    expect(one).toMatch(/█+ 30$/);
    expect(two).not.toContain("█");
    expect(two).toMatch(/▓+ 30$/);
    expect(rows.join(" ")).toContain(
      "1 replica has no baseline yet (under 5 × 20s of lines): its cells read against the median of what it has, ▓ at most, never █",
    );
    // With a baseline for both, the legend has no such line.
    const grown = text(
      heatmapRows(
        heatmapOf([
          [0, 0, 0, 0, 0, 30],
          [0, 0, 0, 0, 0, 30],
        ]),
        80,
      ),
    );
    expect(grown.join(" ")).not.toContain("no baseline yet");
  });

  it("write a rise's counts with their thousands grouped", () => {
    const rows = text(heatmapRows(heatmapOf([[1, 1, 1, 1, 1, 1, 1500]]), 120));
    expect(rows.join("\n")).toContain("1,500 errors in 20s, 1,500× its median of 1");
  });
});
