/**
 * What a detail view shows (an activity, an email message, a Solana transfer): labelled fields,
 * each value as sanitized lines that the view wraps in full, never cuts.
 */
import { boundedPrefix, lit, type Safe, safeBounded } from "../../text/safe-text.js";
import { stringifyForTerminal } from "../../text/terminal-json.js";

export interface DetailField {
  label: Safe;
  /** The value's lines (a JSON value pretty-printed has several). */
  lines: Safe[];
  /**
   * `words`: rows break after a space, each row going on under its line's value (as the vote's
   * confirmation wraps: an address is not cut across rows where it fits one). By default a row
   * is cut at the width.
   */
  wrap?: "words" | undefined;
}

export interface DetailView {
  title: Safe;
  fields: DetailField[];
}

/** A field value's longest rendered form; longer values end with a count of what is hidden. */
export const MAX_FIELD_CHARS = 16 * 1024;
/** The most of one JSON value (an intent, a result) shown. */
export const MAX_JSON_CHARS = 256 * 1024;

/** A field with a one-line (untrusted) value. */
export function field(label: Safe, value: string | number | boolean | undefined): DetailField {
  const text = value === undefined ? "—" : String(value);
  return { label, lines: [safeBounded(text, MAX_FIELD_CHARS)] };
}

/** A field holding a JSON value, pretty-printed. */
export function jsonField(label: Safe, value: unknown): DetailField {
  const { text, hidden } = boundedPrefix(stringifyForTerminal(value, 2), MAX_JSON_CHARS);
  const lines = text.split("\n").map((l) => safeBounded(l, MAX_FIELD_CHARS));
  if (hidden > 0) lines.push(lit`… (${hidden} more characters of JSON)`);
  return { label, lines };
}
