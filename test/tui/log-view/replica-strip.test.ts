import { describe, expect, it } from "vitest";
import type { ReplicaStats } from "../../../src/logs/model/replica-activity.js";
import { widthOf } from "../../../src/text/safe-text.js";
import {
  bar,
  errorCells,
  hasSparkBaseline,
  MIN_BASELINE_INTERVALS,
  replicaStrip,
  sparkWidth,
} from "../../../src/tui/log-view/replica-strip.js";

const stats = (
  label: string,
  buckets: number[],
  errors: number[],
  stopped = false,
): ReplicaStats => ({
  label,
  lines: buckets.reduce((a, b) => a + b, 0),
  errors: errors.reduce((a, b) => a + b, 0),
  lastMs: 0,
  buckets,
  errorBuckets: errors,
  stopped,
});

describe("the replicas' sparkline strip", () => {
  it("scales bars to the busiest interval of any replica", () => {
    expect([0, 1, 4, 8].map((n) => bar(n, 8))).toEqual([" ", "▂", "▅", "█"]);
    expect(bar(3, 0)).toBe(" ");
  });

  it("shows each replica's intervals, errors as ! (red with colours), a stopped replica dim", () => {
    const strip = replicaStrip(
      [
        stats("replica 1/2", [2, 2, 2, 2, 2, 2, 4, 8], [0, 0, 0, 0, 0, 0, 0, 1]),
        stats("replica 2/2", [8, 0, 0], [0, 0, 0], true),
      ],
      40,
    );
    // The mark is a character of its own: it reads without colours (NO_COLOR) too.
    expect(strip.map((s) => s.text).join("")).toBe("[1]▃▃▃▃▃▃▅! [2]█   ");
    expect(strip.find((s) => s.text === "!" && s.colour === "red")).toBeDefined();
    expect(strip.find((s) => s.text === "[2]")?.dim).toBe(true);
  });

  it("marks only the intervals whose error share rises well above the replica's usual one", () => {
    // Errors in the background: about 1 line in 10 in every interval, then a burst of them.
    const lines = [40, 40, 40, 40, 40, 40, 40, 40, 40, 40];
    const errors = [4, 3, 4, 5, 4, 4, 3, 20, 4, 4];
    expect(errorCells(lines, errors)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    // Mostly none: each interval with an error stands out; one without lines is never marked.
    expect(errorCells([5, 5, 5, 5, 5, 5, 0, 5], [0, 0, 0, 0, 0, 1, 0, 0])).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    // The height is the lines: a replica as busy as another with no errors has the same bars.
    const strip = replicaStrip(
      [stats("replica 1/2", lines, errors), stats("replica 2/2", lines, Array(10).fill(0))],
      40,
    );
    const [one, two] = strip
      .map((s) => s.text)
      .join("")
      .split(" [2]");
    expect(one).toBe("[1]███████!██");
    expect(two?.trim()).toBe("██████████");
  });

  it("marks nothing before a replica has 5 full intervals: a median of a few says nothing usual", () => {
    // Just started (the last interval in progress): the one error of the first interval of a
    // calm replica would be above twice a median share of 0.
    expect(errorCells([0, 0, 6, 6], [0, 0, 1, 0])).toEqual([false, false, false, false]);
    expect(hasSparkBaseline([0, 0, 6, 6])).toBe(false);
    // The interval it joined in, 4 full ones, the one in progress: not yet.
    const four = [0, 6, 6, 6, 6, 6, 6];
    expect(hasSparkBaseline(four)).toBe(false);
    expect(errorCells(four, [0, 1, 0, 0, 0, 0, 0]).some(Boolean)).toBe(false);
    // 5 full ones: a baseline, and the error in the interval it joined in stands out.
    const five = [0, 6, 6, 6, 6, 6, 6, 6];
    expect(hasSparkBaseline(five)).toBe(true);
    expect(errorCells(five, [0, 1, 0, 0, 0, 0, 0, 0])).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(hasSparkBaseline([0, 0, 0])).toBe(false);
    expect(MIN_BASELINE_INTERVALS).toBe(5);
  });

  it("never goes past its width, and leaves out what does not fit", () => {
    const many = Array.from({ length: 9 }, (_, i) =>
      stats(`replica ${i + 1}/9`, Array(60).fill(3), Array(60).fill(0)),
    );
    for (let width = 10; width <= 200; width += 13) {
      const text = replicaStrip(many, width).map((s) => s.text);
      expect(widthOf(text.join("") as never)).toBeLessThanOrEqual(width);
    }
    expect(sparkWidth(3, 80)).toBe(21);
    expect(replicaStrip(many, 20)).toEqual([]);
  });
});

describe("the strip over several deployments", () => {
  it("fits every replica when their tags carry the deployment's label", () => {
    const stat = (label: string) => ({
      label,
      lines: 5,
      errors: 0,
      lastMs: 0,
      buckets: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      errorBuckets: Array(12).fill(0),
      stopped: false,
    });
    const labels = ["e0f56c replica 1/3", "e0f56c replica 2/3", "e0f56c replica 3/3"];
    labels.push("8cd7ee replica 1/2", "8cd7ee replica 2/2");
    const text = replicaStrip(labels.map(stat), 92)
      .map((s) => s.text)
      .join("");
    for (const t of ["[e0f56c 1]", "[e0f56c 3]", "[8cd7ee 1]", "[8cd7ee 2]"])
      expect(text).toContain(t);
    expect(text.length).toBeLessThanOrEqual(92);
  });
});
