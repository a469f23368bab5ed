/**
 * The `?` help: every binding of the table by where it applies, then what the screen's marks
 * mean; descriptions wrapped to the help's width, and `/` in the help finds a key or a word.
 */
import {
  lit,
  padEnd,
  type Safe,
  safe,
  safeBounded,
  sliceSafe,
  widthOf,
} from "../../text/safe-text.js";
import { rowStarts, rowText } from "../../text/wrap.js";
import type { Segment } from "../rows/segment.js";
import { BINDINGS, SCOPE_TITLES, type Scope } from "./key-bindings.js";

const ORDER: readonly Scope[] = [
  "anywhere",
  "dashboard",
  "logs",
  "lists",
  "overlay",
  "input",
  "vote",
  "picker",
];

export const LEGEND: readonly (readonly [string, string])[] = [
  ["● live", "the log follower's connection: live, retrying n, error"],
  ["⏸ paused", "the view stays put; new lines are counted, Space follows"],
  ["▸, double border", "the focused pane"],
  ["[2]", "replica 2 of the deployment (1-9 hides or shows it)"],
  ["[2]↪", "a wrapped line going on"],
  ["[2]>", "the line cursor (paused): Enter, m, c act on its line"],
  ["[2]*", "a marked line (m; u and U go between marks)"],
  ["level ≥ warn", "status: the minimum level (L); lines with no level count as info"],
  ["◆ events", "status: the side panes' events are shown among the lines (I hides them)"],
  ["search /x/ 3/45", "status: the cursor is on the 3rd of 45 matches, oldest first"],
  ["(late)", "a line that came after newer ones"],
  ["── gap ──", "a stretch whose lines could not all be fetched"],
  ["── replica … ──", "a replica joined, stopped sending, came back, or the count changed"],
  [
    "◆ ◇ ✓ ✉ ◎ ▣",
    "events among the lines (I): activity created, status changed, vote, email event, Solana transfer, deployment health",
  ],
  [
    "[1]▂▅!█",
    "lines per 10 s of each replica (the height); ! where its share of errors rose above twice its usual (after 5 full intervals); dim: stopped; i lists counts",
  ],
  [
    "H · ░ ▒ ▓ █",
    "a replica's errors against its median per bucket: none, up to it, 2×, more, a rise",
  ],
  [
    "! a rise",
    "the first 20 s (longer past 2 h of buffer) with 3× the median errors and at least 5",
  ],
  ["CONS FAIL PEND", "activity: consensus needed, failed, pending"],
  ["NEW AUTH DONE REJ", "activity: created, needs authenticators, completed, rejected"],
  ["votes", "votes cast on the activity so far"],
  ["id 418b4e9d", "activity: the shortest start of its id no other row shares (8 or more)"],
  [
    "gone: activity …",
    "the selected row left the list (or v hides it): Enter, A, R act on nothing",
  ],
  ["outcome", "an email's latest event; below it, each event with its time after the first"],
  ["conf, final", "a Solana transaction confirmed, finalized"],
  ["●, ○", "picker: debug mode (its logs can be read), not (why is shown)"],
  ["↩ shown now", "picker over the dashboard: what it shows; Enter returns to it as it is"],
];

const KEY_COLUMN = 18;

/** One row of the help: a key (or a mark) and what it does (or means), under a heading. */
interface HelpEntry {
  heading: string;
  label: string;
  /** Key names as the table has them; none for a mark. */
  keys: readonly string[];
  does: string;
}

/** Every binding by where it applies, then the marks: what the help lists, in its order. */
function entries(): HelpEntry[] {
  const out: HelpEntry[] = [];
  for (const scope of ORDER) {
    for (const b of BINDINGS.filter((x) => x.scope === scope)) {
      out.push({ heading: SCOPE_TITLES[scope], label: b.label, keys: b.keys, does: b.does });
    }
  }
  for (const [mark, means] of LEGEND) {
    out.push({ heading: MARKS_HEADING, label: mark, keys: [], does: means });
  }
  return out;
}

