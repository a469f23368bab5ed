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

/** Statuses that end an activity without doing it. */
const FAILED_STATUSES = new Set(["ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_REJECTED"]);

/**
 * The level an event counts as for the level filter (`L`): an activity failing or rejected is an
 * error; a rejecting vote, and a deployment with fewer ready replicas than desired, a warning;
 * every other event is info.
 */
export function eventLevel(event: PaneEvent): "info" | "warn" | "error" {
  const f = event.fields;
  if (event.kind === "status" && FAILED_STATUSES.has(f.status ?? "")) return "error";
  if (event.kind === "vote" && f.selection === "VOTE_SELECTION_REJECTED") return "warn";
  if (event.kind === "deployment" && f.ready !== undefined && f.desired !== undefined) {
    if (Number(f.ready) < Number(f.desired)) return "warn";
  }
  return "info";
}
