/**
 * Moving through the log, resolved against the store: scrolling, the line cursor, the next
 * search match, error, warning or mark, a time. Each move says where the paused view goes (its
 * anchor) and where the cursor is; the key step hands it to the reducer.
 */

import type { LogRows, StoredRow } from "../../logs/model/log-store.js";
import type { WorkBudget } from "../../logs/work-budget.js";
import type { LogAnchor, MatchPosition, UiState } from "../state/ui-state.js";
import { compileFilters, type Filters, matchesSearchAt } from "./log-filters.js";
import {
  anchorAt,
  bottomOf,
  type Frame,
  nearestShown,
  oldestScreen,
  rowsOf,
  shown,
  topOf,
} from "./log-frame.js";
import { renderedLine } from "./rendered-line.js";

/** Where a move puts the paused view and the cursor. */
export interface Move {
  anchor: LogAnchor;
  cursor: number | undefined;
  match?: MatchPosition | undefined;
  /** A find that wrapped: none lay that way, so it went on from the other end of the buffer. */
  wrapped?: true | undefined;
}

/** What `find` looks for: a search match, an error (or fatal) line, a warning, a marked line. */
export type Target = "match" | "error" | "warn" | "mark";

export interface LogNavigator {
  /** Lines ever appended. */
  total(): number;
  /** The id of the newest shown line: where a pause puts the cursor. */
  newestShown(state: UiState): number | undefined;
  /** `rows` screen rows up (positive, older) or down (negative); undefined when it cannot move. */
  scroll(state: UiState, rows: number): Move | undefined;
  /** The oldest screenful, the cursor on its first line. */
  oldest(state: UiState): Move | undefined;
  /** The cursor `by` shown lines down (positive, newer) or up; the view follows it. */
  moveCursor(state: UiState, by: number): Move | undefined;
  /**
   * The nearest `target` newer (+1) or older (-1) than the cursor (the newest line while
   * following), placed a third from the top with what follows it below. With `wrap`, when none
   * lies that way the find goes on from the other end of the buffer (the move says `wrapped`),
   * so it finds one whenever one is shown.
   */
  find(state: UiState, target: Target, direction: 1 | -1, wrap?: boolean): Move | undefined;
  /**
   * The line at store `index` placed a third from the top, the cursor on it; undefined when the
   * view does not show it (its replica hidden, or filtered out).
   */
  toIndex(state: UiState, index: number): Move | undefined;
  /** The first shown line stamped at or after `ms` (epoch ms), or the newest before it. */
  atTime(state: UiState, ms: number): Move | undefined;
  /** The cursor's row (paused), or undefined. */
  cursorRow(state: UiState): StoredRow | undefined;
  /** Every line the view's filters keep, oldest first (for saving). */
  shownRows(state: UiState): StoredRow[];
  /** The sort key (epoch ms) of the newest line held. */
  newestTime(): number | undefined;
  /** The id of the newest line held (shown or not): where a pause anchors the view. */
  newestId(): number | undefined;
  /** Whether the state's filters may hide lines (replicas, include, exclude, level...). */
  hides(state: UiState): boolean;
  /**
   * Whether the last move ran out of its budget before it had judged every row it needed: what
   * it found (or did not) is not the whole answer yet; the rows are judged meanwhile.
   */
  unfinished(): boolean;
}

/** The anchor that puts line `index`'s first row `offset` rows from the top of the view. */
function placeTop(f: Frame, index: number, offset: number): LogAnchor {
  let remaining = Math.max(1, f.height - offset);
  let i = index;
  for (;;) {
    const r = rowsOf(f, i);
    if (r >= remaining) return anchorAt(f, i, r - remaining);
    remaining -= r;
    const next = nearestShown(f, i + 1, 1);
    if (next < 0) return anchorAt(f, i, 0);
    i = next;
  }
}

/** The least move that shows line `index` (the view kept where it is when already on screen). */
function reveal(f: Frame, index: number): LogAnchor {
  const bottom = bottomOf(f);
  if (bottom.index < 0) return placeTop(f, index, 0);
  const top = topOf(f);
  const here = anchorAt(f, bottom.index, bottom.rowsBelow);
  const whole = index < bottom.index || bottom.rowsBelow === 0;
  if (index > top && index <= bottom.index && whole) return here;
  if (index > bottom.index || (index === bottom.index && !whole)) {
    return anchorAt(f, index, Math.max(0, rowsOf(f, index) - f.height));
  }
  return placeTop(f, index, 0);
}

const third = (f: Frame, index: number) => placeTop(f, index, Math.floor(f.height / 3));

function idAt(f: Frame, index: number): number | undefined {
  return f.store.at(index)?.id;
}

