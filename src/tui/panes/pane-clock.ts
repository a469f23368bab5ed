/**
 * The side panes on the log's clock. `T` switches the panes' times with the log's: ages while the
 * log shows none (the time of day over saved lines: RestingTimes), the local time of day beside
 * absolute times, and how
 * long before now beside relative ones. With a cursor in the log, each pane follows the cursor's
 * time: the records nearest it are marked and kept in view, and the title says the time
 * followed. Following live, there is no time to follow. Pure: the views build it, the panes draw
 * it, tests run it without a terminal.
 */

import { shortAge } from "../../text/duration.js";
import { type Safe, safe } from "../../text/safe-text.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import { relativeTime } from "../log-view/line-rows.js";
import type { TimeMode } from "../state/ui-state.js";

/** How the side panes show a record's time. */
export type PaneTimes = "age" | "absolute" | "relative";

export interface PaneClock {
  times: PaneTimes;
  /** Epoch ms: ages and relative times are counted to it. */
  now: number;
  /** The log cursor's time (epoch ms) the panes follow; undefined: following live, or no cursor. */
  at: number | undefined;
}

/**
 * How the panes show times while the log shows none (`T` off), a property of the log's source
 * (./../controller/ports.ts): ages for a live log, the local time of day for saved lines (a
 * saved incident's records are days old; ages from now say nothing of them).
 */
export type RestingTimes = Extract<PaneTimes, "age" | "absolute">;

/** The panes' times for the log's (`T`), `resting` while the log shows none. */
export function paneTimes(time: TimeMode, resting: RestingTimes): PaneTimes {
  return time === "off" ? resting : time;
}

/** Cells a time takes in a pane's time column. */
export const TIME_WIDTH: Record<PaneTimes, number> = { age: 4, absolute: 8, relative: 7 };

/** The time column's heading. */
export function timeHeading(times: PaneTimes): Safe {
  return safe(times === "age" ? "age" : "time");
}

/** The local time of day, `20:33:05`. */
export function timeOfDay(ms: number): string {
  return formatMsRfc3339(ms, false).slice(11, 19);
}

/** A record's time (epoch ms) as the clock shows it. */
export function paneTime(clock: PaneClock, ms: number): Safe {
  if (clock.times === "absolute") return safe(Number.isFinite(ms) ? timeOfDay(ms) : "-");
  if (clock.times === "relative") return safe(relativeTime(ms, clock.now));
  return safe(shortAge(clock.now - ms));
}

/** When a record happened: a moment, or a span (an email's first to its last event). */
export interface TimeSpan {
  from: number;
  to: number;
}

/** The records nearest a time, by their place in the pane's list. */
export interface NearTime {
  /** The nearest record: the row the pane's window is kept around. */
  anchor: number;
  /**
   * The records on either side of the time (the last at or before it and the first after it),
   * or the one whose span holds it: together they say what happened just before and just after.
   */
  marked: ReadonlySet<number>;
}

function distance(span: TimeSpan, at: number): number {
  if (at < span.from) return span.from - at;
  if (at > span.to) return at - span.to;
  return 0;
}

/**
 * The records of `spans` (a pane's list, in any order) nearest `at`; undefined for an empty list
 * or no time. One pass: a list of any length costs its length.
 */
export function nearTime(spans: readonly TimeSpan[], at: number | undefined): NearTime | undefined {
  if (at === undefined || spans.length === 0) return undefined;
  let anchor = -1;
  let best = Number.POSITIVE_INFINITY;
  let before = -1;
  let beforeAt = Number.NEGATIVE_INFINITY;
  let after = -1;
  let afterAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i] as TimeSpan;
    if (!Number.isFinite(span.from) || !Number.isFinite(span.to)) continue;
    const d = distance(span, at);
    if (d < best) {
      best = d;
      anchor = i;
    }
    if (span.from <= at && span.from > beforeAt) {
      before = i;
      beforeAt = span.from;
    }
    if (span.from > at && span.from < afterAt) {
      after = i;
      afterAt = span.from;
    }
  }
  if (anchor < 0) return undefined;
  if (best === 0) return { anchor, marked: new Set([anchor]) };
  const marked = new Set<number>([anchor]);
  if (before >= 0) marked.add(before);
  if (after >= 0) marked.add(after);
  return { anchor, marked };
}

/** Cells the mark column takes at a row's start: only while a time is followed. */
export function markWidth(clock: PaneClock): number {
  return clock.at === undefined ? 0 : 2;
}

/** A row's mark column: `>` (the log cursor's glyph) on the records nearest the time followed. */
export function markCell(clock: PaneClock, marked: boolean): Safe {
  if (clock.at === undefined) return safe("");
  return safe(marked ? "> " : "  ");
}

/** What a pane's title says of the time it follows: ` at 20:33:05`, or nothing. */
export function followedTime(clock: PaneClock): Safe {
  return safe(clock.at === undefined ? "" : ` at ${timeOfDay(clock.at)}`);
}
