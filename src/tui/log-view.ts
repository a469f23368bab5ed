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
import type { LogStore, StoredRow } from "../tail/log-store.js";
import { replicaColour } from "../text/colour.js";
import {
  boundedPrefix,
  joinSafe,
  lit,
  padEnd,
  padStart,
  type Safe,
  safe,
  safeBounded,
  sliceSafe,
  widthOf,
} from "../text/safe-text.js";
import { smartCaseRegex } from "../text/smart-case.js";
import { graphemes, isPlain } from "../text/terminal-width.js";
import { formatMsRfc3339, formatRfc3339 } from "../text/timestamp.js";
import { rowStarts } from "../text/wrap.js";
import type { Colour, Segment, TextStyle } from "./segment.js";
import type { LogAnchor, UiState } from "./ui-state.js";

/** The most of one line rendered, searched and filtered on. */
export const MAX_RENDERED_CHARS = 64 * 1024;

export type Level = "error" | "warn" | "info" | "debug" | undefined;

export interface ViewRow {
  key: string;
  segments: Segment[];
}

export interface LogView {
  rows: ViewRow[];
  /** Lines that arrived since the pause (all of them, kept or not). */
  newWhilePaused: number;
  /** Of those, how many the buffer still holds (its cap drops the oldest). */
  newKept: number;
  /** The lines a paused view was on left the buffer: it shows the oldest kept instead. */
  moved: boolean;
  /** Why nothing is shown, when nothing is. */
  empty: Safe | undefined;
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
      return smartCaseRegex(s);
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
  const global = new RegExp(search.source, `g${search.flags.replace("g", "")}`);
  const out: [number, number][] = [];
  for (const m of text.matchAll(global)) {
    if (m[0].length === 0) break;
    const at = m.index ?? 0;
    out.push([at, at + m[0].length]);
  }
  return out;
}

function layOut(event: LogEvent, width: number, wrap: boolean, filters: Filters): Laid {
  const search = filters.search ? `${filters.search.flags}/${filters.search.source}` : undefined;
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
  out.push({
    text: lit`${replicaTag(event.replicaLabel)} `,
    colour: replicaColour(event.replicaLabel),
    bold: true,
  });
  return out;
}

/** `[2]` for `replica 2/3`, else the label itself (bounded). */
function replicaTag(label: string): Safe {
  const n = replicaNumber(label);
  return n === undefined ? lit`[${safe(label.slice(0, 40))}]` : lit`[${n}]`;
}

/**
 * The gutter of a wrapped line's further rows: the replica again (dim) with a `↪`, so a
 * continuation is never mistaken for a line of its own or of another replica.
 */
