/**
 * Wrapping in one pass: where each row of a text starts when it is cut into rows of at most
 * `width` cells, never inside a grapheme. Linear in the text's length (no re-slicing per row), so
 * a caller holding the offsets slices out only the rows it shows.
 */
import type { Safe } from "./safe-text.js";
import { graphemes, isPlain } from "./terminal-width.js";

/** Offsets where rows start: [0, ...]; one row for an empty text. */
export function rowStarts(text: Safe, width: number): number[] {
  const w = Math.max(2, Math.floor(width));
  const starts = [0];
  if (isPlain(text)) {
    for (let at = w; at < text.length; at += w) starts.push(at);
    return starts;
  }
  let used = 0;
  for (const g of graphemes(text)) {
    if (used + g.width > w && used > 0) {
      starts.push(g.index);
      used = 0;
    }
    used += g.width;
  }
  return starts;
}

/** Row `i` of a text cut at `starts`. */
export function rowText(text: Safe, starts: readonly number[], i: number): Safe {
  return text.slice(starts[i] ?? text.length, starts[i + 1] ?? text.length) as Safe;
}
