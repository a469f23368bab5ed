/**
 * One log line drawn for a pane's width: its gutter (time, replica, cursor or mark), its content
 * sanitized, cut or wrapped, with level colours and search highlights. Only the rows a view shows
 * are built.
 *
 * Cost is bounded by what is shown: a line's first 64 KiB are rendered (a marker says how much
 * more it holds), its rows are found in one linear pass (cached per line and width).
 */

import type { FieldColumns } from "../../logs/formats/field-columns.js";
import { type EventMarker, isStamped, type StoreEvent } from "../../logs/model/log-line.js";
import { EVENT_GLYPHS, eventLevel } from "../../logs/model/pane-event.js";
import { replicaColour } from "../../text/colour.js";
import { grouped } from "../../text/grouped-number.js";
import type { LogLevel } from "../../text/log-level.js";
import type { Pattern } from "../../text/pattern.js";
import {
  lit,
  padEnd,
  padStart,
  type Safe,
  safe,
  sliceSafe,
  widthOf,
} from "../../text/safe-text.js";
import { graphemes, isPlain } from "../../text/terminal-width.js";
import { formatMsRfc3339, formatRfc3339 } from "../../text/timestamp.js";
import { rowStarts } from "../../text/wrap.js";
import type { Colour, Segment, TextStyle } from "../rows/segment.js";
import type { TimeMode } from "../state/ui-state.js";
import type { Filters } from "./log-filters.js";
import { renderedLine, replicaTagText } from "./rendered-line.js";

/**
 * How one line is drawn: `time` and `wrap` from the UI state; `now` (epoch ms) for relative
 * times; `mark` for the cursor's line (`>`) or a marked one (`*`), in the gutter.
 */
export interface RowLook {
  time: TimeMode;
  wrap: boolean;
  now?: number | undefined;
  mark?: "cursor" | "mark" | undefined;
  /** Lines as columns of chosen fields (`|`), in place of their text. */
  fieldColumns?: FieldColumns | undefined;
}

function levelColour(level: LogLevel | undefined): Colour | undefined {
  return level === "error" || level === "fatal"
    ? "red"
    : level === "warn"
      ? "yellow"
      : level === "debug" || level === "trace"
        ? "gray"
        : undefined;
}

/** A line's content laid out for one width: the text shown, its row starts, style spans. */
interface Laid {
  width: number;
  wrap: boolean;
  search: string | undefined;
  /** The column layout the text was made with (`|`), if any. */
  columns: string | undefined;
  text: Safe;
  starts: number[];
  /** Where the "more characters" marker begins in `text` (styled dim), or text.length. */
  markerAt: number;
  /** Search matches as [start, end) offsets into `text`. */
  matches: [number, number][];
  /** Unwrapped and wider than the pane: where the text is cut, before the `…`. */
  cutAt: number | undefined;
}

const layoutCache = new WeakMap<StoreEvent, Laid>();

function findMatches(text: string, search: Pattern | undefined): [number, number][] {
  return search ? search.matches(text) : [];
}

function layOut(
  event: StoreEvent,
  width: number,
  wrap: boolean,
  filters: Filters,
  fieldColumns?: FieldColumns,
): Laid {
  const search = filters.search?.key;
  const columns =
    fieldColumns && event.kind === "line"
      ? `${fieldColumns.fields.join(",")} ${fieldColumns.key()}`
      : undefined;
  const cached = layoutCache.get(event);
  if (
    cached &&
    cached.width === width &&
    cached.wrap === wrap &&
    cached.search === search &&
    cached.columns === columns
  ) {
    return cached;
  }
  let text: Safe;
  let markerAt: number;
  if (event.kind === "gap") {
    text = safe(
      `── gap: ${event.reason} (${formatMsRfc3339(event.from, false)} → ${formatMsRfc3339(event.to, false)}) ──`,
    );
    markerAt = text.length;
  } else if (event.kind === "replica") {
    text = safe(`── ${event.text} ──`);
    markerAt = text.length;
  } else if (event.kind === "event") {
    text = lit`${safe(EVENT_GLYPHS[event.event.kind])} ${safe(event.text)}`;
    markerAt = text.length;
  } else if (fieldColumns) {
    const late = event.late ? lit` (late)` : lit``;
    const row = fieldColumns.row(event);
    text = lit`${row}${late}`;
    markerAt = row.length;
  } else {
    const r = renderedLine(event);
    const tail = r.hidden > 0 ? lit` … (${safe(grouped(r.hidden))} more characters)` : lit``;
    const late = event.late ? lit` (late)` : lit``;
    text = lit`${r.text}${tail}${late}`;
    markerAt = r.text.length;
  }
  // Unwrapped, only the first row is ever shown: no need to find the others.
  const starts = wrap ? rowStarts(text, width) : [0];
  const cut = wrap ? undefined : cutPoint(text, width);
  const laid: Laid = {
    width,
    wrap,
    search,
    columns,
    text,
    starts,
    markerAt,
    matches: event.kind !== "gap" ? findMatches(text.slice(0, markerAt), filters.search) : [],
    cutAt: cut,
  };
  layoutCache.set(event, laid);
  return laid;
}

