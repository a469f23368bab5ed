/**
 * The log pane's columns (`|`): one layout (src/logs/formats/field-columns.ts) per list of fields
 * chosen, kept while that list is, so widths settle as lines are shown and only grow. Before a
 * frame's rows are laid out, the widths are settled over the lines the pane shows (at most its
 * height), so the rows of a frame line up.
 */
import { FieldColumns } from "../../logs/formats/field-columns.js";
import type { LogLine } from "../../logs/model/log-line.js";

const layouts = new WeakMap<readonly string[], FieldColumns>();

/** The layout of the fields chosen (undefined: lines shown as they are). */
export function columnsFor(fields: readonly string[] | undefined): FieldColumns | undefined {
  if (!fields) return undefined;
  let columns = layouts.get(fields);
  if (!columns) {
    // Times as the pane shows them: in the local zone.
    columns = new FieldColumns(fields, { utc: false });
    layouts.set(fields, columns);
  }
  return columns;
}

/** Settles the widths over the lines about to be shown. */
export function settleColumns(columns: FieldColumns, lines: readonly LogLine[]): void {
  columns.measure(lines.map((line) => ({ line })));
}
