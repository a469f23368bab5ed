/**
 * The log as one view sees it: the store, the UI state, the filters and the pane's size; and
 * the questions both the view and the navigator ask of it (which lines are shown, how many rows
 * a line takes, where the view's bottom is).
 */

import type { LogRows, StoredRow } from "../../logs/model/log-store.js";
import type { WorkBudget } from "../../logs/work-budget.js";
import type { LogAnchor, UiState } from "../state/ui-state.js";
import { columnsFor } from "./column-view.js";
import { lineRowCount } from "./line-rows.js";
import { type Filters, isShown, skipHidden } from "./log-filters.js";

export interface Frame {
  store: LogRows;
  state: UiState;
  filters: Filters;
  width: number;
  height: number;
  /** What judging rows not judged before may take (none: no limit); rows past it read as hidden. */
  budget?: WorkBudget | undefined;
}

export const rowsOf = (f: Frame, index: number) =>
  lineRowCount(
    (f.store.at(index) as StoredRow).event,
    f.state.columns ? { ...f.state, fieldColumns: columnsFor(f.state.columns) } : f.state,
    f.filters,
    f.width,
  );

export const shown = (f: Frame, index: number) => isShown(f.store, index, f.filters, f.budget);

/**
 * The nearest shown line at or before (`step` -1) / after (+1) `index`, or -1 (also when the
 * frame's budget ran out first: the budget says so).
 */
export function nearestShown(f: Frame, index: number, step: 1 | -1): number {
  const size = f.store.size();
  for (let i = skipHidden(f.store, index, step, f.filters); i >= 0 && i < size; ) {
    if (shown(f, i)) return i;
    if (f.budget?.exhausted) return -1;
    i = skipHidden(f.store, i + step, step, f.filters);
  }
  return -1;
}

/** The anchor on line `index` with `rowsBelow` of its rows below the view. */
export function anchorAt(f: Frame, index: number, rowsBelow: number): LogAnchor {
  return { line: index + f.store.evicted(), rowsBelow, id: f.store.at(index)?.id };
}

/**
 * The store index of an anchor's line: where its id is now when rows were put before it since
 * (the index it was placed at holds another line), else by its absolute index.
 */
function anchorIndex(store: Frame["store"], anchor: LogAnchor): number {
  const index = anchor.line - store.evicted();
  if (index < 0 || anchor.id === undefined || store.at(index)?.id === anchor.id) return index;
  const moved = store.indexOfId(anchor.id);
  return moved < 0 ? index : moved;
}

/** The place whose view is the oldest screenful of shown lines. */
export function oldestScreen(f: Frame): LogAnchor | undefined {
  let rows = 0;
  let last = -1;
  for (let i = 0; i < f.store.size() && !f.budget?.exhausted; i++) {
    if (!shown(f, i)) continue;
    last = i;
    rows += rowsOf(f, i);
    if (rows >= f.height) return anchorAt(f, i, rows - f.height);
  }
  return last < 0 ? undefined : anchorAt(f, last, 0);
}

/** Where the view is now: the store index of its bottom line and the rows of it below the view. */
export function bottomOf(f: Frame): { index: number; rowsBelow: number; moved: boolean } {
  const { state, store } = f;
  if (state.following || !state.anchor) {
    return { index: nearestShown(f, store.size() - 1, -1), rowsBelow: 0, moved: false };
  }
  const index = anchorIndex(store, state.anchor);
  if (index < 0) {
    const oldest = oldestScreen(f);
    return oldest
      ? { index: oldest.line - store.evicted(), rowsBelow: oldest.rowsBelow, moved: true }
      : { index: -1, rowsBelow: 0, moved: true };
  }
  const at = nearestShown(f, Math.min(index, store.size() - 1), -1);
  if (at < 0 && !f.budget?.exhausted) {
    // Nothing shown at or before where the view paused (a filter set while paused near the oldest
    // line keeps only newer lines): the view starts at the first shown line after it, as less
    // goes on to the next match, instead of an empty view saying that no line matches.
    return { index: nearestShown(f, index + 1, 1), rowsBelow: 0, moved: false };
  }
  return { index: at, rowsBelow: at === index ? state.anchor.rowsBelow : 0, moved: false };
}

/** The store index of the view's top line (the first one with a row on screen), or -1. */
export function topOf(f: Frame): number {
  const bottom = bottomOf(f);
  if (bottom.index < 0) return -1;
  let rows = rowsOf(f, bottom.index) - bottom.rowsBelow;
  let top = bottom.index;
  for (let i = nearestShown(f, top - 1, -1); i >= 0 && rows < f.height; ) {
    top = i;
    rows += rowsOf(f, i);
    i = nearestShown(f, i - 1, -1);
  }
  return top;
}
