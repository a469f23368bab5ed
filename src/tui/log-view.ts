/**
 * The log pane's view-model: from the store and the UI state, exactly the rows that fit the pane,
 * already sanitized, cut or wrapped, with their colours and search highlights. React sees only
 * these rows, never the buffer.
 *
 * Cost is bounded by what is shown: a line's first 64 KiB are rendered (a marker says how much
 * more it holds), its rows are found in one linear pass (cached per line and width), and only the
 * rows that will be on screen are built.
 */

import type { LogEvent, LogLine } from "../tail/log-line.js";
import type { LogStore } from "../tail/log-store.js";
import { replicaColour } from "../text/colour.js";
import { boundedPrefix, lit, type Safe, safe, sliceSafe, widthOf } from "../text/safe-text.js";
import { graphemes, isPlain } from "../text/terminal-width.js";
import { formatMsRfc3339, formatRfc3339 } from "../text/timestamp.js";
import { rowStarts } from "../text/wrap.js";
import type { Colour, Segment, TextStyle } from "./segment.js";
import type { UiState } from "./ui-state.js";

/** The most of one line rendered, searched and filtered on. */
export const MAX_RENDERED_CHARS = 64 * 1024;

export type Level = "error" | "warn" | "info" | "debug" | undefined;

export interface ViewRow {
  key: string;
  segments: Segment[];
}

export interface LogView {
  rows: ViewRow[];
  /** Lines that arrived since the pause. */
  newWhilePaused: number;
  /** Whether the view reached the oldest matching row. */
  atTop: boolean;
}

export function replicaNumber(label: string): number | undefined {
  const m = /(\d+)\s*\/\s*\d+/.exec(label.slice(0, 100));
  return m ? Number(m[1]) : undefined;
}

const LEVELS: Record<string, Level> = {
  error: "error",
  err: "error",
  fatal: "error",
  critical: "error",
  crit: "error",
  panic: "error",
  alert: "error",
  emergency: "error",
  warn: "warn",
  warning: "warn",
  info: "info",
  notice: "info",
  debug: "debug",
  trace: "debug",
};

export interface Rendered {
  /** The content as shown: sanitized, normalized, JSON compacted; at most MAX_RENDERED_CHARS. */
  text: Safe;
  level: Level;
  /** Characters of the content beyond what is rendered. */
  hidden: number;
}

/** Parsed and sanitized content, cached per event (content never changes; GC bounds the cache). */
const renderCache = new WeakMap<LogLine, Rendered>();

export function renderContent(content: string): Rendered {
  let level: Level;
  const { text: shown, hidden } = boundedPrefix(content, MAX_RENDERED_CHARS);
  let text = shown;
  const trimmed = hidden === 0 ? content.trimStart() : "";
  if (trimmed.startsWith("{") && trimmed.length < 20_000) {
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        const raw = record.level ?? record.severity ?? record.lvl;
        if (typeof raw === "string") level = LEVELS[raw.toLowerCase()];
        else if (typeof raw === "number")
          level = raw >= 50 ? "error" : raw >= 40 ? "warn" : raw >= 30 ? "info" : "debug";
        text = JSON.stringify(value);
      }
    } catch {
      // Not JSON after all: shown as it is.
    }
  }
  if (level === undefined) {
    const m = /\b(ERROR|FATAL|PANIC|CRITICAL|WARN|WARNING|DEBUG|TRACE)\b/.exec(
      content.slice(0, 200),
    );
    if (m) level = LEVELS[(m[1] as string).toLowerCase()];
  }
  return { text: safe(text), level, hidden };
}

function cachedRender(event: LogLine): Rendered {
  let r = renderCache.get(event);
  if (!r) {
    r = renderContent(event.content);
    renderCache.set(event, r);
  }
  return r;
}

/** What filters and search test: the content, up to what is rendered. */
function searchable(event: LogLine): string {
  return event.content.length <= MAX_RENDERED_CHARS
    ? event.content
    : boundedPrefix(event.content, MAX_RENDERED_CHARS).text;
}

export interface Filters {
  include: RegExp | undefined;
  exclude: RegExp | undefined;
  search: RegExp | undefined;
  hidden: ReadonlySet<number>;
}

