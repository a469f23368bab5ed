/** The `?` help: every binding of the table by where it applies, then what the screen's marks mean. */
import { lit, padEnd, type Safe, safe } from "../text/safe-text.js";
import { BINDINGS, SCOPE_TITLES, type Scope } from "./key-bindings.js";
import type { Segment } from "./segment.js";

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
  ["search /x/ 3/45", "status: the cursor is on the 3rd of 45 matches, oldest first"],
  ["(late)", "a line that came after newer ones"],
  ["── gap ──", "a stretch whose lines could not all be fetched"],
  ["── replica … ──", "a replica joined, stopped sending, came back, or the count changed"],
  [
    "[1]▂▅!█",
    "lines per 10 s of each replica (the height); ! where its share of errors rose above twice its usual; dim: stopped; i lists counts",
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

/** The help's lines, headings bold. */
export function helpRows(): Segment[][] {
  const rows: Segment[][] = [];
  for (const scope of ORDER) {
    const bindings = BINDINGS.filter((b) => b.scope === scope);
    if (bindings.length === 0) continue;
    if (rows.length > 0) rows.push([{ text: lit`` }]);
    rows.push([{ text: lit`${safe(SCOPE_TITLES[scope])}`, bold: true, colour: "cyan" }]);
    for (const b of bindings) {
      rows.push([{ text: padEnd(safe(b.label), KEY_COLUMN), bold: true }, { text: safe(b.does) }]);
    }
  }
  rows.push([{ text: lit`` }], [{ text: lit`what the marks mean`, bold: true, colour: "cyan" }]);
  for (const [mark, means] of LEGEND) {
    rows.push([{ text: padEnd(safe(mark), KEY_COLUMN), bold: true }, { text: safe(means) }]);
  }
  return rows;
}

export const HELP_TITLE: Safe = lit`tvcwatch keys`;
