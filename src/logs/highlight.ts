/**
 * `tail --highlight RE`: every match of the patterns in a line's content marked (inverse video)
 * on a terminal. The matches are found in the content as received, as --grep reads it; the line
 * is then sanitized piece by piece (src/text/sanitize.ts) and the marks go between the pieces,
 * after sanitizing: a mark never cuts an escape shown as text, nor a surrogate pair, and taking
 * the marks out gives exactly the line as printed without them.
 */
import type { Pattern } from "../text/pattern.js";
import { sanitizeForTerminal, sanitizeSlice } from "../text/sanitize.js";
import { FILTERED_CHARS } from "./line-filter.js";

/** Inverse video on and off. */
export const MARK_ON = "\u001b[7m";
export const MARK_OFF = "\u001b[27m";
/** The most matches marked in one line. */
export const MAX_MARKS = 1000;

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The stretches of `text` the patterns match, in the first FILTERED_CHARS: sorted, overlapping
 * and touching ones joined, empty matches left out, never cutting a surrogate pair.
 */
export function matchRanges(text: string, patterns: readonly Pattern[]): [number, number][] {
  let limit = Math.min(text.length, FILTERED_CHARS);
  if (limit < text.length && isHigh(text.charCodeAt(limit - 1))) limit--;
  const scanned = limit < text.length ? text.slice(0, limit) : text;
  const found: [number, number][] = [];
  for (const p of patterns) {
    for (let [from, to] of p.matches(scanned, MAX_MARKS)) {
      if (from > 0 && isLow(scanned.charCodeAt(from)) && isHigh(scanned.charCodeAt(from - 1)))
        from--;
      if (to < limit && isLow(scanned.charCodeAt(to)) && isHigh(scanned.charCodeAt(to - 1))) to++;
      found.push([from, to]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const joined: [number, number][] = [];
  for (const r of found) {
    const last = joined[joined.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else if (joined.length < MAX_MARKS) joined.push([r[0], r[1]]);
  }
  return joined;
}

/** The content sanitized for a terminal, with the patterns' matches marked. */
export function highlightForTerminal(content: string, patterns: readonly Pattern[]): string {
  const ranges = patterns.length === 0 ? [] : matchRanges(content, patterns);
  if (ranges.length === 0) return sanitizeForTerminal(content);
  let out = "";
  let at = 0;
  for (const [from, to] of ranges) {
    out += `${sanitizeSlice(content, at, from)}${MARK_ON}${sanitizeSlice(content, from, to)}${MARK_OFF}`;
    at = to;
  }
  return out + sanitizeSlice(content, at, content.length);
}