const MARKS_HEADING = "what the marks mean";

/**
 * Whether an entry is what `/` in the help looks for: a key as the table names it or as the help
 * shows it (`o`, `/`, `Enter`, `Ctrl-W`; exact, so `n` is not `N`), a mark holding the text (one
 * letter or digit: as a word of its own), or, for two characters or more, a word of its
 * description (any case).
 */
export function helpMatches(entry: HelpEntry, find: string): boolean {
  const q = find.trim();
  if (q === "") return true;
  const lower = q.toLowerCase();
  const labels = entry.label.split(", ");
  if (entry.keys.includes(q) || labels.includes(q)) return true;
  if (q.length < 2) {
    // One character: a mark holding it as a sign (`!`, `*`, `>`), or as a word of its own.
    if (entry.keys.length > 0) return false;
    return /[\p{L}\p{N}]/u.test(q)
      ? entry.label.split(/[\s,]+/).includes(q)
      : entry.label.includes(q);
  }
  return (
    labels.some((l) => l.toLowerCase() === lower) ||
    entry.label.toLowerCase().includes(lower) ||
    entry.does.toLowerCase().includes(lower)
  );
}

/** `text` cut into rows of at most `width` cells, at spaces where it can be. */
export function wrapWords(text: Safe, width: number): Safe[] {
  if (!Number.isFinite(width) || widthOf(text) <= width) return [text];
  const w = Math.max(8, Math.floor(width));
  const rows: Safe[] = [];
  let row = lit``;
  const words: Safe[] = [];
  for (let from = 0; from <= text.length; ) {
    const space = text.indexOf(" ", from);
    const to = space < 0 ? text.length : space;
    words.push(sliceSafe(text, from, to));
    from = to + 1;
  }
  for (const word of words) {
    const joined = widthOf(row) === 0 ? word : lit`${row} ${word}`;
    if (widthOf(joined) <= w) {
      row = joined;
      continue;
    }
    if (widthOf(row) > 0) rows.push(row);
    // A word longer than a row is cut where it must be.
    const starts = rowStarts(word, w);
    for (let i = 0; i < starts.length - 1; i++) rows.push(rowText(word, starts, i));
    row = rowText(word, starts, starts.length - 1);
  }
  if (widthOf(row) > 0 || rows.length === 0) rows.push(row);
  return rows;
}

/**
 * The help's lines for an overlay `width` cells wide inside (unbounded: one line per entry),
 * headings bold; a description longer than its column goes on under itself. With `find`, only
 * the entries it finds, under their headings, or one line saying nothing matched.
 */
export function helpRows(width = Number.POSITIVE_INFINITY, find = ""): Segment[][] {
  const rows: Segment[][] = [];
  const shown = entries().filter((e) => helpMatches(e, find));
  if (shown.length === 0) {
    return [
      [
        {
          text: lit`nothing in the help matches "${safeBounded(find.trim(), 200)}": / finds another, Esc shows it all`,
          dim: true,
        },
      ],
    ];
  }
  const describe = Math.max(8, width - KEY_COLUMN);
  let heading: string | undefined;
  for (const e of shown) {
    if (e.heading !== heading) {
      // A space, not nothing: an empty row would take no height, and the count would not add up.
      if (rows.length > 0) rows.push([{ text: lit` ` }]);
      rows.push([{ text: safe(e.heading), bold: true, colour: "cyan" }]);
      heading = e.heading;
    }
    wrapWords(safe(e.does), describe).forEach((part, i) => {
      const key = i === 0 ? padEnd(safe(e.label), KEY_COLUMN) : padEnd(lit``, KEY_COLUMN);
      rows.push([{ text: key, bold: true }, { text: part }]);
    });
  }
  return rows;
}

export const HELP_TITLE: Safe = lit`tvcwatch keys`;
