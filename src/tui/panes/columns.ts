/**
 * Table columns for a pane's width: each column has forms from widest to narrowest (0 = left
 * out) and the pane says in which order to give way, so a narrow pane drops or shortens whole
 * columns instead of cutting every row mid-word. One column is flexible and takes what is left.
 * Every row of a pane uses the same widths, so columns line up at every width.
 */
import { lit, padEnd, padStart, type Safe, truncate, widthOf } from "../../text/safe-text.js";

export interface Column<Id extends string> {
  id: Id;
  /** Widths from widest to narrowest; a last 0 means the column may be left out. */
  forms: readonly number[];
  align?: "left" | "right";
}

export interface ColumnPlan<Id extends string> {
  /** Width of each column shown (the flexible one included); absent when left out. */
  widths: Partial<Record<Id, number>>;
  /** Which form of each column is used (0 = widest). */
  form: Partial<Record<Id, number>>;
}

/**
 * Fits `columns` (one space between them) and the `flex` column (at least `flexMin` wide) into
 * `width`, giving way in `order`: each entry moves that column to its next narrower form.
 */
export function planColumns<Id extends string>(
  columns: readonly Column<Id>[],
  flex: Id,
  flexMin: number,
  width: number,
  order: readonly Id[],
): ColumnPlan<Id> {
  const form = Object.fromEntries(columns.map((c) => [c.id, 0])) as Record<Id, number>;
  const formWidth = (c: Column<Id>) => c.forms[form[c.id]] ?? 0;
  const fixed = () =>
    columns.reduce((n, c) => {
      const w = formWidth(c);
      return w === 0 ? n : n + w + 1;
    }, 0);
  for (const id of order) {
    if (fixed() + flexMin <= width) break;
    const c = columns.find((x) => x.id === id);
    if (c && form[id] < c.forms.length - 1) form[id] += 1;
  }
  const widths: Partial<Record<Id, number>> = {};
  for (const c of columns) if (formWidth(c) > 0) widths[c.id] = formWidth(c);
  widths[flex] = Math.max(1, width - fixed());
  return { widths, form };
}

/** One cell: the text cut or padded to the column's width. */
export function cell(text: Safe, width: number, align: "left" | "right" = "left"): Safe {
  return align === "right" ? padStart(truncate(text, width), width) : padEnd(text, width);
}

/**
 * Items (already in priority order) joined by ` · ` within `width`; those that do not fit are
 * counted at the end (`+3 more`).
 */
export function fitItems(
  items: readonly Safe[],
  width: number,
): { shown: Safe[]; more: Safe | undefined } {
  const widths = items.map((item) => widthOf(item));
  const prefix = (k: number) => widths.slice(0, k).reduce((n, w, i) => n + w + (i > 0 ? 3 : 0), 0);
  if (prefix(items.length) <= width) return { shown: [...items], more: undefined };
  for (let k = items.length - 1; k >= 1; k--) {
    const more = lit`+${items.length - k} more`;
    if (prefix(k) + (k > 0 ? 3 : 0) + widthOf(more) <= width) {
      return { shown: items.slice(0, k), more };
    }
  }
  // Not even one with the count: the first alone (cut at the pane's edge), the rest counted.
  return {
    shown: items.slice(0, 1),
    more: items.length > 1 ? lit`+${items.length - 1} more` : undefined,
  };
}
