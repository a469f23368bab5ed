import { describe, expect, it } from "vitest";
import { CliError } from "../../src/cli/cli-error.js";
import {
  DEFAULT_SINCE_MS,
  followWindow,
  SINCE_CLOCK_MARGIN_MS,
  type TimeRangeFlags,
  tailWindow,
} from "../../src/cli/time-range.js";
import { parseTimeBound } from "../../src/text/time-bound.js";

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);

function flags(f: { since?: string; until?: string } & Omit<TimeRangeFlags, "since" | "until">) {
  return {
    ...f,
    since: f.since === undefined ? undefined : parseTimeBound(f.since),
    until: f.until === undefined ? undefined : parseTimeBound(f.until),
    utc: true,
  };
}

function refusal(f: Parameters<typeof flags>[0]): string {
  try {
    tailWindow(flags(f), NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error("not refused");
}

describe("tail's first window from --since, --until and --tail", () => {
  it("keeps a duration a window the server measures, as before", () => {
    expect(tailWindow(flags({ since: "2m" }), NOW)).toEqual({
      sinceMs: 120_000,
      tailLines: undefined,
      range: undefined,
    });
    expect(tailWindow(flags({}), NOW).sinceMs).toBe(DEFAULT_SINCE_MS);
    expect(tailWindow(flags({ tail: 5 }), NOW)).toEqual({
      sinceMs: undefined,
      tailLines: 5,
      range: undefined,
    });
    // --until as a duration stays one: measured on the server's clock by the follower.
    expect(tailWindow(flags({ since: "10m", until: "5m" }), NOW)).toEqual({
      sinceMs: 600_000,
      tailLines: undefined,
      range: { until: { agoMs: 300_000 } },
    });
    // Without --since: the 10 minutes before --until.
    expect(tailWindow(flags({ until: "5m" }), NOW).sinceMs).toBe(DEFAULT_SINCE_MS + 300_000);
  });

  it("compares a time with the lines' timestamps, the window reaching back to it", () => {
    const w = tailWindow(flags({ since: "11:30", until: "11:45:10" }), NOW);
    expect(w.range).toEqual({
      fromMs: NOW - 1_800_000,
      until: { atMs: NOW - 890_000 },
    });
    expect(w.sinceMs).toBe(1_800_000 + SINCE_CLOCK_MARGIN_MS);
    // An end alone: the 10 minutes before it.
    expect(tailWindow(flags({ until: "11:50" }), NOW).range?.fromMs).toBe(NOW - 1_200_000);
  });

  it("refuses, in one line, what cannot be read", () => {
    expect(refusal({ since: "10m", until: "5m", follow: true })).toBe(
      "--until 5m ends what is read, and -f follows new lines: leave one of them out",
    );
    expect(refusal({ until: "12:30" })).toBe(
      "--until 12:30 is in the future: it is 12:00:00 UTC now",
    );
    expect(refusal({ since: "12:30" })).toBe(
      "--since 12:30 is in the future: it is 12:00:00 UTC now (for an earlier day give its date: 2026-12-01T12:30:00Z)",
    );
    expect(refusal({ since: "5m", until: "10m" })).toBe(
      "--since 5m is after --until 10m: nothing is between them",
    );
    expect(refusal({ until: "1m", tail: 5 })).toMatch(/^--tail counts back from now/);
    expect(refusal({ since: "2026-11-20T00:00:00Z" })).toBe(
      "--since 2026-11-20T00:00:00Z is more than 7d ago: Turnkey keeps debug logs 7 days",
    );
  });
});

describe("followWindow (watch, demo)", () => {
  it("takes tail -f's --since: a duration the server measures, a time from the lines' own timestamps", () => {
    expect(followWindow({}, NOW)).toEqual({ sinceMs: DEFAULT_SINCE_MS, range: undefined });
    expect(followWindow({ since: parseTimeBound("1h") }, NOW)).toEqual({
      sinceMs: 3_600_000,
      range: undefined,
    });
    const at = followWindow({ since: parseTimeBound("2026-12-02T11:30:00Z") }, NOW);
    expect(at.range?.fromMs).toBe(NOW - 1_800_000);
    expect(at.sinceMs).toBe(1_800_000 + SINCE_CLOCK_MARGIN_MS);
  });

  it("refuses --until (the dashboard follows) and a start in the future, in one line", () => {
    expect(() => followWindow({ until: parseTimeBound("5m") }, NOW)).toThrow(
      "--until 5m: the dashboard follows new lines; read a range with tail --since … --until …, or open FILE --until …",
    );
    expect(() => followWindow({ since: parseTimeBound("2026-12-03T00:00:00Z") }, NOW)).toThrow(
      /is in the future/,
    );
  });
});
