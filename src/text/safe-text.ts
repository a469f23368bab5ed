/**
 * `Safe`: text that may go to the terminal. The only ways to make one are `safe()`, which passes
 * untrusted text through the one sanitizer (escapes, controls, bidi, zero-width) and the grapheme
 * normalizer (widths as terminals draw them), and `lit`, a template tag for the program's own
 * literals whose interpolations must themselves be Safe (or numbers). The dashboard renders
 * nothing else: its text component takes only Safe strings, so a raw field from a response does
 * not type-check on its way to the screen.
 */
import { boundedPrefix } from "./bounded-prefix.js";
import { grouped } from "./grouped-number.js";
import { sanitizeForTerminal } from "./sanitize.js";
import { displayWidth, graphemes, isPlain, normalizeText } from "./terminal-width.js";

declare const SAFE: unique symbol;
export type Safe = string & { readonly [SAFE]: true };

/** Untrusted text made safe to draw, tabs expanded from column 0. */
export function safe(untrusted: string): Safe {
  return normalizeText(sanitizeForTerminal(untrusted)).text as Safe;
}

/** The program's own text with Safe (or numeric) values in it. */
export function lit(strings: TemplateStringsArray, ...values: readonly (Safe | number)[]): Safe {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += String(values[i]) + (strings[i + 1] ?? "");
  return out as Safe;
}

export const EMPTY = "" as Safe;

export { boundedPrefix } from "./bounded-prefix.js";

export function widthOf(text: Safe): number {
  return displayWidth(text);
}

export function joinSafe(parts: readonly Safe[], separator: Safe): Safe {
  return parts.join(separator) as Safe;
}

/** At most `width` cells of the text, from the start. */
export function takeCells(text: Safe, width: number): { text: Safe; width: number; cut: boolean } {
  if (width <= 0) return { text: EMPTY, width: 0, cut: text.length > 0 };
  if (isPlain(text)) {
    return text.length <= width
      ? { text, width: text.length, cut: false }
      : { text: text.slice(0, width) as Safe, width, cut: true };
  }
  let used = 0;
  for (const g of graphemes(text)) {
    if (used + g.width > width)
      return { text: text.slice(0, g.index) as Safe, width: used, cut: true };
    used += g.width;
  }
  return { text, width: used, cut: false };
}

/** The text cut to `width` cells, ending in `…` when it was longer. */
export function truncate(text: Safe, width: number): Safe {
  const whole = takeCells(text, width);
  if (!whole.cut) return whole.text;
  if (width <= 0) return EMPTY;
  return `${takeCells(text, width - 1).text}…` as Safe;
}

/** The text cut or padded with spaces to exactly `width` cells. */
export function padEnd(text: Safe, width: number): Safe {
  const t = truncate(text, width);
  const w = widthOf(t);
  return (w < width ? t + " ".repeat(width - w) : t) as Safe;
}

/** The text cut or padded on the left to exactly `width` cells. */
export function padStart(text: Safe, width: number): Safe {
  const t = truncate(text, width);
  const w = widthOf(t);
  return (w < width ? " ".repeat(width - w) + t : t) as Safe;
}

/**
 * Untrusted text made safe, at most `maxChars` of it: the rest is counted, not rendered, so a
 * megabyte field costs no more than a short one.
 */
export function safeBounded(untrusted: string, maxChars: number): Safe {
  const { text, hidden } = boundedPrefix(untrusted, maxChars);
  const shown = safe(text);
  return hidden === 0 ? shown : (`${shown}… (${grouped(hidden)} more characters)` as Safe);
}

/** text[from, to): safe when cut at grapheme boundaries, as the layout code cuts it. */
export function sliceSafe(text: Safe, from: number, to?: number): Safe {
  return text.slice(from, to) as Safe;
}

/** The end of the text in at most `width` cells, starting with `…` when cut (a prompt's cursor end). */
export function truncateStart(text: Safe, width: number): Safe {
  if (widthOf(text) <= width) return text;
  if (width <= 0) return EMPTY;
  const parts = Array.from(graphemes(text));
  let used = 1;
  let start = parts.length;
  while (start > 0 && used + (parts[start - 1]?.width ?? 0) <= width) {
    start -= 1;
    used += parts[start]?.width ?? 0;
  }
  return `…${text.slice(parts[start]?.index ?? text.length)}` as Safe;
}