/** Index of the first match that ends after `at` (matches are sorted and disjoint). */
function firstMatchAfter(matches: readonly [number, number][], at: number): number {
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((matches[mid] as [number, number])[1] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The styled segments of text[from, to), split where the style changes (never in a grapheme). */
function styleRange(laid: Laid, from: number, to: number, base: TextStyle): Segment[] {
  const cuts: number[] = [];
  const first = firstMatchAfter(laid.matches, from);
  for (let k = first; k < laid.matches.length; k++) {
    const [s, e] = laid.matches[k] as [number, number];
    if (s >= to) break;
    if (s > from) cuts.push(s);
    if (e < to) cuts.push(e);
  }
  if (laid.markerAt > from && laid.markerAt < to) cuts.push(laid.markerAt);
  const styleAt = (at: number): TextStyle => {
    if (at >= laid.markerAt) return { dim: true };
    const m = laid.matches[firstMatchAfter(laid.matches, at)];
    return m && m[0] <= at ? { ...base, inverse: true } : base;
  };
  if (cuts.length === 0) return [{ ...styleAt(from), text: sliceSafe(laid.text, from, to) }];
  cuts.sort((a, b) => a - b);
  const slice = laid.text.slice(from, to);
  if (!isPlain(slice)) {
    // A style boundary inside a grapheme moves to the grapheme's end.
    const bounds = Array.from(graphemes(slice), (g) => from + g.index);
    let b = 0;
    for (let i = 0; i < cuts.length; i++) {
      while (b < bounds.length && (bounds[b] as number) < (cuts[i] as number)) b++;
      cuts[i] = bounds[b] ?? to;
    }
  }
  const out: Segment[] = [];
  let at = from;
  for (const cut of [...cuts, to]) {
    if (cut <= at) continue;
    out.push({ ...styleAt(at), text: sliceSafe(laid.text, at, cut) });
    at = cut;
  }
  return out;
}

/** `-3m12s`: how long before `now` a line was stamped, in at most 7 cells. */
export function relativeTime(ms: number, now: number): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return -s < 60 ? `+${-s}s` : `+${Math.floor(-s / 60)}m`;
  if (s < 60) return `-${s}s`;
  if (s < 3600) return `-${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  if (s < 86_400)
    return `-${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
  return `-${Math.floor(s / 86_400)}d`;
}

/** The gutter before a line's first row: timestamp (absolute or relative), replica, mark. */
function gutter(event: StoreEvent, look: RowLook): Segment[] {
  if (event.kind === "replica" && look.mark === "cursor") {
    return [{ text: lit`>`, bold: true, inverse: true }];
  }
  if (event.kind === "event") return eventGutter(event, look);
  if (event.kind !== "line") return [];
  const out: Segment[] = [];
  if (look.time === "absolute") {
    out.push({
      text: isStamped(event)
        ? lit`${safe(formatRfc3339(event.seconds, event.nanos, false).slice(11, 29))} `
        : lit`${safe("-".padEnd(18))} `,
      dim: true,
    });
  } else if (look.time === "relative") {
    const text = isStamped(event) ? relativeTime(event.sortKey, look.now ?? Date.now()) : "-";
    out.push({ text: lit`${safe(text.padStart(7))} `, dim: true });
  }
  const cursor = look.mark === "cursor";
  out.push({
    text: replicaTag(event.replicaLabel),
    colour: replicaColour(event.replicaLabel),
    bold: true,
    inverse: cursor,
  });
  out.push(
    cursor
      ? { text: lit`>`, bold: true, inverse: true }
      : look.mark === "mark"
        ? { text: lit`*`, bold: true, colour: "magenta" }
        : { text: lit` ` },
  );
  return out;
}

/** The gutter of a side pane's event: its time as a line's (on the log's clock), then the mark. */
function eventGutter(event: EventMarker, look: RowLook): Segment[] {
  const out: Segment[] = [];
  if (look.time === "absolute") {
    const time = formatMsRfc3339(event.sortKey, false).slice(11, 23);
    out.push({ text: lit`${safe(time.padEnd(18))} `, dim: true });
  } else if (look.time === "relative") {
    const text = relativeTime(event.sortKey, look.now ?? Date.now());
    out.push({ text: lit`${safe(text.padStart(7))} `, dim: true });
  }
  out.push(
    look.mark === "cursor"
      ? { text: lit`>`, bold: true, inverse: true }
      : look.mark === "mark"
        ? { text: lit`*`, bold: true, colour: "magenta" }
        : { text: lit` ` },
  );
  return out;
}

/**
 * `[2]` for `replica 2/3`, else the label itself (bounded); nothing for a line without a replica
 * (saved text that is not tail's, a line that could not be read).
 */
function replicaTag(label: string): Safe {
  if (label === "") return lit``;
  const tag = replicaTagText(label);
  return tag === undefined ? lit`[${safe(label.slice(0, 40))}]` : lit`[${safe(tag)}]`;
}

/**
 * The gutter of a wrapped line's further rows: the replica again (dim) with a `↪`, so a
 * continuation is never mistaken for a line of its own or of another replica.
 */
function continuationGutter(event: StoreEvent, width: number): Segment[] {
  if (event.kind !== "line" || width === 0)
    return width === 0 ? [] : [{ text: padEnd(lit``, width) }];
  const tag = lit`${replicaTag(event.replicaLabel)}↪`;
  return [{ text: padStart(tag, width), colour: replicaColour(event.replicaLabel), dim: true }];
}

/** What a view takes of one line's rows: `count` rows ending `skipEnd` rows before its end. */
export interface RowTake {
  from: "start" | "end";
  count: number;
  /** From the end: rows of the line's end left out (a paused view's rows below its bottom). */
  skipEnd?: number;
}

function contentWidthFor(event: StoreEvent, state: RowLook, width: number): number {
  const headWidth = gutter(event, state).reduce((n, s) => n + widthOf(s.text), 0);
  return Math.max(4, width - headWidth);
}

/** How many rows a line takes at this width (1 unless wrapped). */
export function lineRowCount(
  event: StoreEvent,
  state: RowLook,
  filters: Filters,
  width: number,
): number {
  if (!state.wrap) return 1;
  return layOut(event, contentWidthFor(event, state, width), true, filters, state.fieldColumns)
    .starts.length;
}

/**
 * Rows of one event for a pane `width` wide: some of them (see RowTake), built only those.
 */
export function formatRows(
  event: StoreEvent,
  state: RowLook,
  filters: Filters,
  width: number,
  take: RowTake = { from: "start", count: Infinity },
): Segment[][] {
  const head = gutter(event, state);
  const headWidth = head.reduce((n, s) => n + widthOf(s.text), 0);
  const contentWidth = Math.max(4, width - headWidth);
  const laid = layOut(event, contentWidth, state.wrap, filters, state.fieldColumns);
  const base: TextStyle =
    event.kind === "gap"
      ? { colour: "yellow", dim: true }
      : event.kind === "replica"
        ? { colour: "magenta" }
        : event.kind === "event"
          ? { colour: levelColour(eventLevel(event.event)) ?? "cyan" }
          : { colour: levelColour(renderedLine(event).level) };
  const n = laid.starts.length;
  const end =
    take.from === "start" ? Math.min(n, take.count) : Math.max(0, n - (take.skipEnd ?? 0));
  const first = take.from === "start" ? 0 : Math.max(0, end - take.count);
  const rows: Segment[][] = [];
  for (let i = first; i < end; i++) {
    const rowStart = laid.starts[i] as number;
    const rowEnd = laid.starts[i + 1] ?? laid.text.length;
    if (!state.wrap) {
      const segs = styleRange(laid, 0, laid.cutAt ?? rowEnd, base);
      if (laid.cutAt !== undefined) segs.push({ text: lit`…`, dim: true });
      rows.push([...head, ...segs]);
    } else {
      rows.push([
        ...(i === 0 ? head : continuationGutter(event, headWidth)),
        ...styleRange(laid, rowStart, rowEnd, base),
      ]);
    }
  }
  return rows;
}

/**
 * Where to cut a text wider than `width` cells so that it and a `…` fit; undefined when it fits.
 * Looks at no more than the first `width` + 1 cells.
 */
function cutPoint(text: Safe, width: number): number | undefined {
  if (isPlain(text)) return text.length > width ? width - 1 : undefined;
  let used = 0;
  let beforeLast = 0;
  for (const g of graphemes(text)) {
    if (used + g.width > width) return beforeLast;
    used += g.width;
    if (used <= width - 1) beforeLast = g.index + g.text.length;
  }
  return undefined;
}

/** All rows of one event (tests, and short lines). */
export function formatRow(
  event: StoreEvent,
  state: RowLook,
  filters: Filters,
  width: number,
): Segment[][] {
  return formatRows(event, state, filters, width);
}
