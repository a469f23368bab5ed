/**
 * A list pane's selection, by identity: the selected record's key (never its row number), so
 * rows arriving above it, rows leaving, a filter toggled or a poll replacing the list leave the
 * highlight on the same record. When the record is no longer in the list shown, the selection
 * says so (`gone`) and nothing acts on the row that took its place. Pure: the key step moves it,
 * the panes draw it, the tests run it without a terminal.
 */

/** A row of a list pane as selection sees it. */
export interface ListRow {
  /** The row's identity: unique in its list, the same from one poll to the next. */
  key: string;
  /** How a notice calls the record: `activity 418b4e9d`, `the email to ops@example.com`. */
  name: string;
}

/** The selected record: its key, its name (said when it is gone) and where it was last seen. */
export interface Selected {
  key: string;
  name: string;
  /** Its row when it was selected: where ↑ ↓ start from once it is gone. */
  at: number;
}

export type Located =
  /** Nothing selected yet. */
  | { kind: "none" }
  /** The selected record, on row `index`. */
  | { kind: "on"; index: number; row: ListRow }
  /** The selected record is not in the list shown (it left, or a filter hides it). */
  | { kind: "gone"; selected: Selected };

/** Where the selection is in `rows`. */
export function locate(selected: Selected | undefined, rows: readonly ListRow[]): Located {
  if (!selected) return { kind: "none" };
  const index = rows.findIndex((r) => r.key === selected.key);
  const row = rows[index];
  return row ? { kind: "on", index, row } : { kind: "gone", selected };
}

/** The row a list's window is kept around: the selected one, or where it was. */
export function anchorRow(selected: Selected | undefined, rows: readonly ListRow[]): number {
  const at = locate(selected, rows);
  if (at.kind === "on") return at.index;
  if (at.kind === "gone") return Math.min(at.selected.at, Math.max(0, rows.length - 1));
  return 0;
}

function selectAt(rows: readonly ListRow[], index: number): Selected | undefined {
  const i = Math.max(0, Math.min(rows.length - 1, index));
  const row = rows[i];
  return row ? { key: row.key, name: row.name, at: i } : undefined;
}

/**
 * The selection moved `by` rows (↑ -1, ↓ +1, a page). From nothing, it goes to the first row;
 * from a record that is gone, ↓ goes to the row now in its place and ↑ to the one above it.
 * An empty list keeps the selection as it is.
 */
export function moveSelection(
  selected: Selected | undefined,
  rows: readonly ListRow[],
  by: number,
): Selected | undefined {
  if (rows.length === 0) return selected;
  const at = locate(selected, rows);
  if (at.kind === "none") return selectAt(rows, 0);
  if (at.kind === "on") return selectAt(rows, at.index + by);
  return selectAt(rows, by > 0 ? at.selected.at + by - 1 : at.selected.at + by);
}

/** The first row, when nothing is selected yet (a pane just focused); else the selection. */
export function selectFirst(
  selected: Selected | undefined,
  rows: readonly ListRow[],
): Selected | undefined {
  return selected ?? selectAt(rows, 0);
}

/** What Enter, A or R say instead of acting when the selection is not a row of the list shown. */
export function notSelectedText(at: Located, noun: string, doing: string): string | undefined {
  if (at.kind === "none") return `no ${noun} selected: ↑ ↓ select one`;
  if (at.kind === "gone") {
    return `${at.selected.name} is no longer in the list: nothing to ${doing}; ↑ ↓ select another`;
  }
  return undefined;
}

/** What a pane draws of its selection: the row highlighted, the row its window keeps in view, and
 * the name of a selected record no longer in the list. */
export interface PaneSelection {
  /** The highlighted row; undefined when nothing is selected or the record is gone. */
  index: number | undefined;
  /** The row the visible window is kept around. */
  anchor: number;
  /** The selected record's name when it is not in the list shown. */
  gone: string | undefined;
}

export function paneSelection(
  selected: Selected | undefined,
  rows: readonly ListRow[],
): PaneSelection {
  const at = locate(selected, rows);
  return {
    index: at.kind === "on" ? at.index : undefined,
    anchor: anchorRow(selected, rows),
    gone: at.kind === "gone" ? at.selected.name : undefined,
  };
}
