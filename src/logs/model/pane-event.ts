/**
 * A side pane's record as an event on the log's clock: a kind, a time (the server's, epoch ms),
 * a one-line text and the ids it names. src/feeds/pane-events.ts reads them from the API's
 * records, for the dashboard's log and `tail` to show among the lines.
 */

export const PANE_EVENT_KINDS = [
  "activity",
  "status",
  "vote",
  "email",
  "solana",
  "deployment",
] as const;
export type PaneEventKind = (typeof PANE_EVENT_KINDS)[number];

/** Each kind's glyph among the log's lines (one column in every terminal). */
export const EVENT_GLYPHS: Readonly<Record<PaneEventKind, string>> = {
  activity: "◆",
  status: "◇",
  vote: "✓",
  email: "✉",
  solana: "◎",
  deployment: "▣",
};

export interface PaneEvent {
  kind: PaneEventKind;
  /** Server clock, epoch ms. */
  at: number;
  /** What tells it from every other event (never shown). */
  key: string;
  /** One line: what happened (the server's words, not sanitized). */
  text: string;
  /** The ids and values it names, for records (`tail -o json`) and a detail view. */
  fields: Readonly<Record<string, string>>;
}
