import { describe, expect, it } from "vitest";
import { openRange } from "../../../src/cli/commands/open/open-range.js";
import { parseTimeBound } from "../../../src/text/time-bound.js";

const NEWEST = new Date(2026, 10, 25, 20, 40, 0).getTime();
const NOW = NEWEST + 86_400_000;

describe("openRange", () => {
  it("counts a duration back from the newest line read, not from now", () => {
    expect(openRange({ since: parseTimeBound("15m") }, NEWEST, NOW)).toEqual({
      fromMs: NEWEST - 900_000,
      untilMs: undefined,
      words: "since 15m",
    });
  });

  it("places a clock time on the newest line's day, local zone; RFC 3339 as it says", () => {
    const r = openRange(
      { since: parseTimeBound("20:33:05"), until: parseTimeBound("2026-11-25T20:39:00Z") },
      NEWEST,
      NOW,
    );
    expect(r?.fromMs).toBe(new Date(2026, 10, 25, 20, 33, 5).getTime());
    expect(r?.untilMs).toBe(Date.UTC(2026, 10, 25, 20, 39, 0));
    expect(r?.words).toBe("since 20:33:05 until 2026-11-25T20:39:00Z");
  });

  it("counts from now with no line read yet, and is nothing without either flag", () => {
    expect(openRange({ until: parseTimeBound("1m") }, undefined, NOW)?.untilMs).toBe(NOW - 60_000);
    expect(openRange({}, NEWEST, NOW)).toBeUndefined();
  });

  it("refuses a start after the end in one line", () => {
    expect(() =>
      openRange({ since: parseTimeBound("5m"), until: parseTimeBound("10m") }, NEWEST, NOW),
    ).toThrow(/^--since 5m \(.*\) is after --until 10m \(.*\): nothing is between them$/);
  });
});