function continuationGutter(event: LogEvent, width: number): Segment[] {
  if (event.kind === "gap" || width === 0)
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

function contentWidthFor(
  event: LogEvent,
  state: Pick<UiState, "timestamps">,
  width: number,
): number {
  const headWidth = gutter(event, state).reduce((n, s) => n + widthOf(s.text), 0);
  return Math.max(4, width - headWidth);
}

/** How many rows a line takes at this width (1 unless wrapped). */
export function lineRowCount(
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
): number {
  if (!state.wrap) return 1;
  return layOut(event, contentWidthFor(event, state, width), true, filters).starts.length;
}

/**
 * Rows of one event for a pane `width` wide: some of them (see RowTake), built only those.
 */
export function formatRows(
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
  take: RowTake = { from: "start", count: Infinity },
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
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
): Segment[][] {
  return formatRows(event, state, filters, width);
}

/** The log as one view sees it: a store, the pane's size and what filters apply. */
interface Frame {
  store: LogStore;
  state: UiState;
  filters: Filters;
  width: number;
  height: number;
}

const rowsOf = (f: Frame, index: number) =>
  lineRowCount((f.store.at(index) as StoredRow).event, f.state, f.filters, f.width);

const shown = (f: Frame, index: number) =>
  matchesFilters((f.store.at(index) as StoredRow).event, f.filters);

/** The nearest shown line at or before (`step` -1) / after (+1) `index`, or -1. */
function nearestShown(f: Frame, index: number, step: 1 | -1): number {
  for (let i = index; i >= 0 && i < f.store.size(); i += step) if (shown(f, i)) return i;
  return -1;
}

/** The place whose view is the oldest screenful of shown lines. */
function oldestScreen(f: Frame): LogAnchor | undefined {
  let rows = 0;
  let last = -1;
  for (let i = 0; i < f.store.size(); i++) {
    if (!shown(f, i)) continue;
    last = i;
    rows += rowsOf(f, i);
    if (rows >= f.height) return { line: i + f.store.evicted(), rowsBelow: rows - f.height };
  }
  return last < 0 ? undefined : { line: last + f.store.evicted(), rowsBelow: 0 };
}

/** Where the view is now: the store index of its bottom line and the rows of it below the view. */
function bottomOf(f: Frame): { index: number; rowsBelow: number; moved: boolean } {
  const { state, store } = f;
  if (state.following || !state.anchor) {
    return { index: nearestShown(f, store.size() - 1, -1), rowsBelow: 0, moved: false };
  }
  const index = state.anchor.line - store.evicted();
  if (index < 0) {
    const oldest = oldestScreen(f);
    return oldest
      ? { index: oldest.line - store.evicted(), rowsBelow: oldest.rowsBelow, moved: true }
      : { index: -1, rowsBelow: 0, moved: true };
  }
  const at = nearestShown(f, Math.min(index, store.size() - 1), -1);
  return { index: at, rowsBelow: at === index ? state.anchor.rowsBelow : 0, moved: false };
}

export interface LogViewOptions {
  filters?: Filters;
  /** Replica numbers seen so far, to say why a view is empty. */
  replicas?: ReadonlySet<number>;
}

/**
 * The rows that fill a pane `height` lines tall and `width` wide: up from the view's bottom
 * (the newest shown line, or where a paused view is), only as many rows as fit.
 */
export function computeLogView(
  store: LogStore,
  state: UiState,
  width: number,
  height: number,
  options: LogViewOptions = {},
): LogView {
  const f: Frame = {
    store,
    state,
    filters: options.filters ?? compileFilters(state),
    width,
    height,
  };
  const total = store.evicted() + store.size();
  const bottom = bottomOf(f);
  const lines: ViewRow[] = [];
  let skip = bottom.rowsBelow;
  let index = bottom.index;
  for (; index >= 0 && lines.length < height; index--) {
    const row = store.at(index) as StoredRow;
    if (!matchesFilters(row.event, f.filters)) continue;
    const laid = formatRows(row.event, state, f.filters, width, {
      from: "end",
      count: height - lines.length,
      skipEnd: skip,
    });
    const n = lineRowCount(row.event, state, f.filters, width);
    for (let i = laid.length - 1; i >= 0; i--) {
      lines.push({
        key: `${row.id}:${n - skip - (laid.length - i)}`,
        segments: laid[i] as Segment[],
      });
    }
    skip = 0;
  }
  lines.reverse();
  if (!state.following && lines.length < height && bottom.index >= 0) {
    // A paused view near the oldest line: fill the screen with what comes after its bottom.
    const row = store.at(bottom.index) as StoredRow;
    const below = bottom.rowsBelow;
    if (below > 0) {
      const n = lineRowCount(row.event, state, f.filters, width);
      const count = Math.min(below, height - lines.length);
      const more = formatRows(row.event, state, f.filters, width, {
        from: "end",
        count,
        skipEnd: below - count,
      });
      for (const [i, segments] of more.entries()) {
        lines.push({ key: `${row.id}:${n - below + i}`, segments });
      }
    }
    for (let i = bottom.index + 1; i < store.size() && lines.length < height; i++) {
      const next = store.at(i) as StoredRow;
      if (!matchesFilters(next.event, f.filters)) continue;
      const laid = formatRows(next.event, state, f.filters, width, {
        from: "start",
        count: height - lines.length,
      });
      for (const [k, segments] of laid.entries()) lines.push({ key: `${next.id}:${k}`, segments });
    }
  }
  const newWhilePaused =
    state.following || state.pausedAtTotal === undefined
      ? 0
      : Math.max(0, total - state.pausedAtTotal);
  return {
    rows: lines,
    newWhilePaused,
    newKept: Math.min(newWhilePaused, store.size()),
    moved: bottom.moved,
    empty: lines.length > 0 ? undefined : emptyReason(f, options.replicas),
  };
}

/** Why a view shows nothing. */
function emptyReason(f: Frame, replicas: ReadonlySet<number> | undefined): Safe {
  const { store, state } = f;
  if (store.size() === 0) return lit`waiting for log lines…`;
  const hidden = new Set(state.hiddenReplicas);
  if (replicas && replicas.size > 0 && [...replicas].every((r) => hidden.has(r))) {
    const all = [...replicas].sort((a, b) => a - b);
    return lit`all replicas hidden: press ${safe(all.join(", "))} to show them`;
  }
  const parts: Safe[] = [];
  if (state.include) parts.push(lit`+/${safeBounded(state.include, 200)}/`);
  if (state.exclude) parts.push(lit`-/${safeBounded(state.exclude, 200)}/`);
  if (parts.length > 0) {
    return lit`no line matches ${joinSafe(parts, lit` `)} (${safe(store.size().toLocaleString("en-US"))} lines hidden by the filters; Esc clears them)`;
  }
  return lit`no line from the replicas shown (hidden: ${safe(state.hiddenReplicas.join(", "))})`;
}

/** Scrolling and search, resolved against the store: what the key step moves the view to. */
export interface LogNavigator {
  /** Lines ever appended. */
  total(): number;
  /** `rows` screen rows up (positive, older) or down (negative); undefined when it cannot move. */
  scroll(state: UiState, rows: number): LogAnchor | undefined;
  /** The oldest screenful. */
  oldest(state: UiState): LogAnchor | undefined;
  /** The next line holding a search match, older (-1) or newer (+1) than the view's bottom. */
  findMatch(state: UiState, direction: 1 | -1): LogAnchor | undefined;
}

export function logNavigator(store: LogStore, width: number, height: number): LogNavigator {
  const frame = (state: UiState): Frame => ({
    store,
    state,
    filters: compileFilters(state),
    width,
    height,
  });
  return {
    total: () => store.evicted() + store.size(),
    scroll(state, by) {
      const f = frame(state);
      const bottom = bottomOf(f);
      if (bottom.index < 0 || by === 0) return undefined;
      if (by < 0 && state.following) return undefined;
      let index = bottom.index;
      let rb = bottom.rowsBelow + by;
      if (by > 0) {
        while (rb >= rowsOf(f, index)) {
          rb -= rowsOf(f, index);
          const prev = nearestShown(f, index - 1, -1);
          if (prev < 0) return oldestScreen(f);
          index = prev;
        }
        // Never further up than the oldest screenful.
        let above = rowsOf(f, index) - rb;
        for (
          let i = nearestShown(f, index - 1, -1);
          i >= 0 && above < height;
          i = nearestShown(f, i - 1, -1)
        ) {
          above += rowsOf(f, i);
        }
        if (above < height) return oldestScreen(f);
      } else {
        while (rb < 0) {
          const next = nearestShown(f, index + 1, 1);
          if (next < 0) {
            rb = 0;
            break;
          }
          index = next;
          rb += rowsOf(f, index);
        }
      }
      return { line: index + store.evicted(), rowsBelow: rb };
    },
    oldest: (state) => oldestScreen(frame(state)),
    findMatch(state, direction) {
      const f = frame(state);
      if (!f.filters.search) return undefined;
      const from = bottomOf(f).index;
      for (
        let i = nearestShown(f, from + direction, direction);
        i >= 0;
        i = nearestShown(f, i + direction, direction)
      ) {
        if (matchesSearch((store.at(i) as StoredRow).event, f.filters)) {
          return { line: i + store.evicted(), rowsBelow: 0 };
        }
      }
      return undefined;
    },
  };
}
