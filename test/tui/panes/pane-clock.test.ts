import { describe, expect, it } from "vitest";
import {
  followedTime,
  nearTime,
  type PaneClock,
  paneTime,
  paneTimes,
  timeOfDay,
} from "../../../src/tui/panes/pane-clock.js";

const at = (ms: number) => ({ from: ms, to: ms });
const NOW = Date.UTC(2026, 10, 27, 20, 33, 5);

describe("the side panes' clock", () => {
  it("shows times as the log does: ages with none, times of day beside absolute, relative", () => {
    expect(paneTimes("off", "age")).toBe("age");
    expect(paneTimes("absolute", "age")).toBe("absolute");
    expect(paneTimes("relative", "age")).toBe("relative");
    // Beside saved lines the panes rest on the time of day; T's other modes are the log's.
    expect(paneTimes("off", "absolute")).toBe("absolute");
    expect(paneTimes("relative", "absolute")).toBe("relative");
    const clock = (times: PaneClock["times"]): PaneClock => ({ times, now: NOW, at: undefined });
    expect(String(paneTime(clock("age"), NOW - 90_000))).toBe("1m");
    expect(String(paneTime(clock("relative"), NOW - 90_000))).toBe("-1m30s");
    expect(String(paneTime(clock("absolute"), NOW - 90_000))).toBe(timeOfDay(NOW - 90_000));
    expect(timeOfDay(NOW)).toMatch(/^\d{2}:\d{2}:05$/);
  });

  it("says the time followed in the title, and nothing while following live", () => {
    expect(String(followedTime({ times: "age", now: NOW, at: undefined }))).toBe("");
    expect(String(followedTime({ times: "age", now: NOW, at: NOW }))).toBe(` at ${timeOfDay(NOW)}`);
  });

  it("marks the records on either side of the time, the nearest first in view", () => {
    // Newest first, as the panes list them.
    const spans = [at(1000), at(700), at(400), at(100)];
    expect(nearTime(spans, 650)).toEqual({ anchor: 1, marked: new Set([1, 2]) });
    expect(nearTime(spans, 540)).toEqual({ anchor: 2, marked: new Set([1, 2]) });
    // Exactly on a record, or inside a span: that record alone.
    expect(nearTime(spans, 400)).toEqual({ anchor: 2, marked: new Set([2]) });
    expect(nearTime([{ from: 10, to: 50 }, at(90)], 30)).toEqual({
      anchor: 0,
      marked: new Set([0]),
    });
    // Before or after every record: the oldest or the newest.
    expect(nearTime(spans, 5)).toEqual({ anchor: 3, marked: new Set([3]) });
    expect(nearTime(spans, 2000)).toEqual({ anchor: 0, marked: new Set([0]) });
  });

  it("follows nothing with no time or no records, and skips records without a time", () => {
    expect(nearTime([at(1)], undefined)).toBeUndefined();
    expect(nearTime([], 5)).toBeUndefined();
    expect(nearTime([at(Number.NaN)], 5)).toBeUndefined();
    expect(nearTime([at(Number.NaN), at(9)], 5)).toEqual({ anchor: 1, marked: new Set([1]) });
  });
});
