/**
 * The log pane's view-model: from the store and the UI state, exactly the rows that fit the pane,
 * with the cursor's line and marked lines flagged in the gutter. React sees only these rows,
 * never the buffer.
 */

import type { LogLine } from "../../logs/model/log-line.js";
import type { LogRows, StoredRow } from "../../logs/model/log-store.js";
import type { WorkBudget } from "../../logs/work-budget.js";
import { grouped } from "../../text/grouped-number.js";
import { joinSafe, lit, type Safe, safe, safeBounded } from "../../text/safe-text.js";
import type { Segment } from "../rows/segment.js";
import type { UiState } from "../state/ui-state.js";
import { columnsFor, settleColumns } from "./column-view.js";
import { formatRows, lineRowCount, type RowLook } from "./line-rows.js";
import { compileFilters, type Filters } from "./log-filters.js";
import { bottomOf, type Frame, nearestShown, shown } from "./log-frame.js";

export { MAX_RENDERED_CHARS, replicaNumber } from "./rendered-line.js";

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
  /**
   * The filters' verdicts ran out of this frame's budget before the rows filled the pane: what is
   * shown is what was judged so far, and the next slice goes on.
   */
  pending: boolean;
}

export interface LogViewOptions {
  filters?: Filters;
  /** Replica numbers seen so far, to say why a view is empty. */
  replicas?: ReadonlySet<number>;
  /** Epoch ms, for relative times. */
  now?: number;
  /** What judging rows may take in this frame (none: no limit). */
  budget?: WorkBudget | undefined;
}

/**
 * The rows that fill a pane `height` lines tall and `width` wide: up from the view's bottom
 * (the newest shown line, or where a paused view is), only as many rows as fit.
 */
export function computeLogView(
  store: LogRows,
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
    budget: options.budget,
  };
  const total = store.evicted() + store.size();
  const bottom = bottomOf(f);
  const marks = new Set(state.marks);
  const cursor = state.following ? undefined : state.cursor;
  const fieldColumns = columnsFor(state.columns);
  if (fieldColumns) settleColumns(fieldColumns, linesAbove(f, bottom.index));
  const look = (row: StoredRow): RowLook => ({
    time: state.time,
    wrap: state.wrap,
    now: options.now,
    mark: row.id === cursor ? "cursor" : marks.has(row.id) ? "mark" : undefined,
    fieldColumns,
  });
  const lines: ViewRow[] = [];
  /** Whether a line or an event is among the rows (lifecycle markers and gaps alone leave it empty). */
  let sawLine = false;
  let skip = bottom.rowsBelow;
  let index = bottom.index;
  for (
    ;
    index >= 0 && lines.length < height && !f.budget?.exhausted;
    index = nearestShown(f, index - 1, -1)
  ) {
    if (!shown(f, index)) continue;
    const row = store.at(index) as StoredRow;
    if (row.event.kind === "line" || row.event.kind === "event") sawLine = true;
    const laid = formatRows(row.event, look(row), f.filters, width, {
      from: "end",
      count: height - lines.length,
      skipEnd: skip,
    });
    const n = lineRowCount(row.event, look(row), f.filters, width);
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
      const n = lineRowCount(row.event, look(row), f.filters, width);
      const count = Math.min(below, height - lines.length);
      const more = formatRows(row.event, look(row), f.filters, width, {
        from: "end",
        count,
        skipEnd: below - count,
      });
      for (const [i, segments] of more.entries()) {
        lines.push({ key: `${row.id}:${n - below + i}`, segments });
      }
    }
    for (
      let i = nearestShown(f, bottom.index + 1, 1);
      i >= 0 && lines.length < height && !f.budget?.exhausted;
      i = nearestShown(f, i + 1, 1)
    ) {
      if (!shown(f, i)) continue;
      const next = store.at(i) as StoredRow;
      if (next.event.kind === "line" || next.event.kind === "event") sawLine = true;
      const laid = formatRows(next.event, look(next), f.filters, width, {
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
  const pending = options.budget?.exhausted === true;
  // No line shown: why, above the markers there are (the newest of them, leaving it room).
  const empty = sawLine
    ? undefined
    : pending
      ? lit`filtering ${safe(grouped(store.size() - (store.eventCount?.() ?? 0)))} lines… (keys and q answer meanwhile)`
      : emptyReason(f, options.replicas);
  if (empty && lines.length > height - EMPTY_REASON_ROWS)
    lines.splice(0, lines.length - Math.max(0, height - EMPTY_REASON_ROWS));
  return {
    rows: lines,
    newWhilePaused,
    newKept: Math.min(newWhilePaused, store.size()),
    moved: bottom.moved,
    empty,
    pending,
  };
}

/** The rows an empty view's reason may take (it wraps in a narrow pane). */
const EMPTY_REASON_ROWS = 3;

/** Why a view shows no line. */
function emptyReason(f: Frame, replicas: ReadonlySet<number> | undefined): Safe {
  const { store, state } = f;
  const narrowed =
    state.include.length > 0 ||
    state.exclude !== undefined ||
    state.where.length > 0 ||
    state.minLevel !== undefined ||
    state.onlyDeployment !== undefined ||
    state.onlyReplica !== undefined ||
    state.hiddenReplicas.length > 0;
  if (store.size() === 0 || !narrowed) return lit`waiting for log lines…`;
  const hidden = new Set(state.hiddenReplicas);
  if (replicas && replicas.size > 0 && [...replicas].every((r) => hidden.has(r))) {
    const all = [...replicas].sort((a, b) => a - b);
    return lit`all replicas hidden: press ${safe(all.join(", "))} to show them`;
  }
  const parts: Safe[] = state.include.map((i) => lit`+/${safeBounded(i, 200)}/`);
  if (state.exclude) parts.push(lit`-/${safeBounded(state.exclude, 200)}/`);
  for (const q of state.where) parts.push(lit`=[${safeBounded(q, 200)}]`);
  if (state.minLevel) parts.push(lit`level ≥ ${safe(state.minLevel)}`);
  if (parts.length > 0) {
    return lit`no line matches ${joinSafe(parts, lit` `)} (${safe(grouped(store.size() - (store.eventCount?.() ?? 0)))} lines hidden by the filters; Esc removes the last, X all)`;
  }
  if (state.onlyDeployment) {
    return lit`no line from deployment ${safeBounded(state.onlyDeployment.label, 40)} here (d shows the next, then all)`;
  }
  if (state.onlyReplica !== undefined) {
    return lit`no line from replica ${state.onlyReplica} here (o shows every replica again)`;
  }
  return lit`no line from the replicas shown (hidden: ${safe(state.hiddenReplicas.join(", "))})`;
}

/** The lines shown from `index` up, at most a pane's height of them (the columns' widths). */
function linesAbove(f: Frame, index: number): LogLine[] {
  const lines: LogLine[] = [];
  for (
    let i = index;
    i >= 0 && lines.length < f.height && !f.budget?.exhausted;
    i = nearestShown(f, i - 1, -1)
  ) {
    if (!shown(f, i)) continue;
    const event = f.store.at(i)?.event;
    if (event?.kind === "line") lines.push(event);
  }
  return lines;
}
