/**
 * The vote overlay's rows for a size: what is decided (the header: verb and type, activity id,
 * the whole fingerprint wrapped, the quorum, what an export lets out) always on screen; below
 * it the rest (status, creator, votes by name, intent, what this vote does) in a window that
 * ↑ ↓ PgUp PgDn scroll; last the question, the vote in flight or its result. When the header
 * and the question cannot both be shown the frame says so and `fits` is false: `y` votes only
 * on what is on screen. Pure, so what the overlay shows at any size is testable.
 */
import { summaryLines } from "../../activity/decode/decoded-intent.js";
import { MAX_SHOWN_VALUE } from "../../activity/intent-summary.js";
import { lit, type Safe, safe, safeBounded, sliceSafe } from "../../text/safe-text.js";
import { graphemes } from "../../text/terminal-width.js";
import { rowText } from "../../text/wrap.js";
import type { VoteUi } from "../state/vote-state.js";
import type { Segment } from "./segment.js";

/** Longest line drawn: a value as the decision shows it whole (its label and indent besides). */
const MAX_LINE = MAX_SHOWN_VALUE + 1024;

/** Where a `label   value` line's value starts, indented or not (0 when it is not such a line). */
function valueColumn(line: string): number {
  const m = /^(\s*\S+(?: \S+)*\s{2,})\S/.exec(line);
  return m?.[1] ? m[1].length : 0;
}

/**
 * Where rows of `width` start: after a space where a word fits, else anywhere (a fingerprint, a
 * key: cut as wrap.ts cuts it, never inside a grapheme). A word longer than the next rows
 * (`nextWidth`) is not moved to one: it goes on where the row ends. Widths are cells, so text
 * with wide or combining characters (an ellipsis, an accent) breaks at its words too.
 */
function wordStarts(text: Safe, width: number, nextWidth = width): number[] {
  const w = Math.max(2, Math.floor(width));
  const next = Math.max(2, Math.floor(nextWidth));
  const cells = [...graphemes(text)];
  // Each grapheme's cells, and where the word it is in ends (in cells from the text's start).
  const startCol: number[] = [];
  let col = 0;
  for (const g of cells) {
    startCol.push(col);
    col += g.width;
  }
  const wordEnd: number[] = new Array(cells.length);
  let end = col;
  for (let i = cells.length - 1; i >= 0; i--) {
    if (cells[i]?.text === " ") end = startCol[i] ?? end;
    wordEnd[i] = end;
  }
  const starts = [0];
  let rowStart = 0; // cells
  let room = w;
  let space = -1; // the grapheme after the row's last space
  for (let i = 0; i < cells.length; i++) {
    const g = cells[i] as { index: number; text: string; width: number };
    const at = startCol[i] ?? 0;
    if (at + g.width - rowStart > room && at > rowStart) {
      const after = cells[space];
      const word = (wordEnd[space] ?? 0) - (startCol[space] ?? 0);
      const breakAt = space > 0 && after && word <= next ? space : i;
      starts.push(cells[breakAt]?.index ?? g.index);
      rowStart = startCol[breakAt] ?? at;
      room = next;
      space = -1;
    }
    if (g.text === " " && i + 1 < cells.length && (startCol[i + 1] ?? 0) > rowStart) space = i + 1;
  }
  return starts;
}

/** The rows of `text` cut at `starts`, without the space each break was made at. */
function rowsAt(text: Safe, starts: readonly number[]): Safe[] {
  return starts.map((_, i) => {
    const row = rowText(text, starts, i);
    return i < starts.length - 1 && row.endsWith(" ") ? sliceSafe(row, 0, row.length - 1) : row;
  });
}

/** A line cut into rows of `width`, continuation rows indented to the value's column. */
export function hangingRows(line: Safe, width: number): Safe[] {
  const indent = Math.min(valueColumn(line), Math.floor(width / 2));
  const first = wordStarts(line, width, width - indent);
  if (first.length <= 1 || indent === 0) return rowsAt(line, first);
  const rest = sliceSafe(line, first[1] ?? line.length);
  const pad = safe(" ".repeat(indent));
  const head = rowsAt(line, first)[0] ?? line;
  return [head, ...rowsAt(rest, wordStarts(rest, width - indent)).map((r) => lit`${pad}${r}`)];
}

const wrapped = (lines: readonly string[], width: number, style: Omit<Segment, "text"> = {}) =>
  lines.flatMap((l) =>
    hangingRows(safeBounded(l, MAX_LINE), width).map((text): Segment[] => [{ text, ...style }]),
  );

/** The last rows: the question and its keys, the vote in flight, or the result. */
function footerRows(vote: VoteUi, width: number): Segment[][] {
  if (vote.phase === "done") {
    return [
      ...wrapped([vote.outcome], width, { colour: vote.ok ? "green" : "red", bold: true }),
      [{ text: lit`any key closes`, dim: true }],
    ];
  }
  if (vote.phase === "sending") return [[{ text: lit`sending the vote…`, colour: "yellow" }]];
  const verb = vote.action === "approve" ? lit`approves` : lit`rejects`;
  return [
    [
      { text: safe(vote.question), bold: true },
      { text: lit`  y ${verb} · n or Esc cancels`, colour: "yellow" },
    ],
  ];
}

export interface VoteFrame {
  /** The rows to draw, at most the room given. */
  rows: Segment[][];
  /** How far the details can scroll at this size. */
  maxScroll: number;
  /** Rows of details on screen (a page). */
  page: number;
  /** Whether the whole header and the question are on screen: `y` sends the vote only then. */
  fits: boolean;
}

/** The overlay's rows in `width` columns and `room` rows. */
export function voteFrame(vote: VoteUi, width: number, room: number): VoteFrame {
  // What it signs in one line, its addresses whole on lines of their own when it does not fit.
  const header = wrapped(
    [...vote.header, ...(vote.summary ? summaryLines(vote.summary, width) : [])],
    width,
  );
  const footer = footerRows(vote, width);
  const details = wrapped(vote.details, width);
  const detailRoom = room - header.length - footer.length - 1;
  if (detailRoom < 0) {
    const warning = wrapped(
      [
        "The terminal is too small to show what is decided: make it larger (y sends nothing until it fits; n or Esc cancels).",
      ],
      width,
      { colour: "red", bold: true },
    );
    const top = [...warning, ...header].slice(0, Math.max(0, room - footer.length));
    return { rows: [...top, ...footer].slice(0, room), maxScroll: 0, page: 1, fits: false };
  }
  const maxScroll = Math.max(0, details.length - detailRoom);
  const first = Math.min(vote.scroll, maxScroll);
  const shown = details.slice(first, first + detailRoom);
  const rule: Segment[] =
    maxScroll > 0
      ? [
          {
            text: lit`── ↑ ↓ PgUp PgDn: ${first + 1}-${first + shown.length} of ${details.length} rows below ──`,
            dim: true,
          },
        ]
      : [{ text: lit`──`, dim: true }];
  return {
    rows: [...header, rule, ...shown, ...footer],
    maxScroll,
    page: Math.max(1, detailRoom),
    fits: true,
  };
}