export function compileFilters(
  state: Pick<UiState, "include" | "exclude" | "search" | "hiddenReplicas">,
): Filters {
  const compile = (s: string | undefined) => {
    if (!s) return undefined;
    try {
      return new RegExp(s, "i");
    } catch {
      return undefined;
    }
  };
  return {
    include: compile(state.include),
    exclude: compile(state.exclude),
    search: compile(state.search),
    hidden: new Set(state.hiddenReplicas),
  };
}

export function matchesFilters(event: LogEvent, f: Filters): boolean {
  if (event.kind === "gap") return true;
  if (f.hidden.size > 0) {
    const n = replicaNumber(event.replicaLabel);
    if (n !== undefined && f.hidden.has(n)) return false;
  }
  if (!f.include && !f.exclude) return true;
  const text = searchable(event);
  if (f.include && !f.include.test(text)) return false;
  if (f.exclude?.test(text)) return false;
  return true;
}

export function matchesSearch(event: LogEvent, f: Filters): boolean {
  return event.kind === "line" && f.search !== undefined && f.search.test(searchable(event));
}

function levelColour(level: Level): Colour | undefined {
  return level === "error"
    ? "red"
    : level === "warn"
      ? "yellow"
      : level === "debug"
        ? "gray"
        : undefined;
}

/** A line's content laid out for one width: the text shown, its row starts, style spans. */
interface Laid {
  width: number;
  wrap: boolean;
  search: string | undefined;
  text: Safe;
  starts: number[];
  /** Where the "more characters" marker begins in `text` (styled dim), or text.length. */
  markerAt: number;
  /** Search matches as [start, end) offsets into `text`. */
  matches: [number, number][];
  /** Unwrapped and wider than the pane: where the text is cut, before the `…`. */
  cutAt: number | undefined;
}

const layoutCache = new WeakMap<LogEvent, Laid>();

function findMatches(text: string, search: RegExp | undefined): [number, number][] {
  if (!search) return [];
  const global = new RegExp(search.source, "gi");
  const out: [number, number][] = [];
  for (const m of text.matchAll(global)) {
    if (m[0].length === 0) break;
    const at = m.index ?? 0;
    out.push([at, at + m[0].length]);
  }
  return out;
}

