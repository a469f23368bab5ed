/**
 * A detail view laid out for a width: a label column, then each value's lines wrapped in full
 * (a fingerprint or a signature is never cut; a field that asks for it at words, as the vote's
 * confirmation wraps). Pure, so a detail's rows are testable.
 */

import { lit, padEnd, truncate, widthOf } from "../../text/safe-text.js";
import { rowStarts, rowText } from "../../text/wrap.js";
import type { Segment } from "../rows/segment.js";
import { hangingRows } from "../rows/vote-rows.js";
import type { DetailView } from "./detail-view.js";

export function detailRows(view: DetailView, width: number): Segment[][] {
  // Labels are shown whole where the width allows (up to 24 columns, a third of the width).
  const labelCap = Math.max(16, Math.min(24, Math.floor(width / 3)));
  const labelWidth = Math.min(
    labelCap,
    view.fields.reduce((w, f) => Math.max(w, widthOf(f.label)), 0),
  );
  const valueWidth = Math.max(8, width - labelWidth - 2);
  const rows: Segment[][] = [];
  for (const f of view.fields) {
    let first = true;
    for (const line of f.lines) {
      const starts = f.wrap === "words" ? [] : rowStarts(line, valueWidth);
      const parts =
        f.wrap === "words"
          ? hangingRows(line, valueWidth)
          : starts.map((_, i) => rowText(line, starts, i));
      for (const text of parts) {
        const label = first
          ? padEnd(truncate(f.label, labelWidth), labelWidth)
          : padEnd(lit``, labelWidth);
        first = false;
        rows.push([{ text: lit`${label}  `, bold: true }, { text }]);
      }
    }
  }
  return rows;
}
