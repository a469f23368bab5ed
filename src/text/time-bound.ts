/**
 * One end of a time range as on-call types it for `--since` and `--until`: a duration back from
 * now (`10m`, `1h30m`), a clock time (`20:33`, `20:33:05`, `20:33:05.250`: today, in the local
 * zone or in UTC) or an RFC 3339 time (`2026-11-25T20:33:05Z`, `…+01:00`). A bare number is
 * refused, naming the units (`90 what? e.g. 90s`): it could be seconds or minutes.
 *
 * Parsing keeps what was typed (a clock time is placed on a day only when the zone is known:
 * `--utc` may come after `--since`); `instantOf` places it. The times themselves are read by
 * date-fns; the shapes accepted are checked first, so that date-fns's leniency (`2:3`, a time
 * without its offset) is not taken for what was meant.
 */
import { isValid, parse, parseISO, set, startOfDay } from "date-fns";
import { parseDuration } from "./duration.js";

export type TimeBound =
  /** A duration back from now, ms. */
  | { kind: "ago"; ms: number; text: string }
  /** A time of day, ms since its midnight; placed today (local or UTC) by instantOf. */
  | { kind: "clock"; ms: number; text: string }
  /** An instant, epoch ms. */
  | { kind: "instant"; ms: number; text: string };

const BARE_NUMBER = /^\d+(?:\.\d+)?$/;
const CLOCK = /^(\d{1,2}:\d{2}(?::\d{2})?)(\.\d{1,9})?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

const EXAMPLES =
  "a duration (10m), a clock time (20:33, 20:33:05) or RFC 3339 (2026-11-25T20:33:05Z)";

/** What was typed, in quotes, short enough for one line. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 24 ? `${text.slice(0, 20)}…` : text);
}

/** Reads a bound; throws an Error with a one-line message naming what to type instead. */
export function parseTimeBound(text: string): TimeBound {
  const t = text.trim();
  if (BARE_NUMBER.test(t)) {
    const n = t.length > 12 ? `${t.slice(0, 8)}…` : t;
    throw new Error(`${n} what? e.g. ${n}s or ${n}m`);
  }
  const clock = CLOCK.exec(t);
  if (clock) {
    const whole = clock[1] as string;
    const at = parse(whole, whole.length > 5 ? "H:mm:ss" : "H:mm", new Date(2000, 0, 1));
    if (!isValid(at)) throw new Error(`${quoted(t)} is not a time of day (00:00 to 23:59:59)`);
    const ms =
      ((at.getHours() * 60 + at.getMinutes()) * 60 + at.getSeconds()) * 1000 +
      Math.floor(Number(clock[2] ?? 0) * 1000);
    return { kind: "clock", ms, text: t };
  }
  if (RFC3339.test(t)) {
    const at = parseISO(t.replace(/[t ]/, "T").replace(/z$/, "Z"));
    if (!isValid(at)) throw new Error(`${quoted(t)} is not a valid time`);
    return { kind: "instant", ms: at.getTime(), text: t };
  }
  if (/^\d/.test(t)) {
    try {
      return { kind: "ago", ms: parseDuration(t), text: t };
    } catch {
      // Said below, with every form.
    }
  }
  throw new Error(`${quoted(t)} is not a time: give ${EXAMPLES}`);
}

/**
 * The epoch ms a bound stands for, `now` being epoch ms: a clock time on the day of `now`, in UTC
 * or in the local zone (a day whose clocks change is counted as date-fns counts it).
 */
export function instantOf(bound: TimeBound, now: number, utc: boolean): number {
  switch (bound.kind) {
    case "ago":
      return now - bound.ms;
    case "instant":
      return bound.ms;
    case "clock": {
      const day = new Date(now);
      if (utc) {
        return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) + bound.ms;
      }
      const seconds = Math.floor(bound.ms / 1000);
      return set(startOfDay(day), {
        hours: Math.floor(seconds / 3600),
        minutes: Math.floor(seconds / 60) % 60,
        seconds: seconds % 60,
        milliseconds: bound.ms % 1000,
      }).getTime();
    }
  }
}