function cursorIndex(f: Frame): number {
  if (f.state.following || f.state.cursor === undefined) return -1;
  return f.store.indexOfId(f.state.cursor);
}

function isTarget(f: Frame, index: number, target: Target, marks: ReadonlySet<number>): boolean {
  const row = f.store.at(index) as StoredRow;
  const event = row.event;
  if (target === "match") return matchesSearchAt(f.store, index, f.filters, f.budget);
  if (event.kind !== "line") return false;
  switch (target) {
    case "error": {
      const level = renderedLine(event).level;
      return level === "error" || level === "fatal";
    }
    case "warn":
      return renderedLine(event).level === "warn";
    case "mark":
      return marks.has(row.id);
  }
}

/**
 * The search's matches, ascending, when the store finds them without reading every row;
 * "reading" while its search has not read every row within the frame's budget.
 */
function storeMatches(f: Frame): Uint32Array | "reading" | undefined {
  if (!f.filters.search || !f.store.matching) return undefined;
  return f.store.matching(f.filters.search, f.budget) ?? "reading";
}

/** Whether the filters hide nothing (every row shown). */
function showsAll(f: Frame): boolean {
  const x = f.filters;
  return (
    x.include.length === 0 &&
    x.exclude === undefined &&
    !x.lines.filter.where.length &&
    x.minLevel === undefined &&
    x.hidden.size === 0 &&
    x.deployment === undefined
  );
}

