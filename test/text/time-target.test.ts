import { describe, expect, it } from "vitest";
import { parseTimeTarget } from "../../src/text/time-target.js";

describe("a time to go to", () => {
  const now = Date.UTC(2026, 10, 25, 14, 30, 0);
  it("reads durations before now", () => {
    expect(parseTimeTarget("-5m", now, now)).toEqual({ ms: now - 300_000 });
    expect(parseTimeTarget(" -1h30m ", now, now)).toEqual({ ms: now - 5_400_000 });
    expect(parseTimeTarget("-90s", now, now)).toEqual({ ms: now - 90_000 });
    expect(parseTimeTarget("-1.5s", now, now)).toEqual({ ms: now - 1_500 });
  });
  it("reads a time of day in the local zone, on the day of the reference", () => {
    const day = new Date(now);
    const expected = new Date(
      day.getFullYear(),
      day.getMonth(),
      day.getDate(),
      14,
      2,
      10,
    ).getTime();
    expect(parseTimeTarget("14:02:10", now, now)).toEqual({ ms: expected });
    expect(parseTimeTarget("14:02:10.25", now, now)).toEqual({ ms: expected + 250 });
    expect(parseTimeTarget("14:02", now, now)).toEqual({ ms: expected - 10_000 });
  });
  it("reads RFC 3339 times", () => {
    expect(parseTimeTarget("2026-11-25T14:02:10Z", now, now)).toEqual({
      ms: Date.UTC(2026, 10, 25, 14, 2, 10),
    });
    expect(parseTimeTarget("2026-11-25T15:02:10+01:00", now, now)).toEqual({
      ms: Date.UTC(2026, 10, 25, 14, 2, 10),
    });
  });
  it("says what it takes otherwise", () => {
    for (const bad of ["", "yesterday", "25:00", "14:61", "-5", "5m", "2026-11-25"]) {
      expect(parseTimeTarget(bad, now, now), bad).toEqual({
        error: expect.stringMatching(/^time: /),
      });
    }
  });
});
