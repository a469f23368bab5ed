import { afterEach, describe, expect, it } from "vitest";
import { instantOf, parseTimeBound } from "../../src/text/time-bound.js";

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("--since and --until values", () => {
  it("reads a duration back, a clock time and RFC 3339", () => {
    expect(parseTimeBound("10m")).toEqual({ kind: "ago", ms: 600_000, text: "10m" });
    expect(parseTimeBound("1h30m")).toMatchObject({ kind: "ago", ms: 5_400_000 });
    expect(parseTimeBound("20:33")).toEqual({ kind: "clock", ms: 73_980_000, text: "20:33" });
    expect(parseTimeBound("7:05:09")).toMatchObject({ kind: "clock", ms: 25_509_000 });
    expect(parseTimeBound("20:33:05.25")).toMatchObject({ kind: "clock", ms: 73_985_250 });
    expect(parseTimeBound("2026-11-27T01:31:47.332009765Z")).toMatchObject({
      kind: "instant",
      ms: Date.UTC(2026, 10, 27, 1, 31, 47, 332),
    });
    expect(parseTimeBound("2026-11-27 02:31:47+01:00")).toMatchObject({
      kind: "instant",
      ms: Date.UTC(2026, 10, 27, 1, 31, 47),
    });
  });

  it("refuses a bare number, naming the units", () => {
    expect(() => parseTimeBound("90")).toThrow("90 what? e.g. 90s or 90m");
    expect(() => parseTimeBound("1.5")).toThrow("1.5 what?");
    // A pasted long number is cut in the message.
    expect(() => parseTimeBound("9".repeat(400))).toThrow(/^9{8}… what\?/);
  });

  it("refuses what is none of the forms, or not a time, in one line", () => {
    for (const text of [
      "yesterday",
      "2:3",
      "10 m",
      "2026-11-27T01:31:47",
      "2026-11-27",
      "-5m",
      "",
    ]) {
      expect(() => parseTimeBound(text), text).toThrow(/is not a time: give a duration \(10m\)/);
    }
    expect(() => parseTimeBound("24:00")).toThrow("is not a time of day");
    expect(() => parseTimeBound("20:61")).toThrow("is not a time of day");
    expect(() => parseTimeBound("2026-02-30T10:00:00Z")).toThrow("is not a valid time");
  });

  it("places a clock time today, in the local zone or in UTC", () => {
    process.env.TZ = "America/New_York";
    // 2026-12-02 03:00 UTC is 2026-12-01 22:00 in New York.
    const now = Date.UTC(2026, 11, 2, 3, 0, 0);
    const clock = parseTimeBound("20:33:05");
    expect(new Date(instantOf(clock, now, false)).toISOString()).toBe("2026-12-02T01:33:05.000Z");
    expect(new Date(instantOf(clock, now, true)).toISOString()).toBe("2026-12-02T20:33:05.000Z");
    expect(instantOf(parseTimeBound("10m"), now, false)).toBe(now - 600_000);
    expect(instantOf(parseTimeBound("2026-11-27T01:31:47Z"), now, false)).toBe(
      Date.UTC(2026, 10, 27, 1, 31, 47),
    );
  });
});
