/**
 * JSON for a terminal or a file a person may `cat`. `JSON.stringify` escapes C0 controls but
 * writes DEL, C1 controls (U+0080-U+009F; U+009B acts as CSI on many terminals), bidi controls
 * and zero-width characters raw. Those are written as `\uXXXX` here: still valid JSON that parses
 * to exactly the same value, but inert on a terminal.
 */

/** What JSON.stringify leaves raw but a terminal could act on (the sanitizer's set beyond C0). */
const RAW_IN_JSON =
  /[\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const RAW_IN_JSON_GLOBAL = new RegExp(RAW_IN_JSON.source, "g");

function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Makes JSON text (as JSON.stringify wrote it) safe to show: see the module comment. */
export function escapeJsonForTerminal(json: string): string {
  return RAW_IN_JSON.test(json) ? json.replace(RAW_IN_JSON_GLOBAL, unicodeEscape) : json;
}

/** JSON.stringify, safe for a terminal. */
export function stringifyForTerminal(value: unknown, space?: number): string {
  return escapeJsonForTerminal(JSON.stringify(value, null, space) ?? "null");
}
