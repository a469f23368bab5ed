/**
 * The vote overlay's rows for a width: the decision's lines wrapped with a hanging indent under
 * their value (the fingerprint is wrapped whole, never cut), then the question, the vote in
 * flight or its result. Pure, so what the overlay shows at any width is testable.
 */
import { lit, type Safe, safe, sliceSafe } from "../text/safe-text.js";
import { rowStarts, rowText } from "../text/wrap.js";
import type { Segment } from "./segment.js";
import type { VoteUi } from "./vote-state.js";

/** Where a `  label   value` line's value starts (0 when it is not such a line). */
function valueColumn(line: string): number {
  const m = /^(\s+\S+(?: \S+)*\s{2,})\S/.exec(line);
  return m?.[1] ? m[1].length : 0;
}

/** A line cut into rows of `width`, continuation rows indented to the value's column. */
export function hangingRows(line: Safe, width: number): Safe[] {
  const indent = Math.min(valueColumn(line), Math.floor(width / 2));
  const first = rowStarts(line, width);
  if (first.length <= 1 || indent === 0) return first.map((_, i) => rowText(line, first, i));
  const head = rowText(line, first, 0);
  const rest = sliceSafe(line, head.length);
  const starts = rowStarts(rest, width - indent);
  const pad = safe(" ".repeat(indent));
  return [head, ...starts.map((_, i) => lit`${pad}${rowText(rest, starts, i)}`)];
}

export function voteRows(vote: VoteUi, width: number): Segment[][] {
  const rows: Segment[][] = vote.lines.flatMap((l) =>
    hangingRows(safe(l), width).map((text) => [{ text }]),
  );
  rows.push([{ text: lit` ` }]);
  const verb = vote.action === "approve" ? lit`approves` : lit`rejects`;
  if (vote.phase === "done") {
    for (const text of hangingRows(safe(vote.outcome), width))
      rows.push([{ text, colour: vote.ok ? "green" : "red", bold: true }]);
    rows.push([{ text: lit`any key closes`, dim: true }]);
  } else if (vote.phase === "confirm") {
    rows.push([
      { text: safe(vote.question), bold: true },
      { text: lit`  y ${verb} · any other key cancels`, colour: "yellow" },
    ]);
  } else {
    rows.push([{ text: lit`sending the vote…`, colour: "yellow" }]);
  }
  return rows;
}
