/**
 * The log pane's view-model: from the store and the UI state, exactly the rows that fit the pane,
 * already sanitized, truncated or wrapped, with their colours and search highlights. React sees
 * only these rows, never the buffer.
 */

import type { LogEvent } from "../tail/log-line.js";
import type { LogStore } from "../tail/log-store.js";
import type { ReplicaColour } from "../text/colour.js";
import { replicaColour } from "../text/colour.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { formatMsRfc3339, formatRfc3339 } from "../text/timestamp.js";
import type { UiState } from "./ui-state.js";

export type Level = "error" | "warn" | "info" | "debug" | undefined;

export interface Segment {
  text: string;
  colour?: ReplicaColour | "red" | "yellow" | "gray" | undefined;
  dim?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

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
  const m = /(\d+)\s*\/\s*\d+/.exec(label);
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

interface Rendered {
  text: string;
  level: Level;
}

/** Parsed and sanitized content, cached per event (content never changes; GC bounds the cache). */
const renderCache = new WeakMap<LogEvent, Rendered>();

export function renderContent(content: string): Rendered {
  let level: Level;
  let text = content;
  const trimmed = content.trimStart();
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
  return { text: sanitizeForTerminal(text), level };
}

function cachedRender(event: LogEvent & { kind: "line" }): Rendered {
  let r = renderCache.get(event);
  if (!r) {
    r = renderContent(event.content);
    renderCache.set(event, r);
  }
  return r;
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
  if (f.include && !f.include.test(event.content)) return false;
  if (f.exclude?.test(event.content)) return false;
  return true;
}

function levelColour(level: Level): Segment["colour"] {
  return level === "error"
    ? "red"
    : level === "warn"
      ? "yellow"
      : level === "debug"
        ? "gray"
        : undefined;
}

/** Splits text into segments with search matches highlighted. */
function highlight(text: string, search: RegExp | undefined, base: Segment): Segment[] {
  if (!search) return [{ ...base, text }];
  const global = new RegExp(search.source, "gi");
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(global)) {
    if (m[0].length === 0) break;
    const at = m.index ?? 0;
    if (at > last) out.push({ ...base, text: text.slice(last, at) });
    out.push({ ...base, text: m[0], inverse: true });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ ...base, text: text.slice(last) });
  return out.length > 0 ? out : [{ ...base, text }];
}

/** Cuts segments into lines of at most `width` characters (code points). */
function layout(segments: Segment[], width: number, wrap: boolean): Segment[][] {
  const lines: Segment[][] = [[]];
  let used = 0;
  for (const seg of segments) {
    let chars = Array.from(seg.text);
    while (chars.length > 0) {
      const room = width - used;
      if (room <= 0) {
        if (!wrap) return [appendEllipsis(lines[0] as Segment[], width)];
        lines.push([]);
        used = 0;
        continue;
      }
      const take = chars.slice(0, room);
      (lines[lines.length - 1] as Segment[]).push({ ...seg, text: take.join("") });
      used += take.length;
      chars = chars.slice(room);
    }
  }
  return lines;
}

function appendEllipsis(line: Segment[], width: number): Segment[] {
  // Replace the last character with an ellipsis to show the line was cut.
  const out = line.map((s) => ({ ...s }));
  let total = out.reduce((n, s) => n + Array.from(s.text).length, 0);
  while (total >= width && out.length > 0) {
    const last = out[out.length - 1] as Segment;
    const chars = Array.from(last.text);
    chars.pop();
    total -= 1;
    if (chars.length === 0) out.pop();
    else last.text = chars.join("");
  }
  out.push({ text: "…", dim: true });
  return out;
}

export function formatRow(
  event: LogEvent,
  state: Pick<UiState, "timestamps" | "wrap">,
  filters: Filters,
  width: number,
): Segment[][] {
  if (event.kind === "gap") {
    const text = `── gap: ${event.reason} (${formatMsRfc3339(event.from, false)} → ${formatMsRfc3339(event.to, false)}) ──`;
    return layout([{ text, colour: "yellow", dim: true }], width, state.wrap);
  }
  const rendered = cachedRender(event);
  const segments: Segment[] = [];
  if (state.timestamps) {
    segments.push({
      text: `${event.ts ? formatRfc3339(event.ts, false).slice(11, 29) : "-".padEnd(18)} `,
      dim: true,
    });
  }
  const n = replicaNumber(event.replicaLabel);
  segments.push({
    text: `[${n ?? sanitizeForTerminal(event.replicaLabel)}] `,
    colour: replicaColour(event.replicaLabel),
    bold: true,
  });
  segments.push(
    ...highlight(rendered.text, filters.search, { text: "", colour: levelColour(rendered.level) }),
  );
  if (event.late) segments.push({ text: " (late)", dim: true });
  return layout(segments, Math.max(10, width), state.wrap);
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
    const laid = formatRow(row.event, state, filters, width);
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
      for (const [n, seg] of formatRow(row.event, state, filters, width).entries()) {
        if (lines.length < height) lines.push({ key: `${row.id}:${n}`, segments: seg });
      }
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
    if (row.event.kind === "line" && filters.search.test(row.event.content))
      candidates.push(offset);
    offset += 1;
    if (direction === 1 && offset > state.scroll) break;
  }
  if (direction === -1) return candidates.find((k) => k > state.scroll);
  const newer = candidates.filter((k) => k < state.scroll);
  return newer.length > 0 ? Math.max(...newer) : undefined;
}