/** The first entry of ascending `list` above `value` (list.length when none is). */
function above(list: Uint32Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The nearest shown match newer (+1) or older (-1) than `from`, from the store's matches; -1
 * when none is (or the budget ran out first: a match past a row not judged is not the nearest).
 */
function nextMatch(f: Frame, matches: Uint32Array, from: number, direction: 1 | -1): number {
  let k = direction === 1 ? above(matches, from) : above(matches, from - 1) - 1;
  for (; k >= 0 && k < matches.length; k += direction) {
    const i = matches[k] as number;
    const yes = shown(f, i);
    if (f.budget?.exhausted) return -1;
    if (yes) return i;
  }
  return -1;
}

/** The nearest shown `target` newer (+1) or older (-1) than `from`, read row by row; or -1. */
function nextTarget(
  f: Frame,
  target: Target,
  from: number,
  direction: 1 | -1,
  marks: ReadonlySet<number>,
): number {
  for (
    let i = nearestShown(f, from + direction, direction);
    i >= 0;
    i = nearestShown(f, i + direction, direction)
  ) {
    const yes = isTarget(f, i, target, marks);
    // Past a row the budget left unjudged, a remembered one is not the nearest.
    if (f.budget?.exhausted) return -1;
    if (yes) return i;
  }
  return -1;
}

/** The place of the match at `index` among all shown matches, oldest first (unknown: undefined). */
function matchPosition(f: Frame, index: number): MatchPosition | undefined {
  const matches = storeMatches(f);
  if (matches === "reading") return undefined;
  if (matches) {
    if (showsAll(f)) return { index: above(matches, index), total: matches.length };
    let total = 0;
    let at = 0;
    for (const i of matches) {
      if (!shown(f, i)) continue;
      total += 1;
      if (i === index) at = total;
    }
    return { index: at, total };
  }
  let total = 0;
  let at = 0;
  for (let i = 0; i < f.store.size(); i++) {
    const match = shown(f, i) && matchesSearchAt(f.store, i, f.filters, f.budget);
    if (f.budget?.exhausted) return undefined;
    if (!match) continue;
    total += 1;
    if (i === index) at = total;
  }
  return { index: at, total };
}

/** The view `by` screen rows up (positive, older) or down; the cursor kept on screen. */
function scrollBy(f: Frame, by: number): Move | undefined {
  const { state, height } = f;
  const bottom = bottomOf(f);
  if (bottom.index < 0 || by === 0) return undefined;
  if (by < 0 && state.following) return undefined;
  let index = bottom.index;
  let rb = bottom.rowsBelow + by;
  let anchor: LogAnchor | undefined;
  if (by > 0) {
    while (anchor === undefined && rb >= rowsOf(f, index)) {
      rb -= rowsOf(f, index);
      const prev = nearestShown(f, index - 1, -1);
      if (prev < 0) anchor = oldestScreen(f);
      else index = prev;
    }
    if (anchor === undefined) {
      // Never further up than the oldest screenful.
      let above = rowsOf(f, index) - rb;
      for (
        let i = nearestShown(f, index - 1, -1);
        i >= 0 && above < height;
        i = nearestShown(f, i - 1, -1)
      ) {
        above += rowsOf(f, i);
      }
      if (above < height) anchor = oldestScreen(f);
    }
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
  anchor ??= anchorAt(f, index, rb);
  // The cursor stays where it was when still on screen, else goes to the edge it left by.
  const moved: Frame = { ...f, state: { ...state, following: false, anchor } };
  const newBottom = bottomOf(moved).index;
  const newTop = topOf(moved);
  const current = cursorIndex(f);
  const cursor =
    current >= newTop && current <= newBottom
      ? current
      : by > 0 && current > newBottom
        ? newBottom
        : current >= 0 && current < newTop
          ? newTop
          : newBottom;
  return { anchor, cursor: idAt(f, cursor) };
}

/**
 * The navigator over `store` for a pane `width` x `height`; `filtersOf` gives the filters of a
 * state (the view's own, compiled once, so what a key finds is what the view shows and the
 * filters' remembered verdicts serve both).
 */
export function logNavigator(
  store: LogRows,
  width: number,
  height: number,
  filtersOf: (state: UiState) => Filters = compileFilters,
  /** Each move's budget for judging rows (none: every row it needs is judged at once). */
  budgetOf?: () => WorkBudget,
): LogNavigator {
  let last: WorkBudget | undefined;
  const frame = (state: UiState): Frame => {
    last = budgetOf?.();
    return { store, state, filters: filtersOf(state), width, height, budget: last };
  };
  const at = (f: Frame, anchor: LogAnchor | undefined, index: number): Move | undefined =>
    anchor ? { anchor, cursor: idAt(f, index) } : undefined;
  return {
    total: () => store.evicted() + store.size(),
    newestShown(state) {
      const f = frame(state);
      return idAt(f, nearestShown(f, store.size() - 1, -1));
    },
    scroll(state, by) {
      return scrollBy(frame(state), by);
    },
    oldest(state) {
      const f = frame(state);
      const anchor = oldestScreen(f);
      return at(f, anchor, nearestShown(f, 0, 1));
    },
    moveCursor(state, by) {
      const f = frame(state);
      let index = cursorIndex(f);
      if (index < 0 || !shown(f, index)) index = bottomOf(f).index;
      if (index < 0) return undefined;
      const step = by > 0 ? 1 : -1;
      for (let n = 0; n < Math.abs(by); n++) {
        const next = nearestShown(f, index + step, step);
        if (next < 0) break;
        index = next;
      }
      return at(f, reveal(f, index), index);
    },
    find(state, target, direction, wrap = false) {
      const f = frame(state);
      if (target === "match" && !f.filters.search) return undefined;
      const marks = new Set(state.marks);
      const current = cursorIndex(f);
      // Following, the newest line is a candidate too (a search typed as a marker arrives).
      const bottom = bottomOf(f).index;
      const from = current >= 0 ? current : state.following && direction < 0 ? bottom + 1 : bottom;
      const matches = target === "match" ? storeMatches(f) : undefined;
      if (matches === "reading") return undefined;
      const next = (start: number) =>
        matches
          ? nextMatch(f, matches, start, direction)
          : nextTarget(f, target, start, direction, marks);
      let i = next(from);
      // None that way: on from the other end (past it, so the end's own line counts).
      const wrapped = i < 0 && wrap && !f.budget?.exhausted;
      if (wrapped) i = next(direction === 1 ? -1 : store.size());
      if (i < 0) return undefined;
      return {
        anchor: third(f, i),
        cursor: idAt(f, i),
        match: target === "match" ? matchPosition(f, i) : undefined,
        ...(wrapped ? { wrapped: true as const } : {}),
      };
    },
    toIndex(state, index) {
      const f = frame(state);
      if (index < 0 || index >= store.size() || !shown(f, index)) return undefined;
      return { anchor: third(f, index), cursor: idAt(f, index) };
    },
    atTime(state, ms) {
      const f = frame(state);
      let index = nearestShown(f, store.firstAtOrAfter(ms), 1);
      if (index < 0) index = nearestShown(f, store.size() - 1, -1);
      if (index < 0) return undefined;
      return at(f, third(f, index), index);
    },
    cursorRow(state) {
      const index = cursorIndex(frame(state));
      return index < 0 ? undefined : store.at(index);
    },
    shownRows(state) {
      // Saving writes every line the view keeps: judged whole.
      const f: Frame = { ...frame(state), budget: undefined };
      const rows: StoredRow[] = [];
      for (let i = 0; i < store.size(); i++) if (shown(f, i)) rows.push(store.at(i) as StoredRow);
      return rows;
    },
    newestTime() {
      return store.at(store.size() - 1)?.event.sortKey;
    },
    newestId() {
      return store.at(store.size() - 1)?.id;
    },
    hides(state) {
      return filtersOf(state).narrows;
    },
    unfinished() {
      return last?.exhausted === true;
    },
  };
}