function layOut(event: LogEvent, width: number, wrap: boolean, filters: Filters): Laid {
  const search = filters.search?.source;
  const cached = layoutCache.get(event);
  if (cached && cached.width === width && cached.wrap === wrap && cached.search === search) {
    return cached;
  }
  let text: Safe;
  let markerAt: number;
  if (event.kind === "gap") {
    text = safe(
      `── gap: ${event.reason} (${formatMsRfc3339(event.from, false)} → ${formatMsRfc3339(event.to, false)}) ──`,
    );
    markerAt = text.length;
  } else {
    const r = cachedRender(event);
    const tail =
      r.hidden > 0 ? lit` … (${safe(r.hidden.toLocaleString("en-US"))} more characters)` : lit``;
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
    text,
    starts,
    markerAt,
    matches: event.kind === "line" ? findMatches(text.slice(0, markerAt), filters.search) : [],
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

/** The gutter before a line's first row: timestamp (when on) and replica. */
function gutter(event: LogEvent, state: Pick<UiState, "timestamps">): Segment[] {
  if (event.kind === "gap") return [];
  const out: Segment[] = [];
  if (state.timestamps) {
    out.push({
      text: event.ts
        ? lit`${safe(formatRfc3339(event.ts, false).slice(11, 29))} `
        : lit`${safe("-".padEnd(18))} `,
      dim: true,
    });
  }
  const n = replicaNumber(event.replicaLabel);
  out.push({
    text: n === undefined ? lit`[${safe(event.replicaLabel.slice(0, 40))}] ` : lit`[${n}] `,
    colour: replicaColour(event.replicaLabel),
    bold: true,
  });
  return out;
}

/**
 * Rows of one event for a pane `width` wide: `count` of them from its end ("end") or its start
 * ("start"). Only those rows are built.
 */
export function formatRows(
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
  take: { from: "start" | "end"; count: number } = { from: "start", count: Infinity },
): Segment[][] {
  const head = gutter(event, state);
  const headWidth = head.reduce((n, s) => n + widthOf(s.text), 0);
  const contentWidth = Math.max(4, width - headWidth);
  const laid = layOut(event, contentWidth, state.wrap, filters);
  const base: TextStyle =
    event.kind === "gap"
      ? { colour: "yellow", dim: true }
      : { colour: levelColour(cachedRender(event).level) };
  const n = laid.starts.length;
  const first = take.from === "start" ? 0 : Math.max(0, n - take.count);
  const last = take.from === "start" ? Math.min(n, take.count) : n;
  const rows: Segment[][] = [];
  for (let i = first; i < last; i++) {
    const start = laid.starts[i] as number;
    const end = laid.starts[i + 1] ?? laid.text.length;
    if (!state.wrap) {
      const segs = styleRange(laid, 0, laid.cutAt ?? end, base);
      if (laid.cutAt !== undefined) segs.push({ text: lit`…`, dim: true });
      rows.push([...head, ...segs]);
    } else {
      rows.push([
        ...(i === 0 ? head : blankGutter(headWidth)),
        ...styleRange(laid, start, end, base),
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

function blankGutter(width: number): Segment[] {
  return width === 0 ? [] : [{ text: lit`${safe(" ".repeat(width))}` }];
}

/** All rows of one event (tests, and short lines). */
export function formatRow(
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
): Segment[][] {
  return formatRows(event, state, filters, width);
}

/**
 * The rows that fill a pane `height` lines tall and `width` wide. Walks back from the newest
 * (or paused) line, skipping `scroll` matching rows, until the pane is full.
 */
export function computeLogView(
  store: LogStore,
  state: UiState,
  width: number,
  height: number,
  filters = compileFilters(state),
): LogView {
  const total = store.evicted() + store.size();
  const bottomAbsolute =
    state.following || state.pausedAtSize === undefined ? total - 1 : state.pausedAtSize - 1;
  let index = Math.min(store.size() - 1, bottomAbsolute - store.evicted());
  let skip = state.scroll;
  const lines: ViewRow[] = [];
  while (index >= 0 && lines.length < height) {
    const row = store.at(index) as NonNullable<ReturnType<LogStore["at"]>>;
    index -= 1;
    if (!matchesFilters(row.event, filters)) continue;
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    const laid = formatRows(row.event, state, filters, width, {
      from: "end",
      count: height - lines.length,
    });
    for (let i = laid.length - 1; i >= 0 && lines.length < height; i--) {
      lines.push({ key: `${row.id}:${i}`, segments: laid[i] as Segment[] });
    }
  }
  lines.reverse();
  if (index < 0 && state.scroll > 0 && lines.length < height) {
    // Scrolled past the oldest line: show the oldest screenful.
    lines.length = 0;
    for (let i = 0; i < store.size() && lines.length < height; i++) {
      const row = store.at(i) as NonNullable<ReturnType<LogStore["at"]>>;
      if (!matchesFilters(row.event, filters)) continue;
      const laid = formatRows(row.event, state, filters, width, {
        from: "start",
        count: height - lines.length,
      });
      for (const [n, seg] of laid.entries()) lines.push({ key: `${row.id}:${n}`, segments: seg });
    }
  }
  return {
    rows: lines,
    newWhilePaused:
      state.following || state.pausedAtSize === undefined
        ? 0
        : Math.max(0, total - state.pausedAtSize),
    atTop: index < 0,
  };
}

/**
 * For n / N: the scroll offset (in matching rows from the view's bottom) of the next search match
 * older (direction -1) or newer (+1) than the current bottom row, or undefined when there is none.
 */
export function findMatchOffset(
  store: LogStore,
  state: UiState,
  direction: 1 | -1,
  filters = compileFilters(state),
): number | undefined {
  if (!filters.search) return undefined;
  const total = store.evicted() + store.size();
  const bottomAbsolute =
    state.following || state.pausedAtSize === undefined ? total - 1 : state.pausedAtSize - 1;
  const bottom = Math.min(store.size() - 1, bottomAbsolute - store.evicted());
  // Matching rows from the bottom: offset k is the k-th matching row going up.
  let offset = 0;
  const candidates: number[] = [];
  for (let i = bottom; i >= 0; i--) {
    const row = store.at(i);
    if (!row || !matchesFilters(row.event, filters)) continue;
    if (matchesSearch(row.event, filters)) candidates.push(offset);
    offset += 1;
    if (direction === 1 && offset > state.scroll) break;
  }
  if (direction === -1) return candidates.find((k) => k > state.scroll);
  const newer = candidates.filter((k) => k < state.scroll);
  return newer.length > 0 ? Math.max(...newer) : undefined;
}
