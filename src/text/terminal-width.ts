/**
 * Text as terminals draw it, one grapheme at a time.
 *
 * Ink places every grapheme in `max(1, stringWidth(g))` cells, and pads each row with spaces up to
 * the pane's border. A grapheme that the terminal draws wider than that pushes the border out (the
 * row wraps and Ink's whole frame scrolls); one drawn narrower leaves the border ragged. So text is
 * normalized to forms whose width Ink and terminals agree on, and where they cannot agree the form
 * chosen is the one a terminal can only draw narrower, never wider:
 *
 * - emoji modifiers (skin tones) are dropped from the emoji they follow (👍🏽 → 👍): tmux draws the
 *   pair 4 columns wide, Ink counts 2; a modifier on its own is shown escaped;
 * - variation selectors are dropped (❤️ → ❤, counted 2 by Ink but drawn 1 by tmux) and so is the
 *   keycap mark (1️⃣ → 1);
 * - emoji ZWJ sequences (👩‍💻) are shown as their emoji side by side (👩💻), not escaped: Ink
 *   counts the joined glyph 2 wide, but terminals without ZWJ support draw it 4 wide, and so does
 *   tmux (3.3) whenever the joiner falls on the boundary of one of its reads (about every 4 KB of
 *   output), which pushed a border out and scrolled the frame; side by side is the same width
 *   everywhere;
 * - emoji newer than Unicode 14 (🫨, drawn 0 or 1 wide by terminals whose tables predate them) and
 *   unassigned code points are shown escaped (`\u{1fae8}`), as is any grapheme Ink would count
 *   though it has no width (a soft hyphen, a tag character);
 * - a combining mark with nothing to combine with gets a space to sit on;
 * - tabs become spaces to the next 8-column stop (Ink counts a tab as 1 cell, terminals jump).
 *
 * Known limit: in scripts whose clusters hold spacing marks or conjuncts (Thai กำ, Devanagari क्ष)
 * terminals that draw code point by code point are one column wider than the cluster Ink counts.
 */
import stringWidth from "string-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Longest piece handed to Intl.Segmenter at once: its iterator is O(n) per step (V8, Node 20). */
const CHUNK = 256;

const isPrintableAscii = (c: number) => c >= 0x20 && c < 0x7f;

/** A grapheme boundary at or after `at` (and before `at` + 64 or so), for cutting into chunks. */
function boundaryNear(text: string, at: number): number {
  // Between two printable ASCII characters there is always a boundary.
  const limit = Math.min(text.length, at + 64);
  for (let i = at; i < limit; i++) {
    if (isPrintableAscii(text.charCodeAt(i - 1)) && isPrintableAscii(text.charCodeAt(i))) return i;
  }
  // Otherwise a boundary found in the middle of a window around it (clusters are short).
  const from = Math.max(0, at - 32);
  for (const { index } of segmenter.segment(text.slice(from, at + 32))) {
    if (index > 0 && from + index >= at - 16) return from + index;
  }
  return Math.min(text.length, at + 32);
}

/** The graphemes of a text with their offsets, segmented in bounded chunks (linear overall). */
function* segments(text: string): Generator<{ segment: string; index: number }> {
  if (text.length <= CHUNK * 2) {
    yield* segmenter.segment(text);
    return;
  }
  let start = 0;
  while (start < text.length) {
    const end = start + CHUNK >= text.length ? text.length : boundaryNear(text, start + CHUNK);
    for (const { segment, index } of segmenter.segment(text.slice(start, end))) {
      yield { segment, index: start + index };
    }
    start = end;
  }
}

/** Printable ASCII only: one column per character, nothing to normalize. */
const PLAIN = /^[\x20-\x7e]*$/;
const VARIATION_SELECTORS = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;
const EMOJI_MODIFIERS = /[\u{1f3fb}-\u{1f3ff}]/gu;
const KEYCAP = /\u20e3/g;
const ZWJ = "\u200d";
const STARTS_WITH_MARK = /^\p{M}/u;
const UNASSIGNED = /\p{Cn}/u;

/**
 * Symbols and Pictographs Extended-A (U+1FA70-U+1FAFF) as of Unicode 14.0, the newest emoji most
 * terminals' width tables know (tmux with glibc 2.35 draws U+1FAE8, from Unicode 15, 0 wide).
 */
const EXTENDED_A_UNICODE_14: readonly (readonly [number, number])[] = [
  [0x1fa70, 0x1fa74],
  [0x1fa78, 0x1fa7c],
  [0x1fa80, 0x1fa86],
  [0x1fa90, 0x1faac],
  [0x1fab0, 0x1faba],
  [0x1fac0, 0x1fac5],
  [0x1fad0, 0x1fad9],
  [0x1fae0, 0x1fae7],
  [0x1faf0, 0x1faf6],
];
/** Emoji outside that block added after Unicode 14. */
const RECENT_ELSEWHERE = new Set([0x1f6dc, 0x1f6d8]);

/** Whether a code point is an emoji newer than Unicode 14 (terminals may not know its width). */
export function isRecentEmoji(cp: number): boolean {
  if (RECENT_ELSEWHERE.has(cp)) return true;
  if (cp < 0x1fa70 || cp > 0x1faff) return false;
  return !EXTENDED_A_UNICODE_14.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** `\u00ad`, `\u{1fae8}`: a code point shown as text. */
export function escapeCodePoints(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    out +=
      cp <= 0xff
        ? `\\x${cp.toString(16).padStart(2, "0")}`
        : cp <= 0xffff
          ? `\\u${cp.toString(16).padStart(4, "0")}`
          : `\\u{${cp.toString(16)}}`;
  }
  return out;
}

/** Widths of graphemes met, bounded (logs repeat the same few non-ASCII graphemes). */
const widthCache = new Map<string, number>();

/** Cells Ink gives one (normalized) grapheme: what the row layout must count. */
export function cellWidth(grapheme: string): number {
  if (grapheme.length === 1) {
    const c = grapheme.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let w = widthCache.get(grapheme);
  if (w === undefined) {
    w = Math.max(1, stringWidth(grapheme));
    if (widthCache.size > 20_000) widthCache.clear();
    widthCache.set(grapheme, w);
  }
  return w;
}

/** One grapheme (not a tab) in the form terminals draw as Ink counts it; may become several. */
function normalizeGrapheme(grapheme: string): string {
  let g = grapheme;
  if (g.length > 1) {
    g = g.replace(VARIATION_SELECTORS, "");
    const unmodified = g.replace(EMOJI_MODIFIERS, "");
    if (unmodified.length > 0) g = unmodified;
    const noKeycap = g.replace(KEYCAP, "");
    if (noKeycap.length > 0) g = noKeycap;
    if (g.includes(ZWJ)) {
      // Not drawn as one glyph everywhere: its parts, each normalized on its own.
      let out = "";
      for (const p of g.split(ZWJ)) if (p) out += normalizeText(p, 0).text;
      return out;
    }
  }
  if (g.length === 0) return "";
  const cp = g.codePointAt(0) as number;
  if (UNASSIGNED.test(g) || isRecentEmoji(cp)) return escapeCodePoints(g);
  if ((cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0x20e3) return escapeCodePoints(g);
  if (STARTS_WITH_MARK.test(g)) g = ` ${g}`;
  if (stringWidth(g) === 0) return escapeCodePoints(g);
  return g;
}

/** Normalized graphemes met, with their widths, bounded like the width cache. */
const normalizeCache = new Map<string, { text: string; width: number }>();

function normalizedGrapheme(grapheme: string): { text: string; width: number } {
  let n = normalizeCache.get(grapheme);
  if (n === undefined) {
    const text = normalizeGrapheme(grapheme);
    n = { text, width: displayWidth(text) };
    if (normalizeCache.size > 20_000) normalizeCache.clear();
    normalizeCache.set(grapheme, n);
  }
  return n;
}

/**
 * Text (already sanitized: no controls but tabs) in forms whose drawn width is what Ink counts,
 * tabs expanded to 8-column stops counted from `column`. Returns the text and its width in cells.
 */
export function normalizeText(text: string, column = 0): { text: string; width: number } {
  if (PLAIN.test(text)) return { text, width: text.length };
  let out = "";
  let col = column;
  for (const { segment } of segments(text)) {
    if (segment === "\t") {
      const spaces = 8 - (col % 8);
      out += " ".repeat(spaces);
      col += spaces;
      continue;
    }
    const c = segment.charCodeAt(0);
    if (segment.length === 1 && c >= 0x20 && c < 0x7f) {
      out += segment;
      col += 1;
      continue;
    }
    const normalized = normalizedGrapheme(segment);
    out += normalized.text;
    col += normalized.width;
  }
  return { text: out, width: col - column };
}

/** Cells a normalized text takes (the sum of its graphemes' cells). */
export function displayWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let w = 0;
  for (const { segment } of segments(text)) w += cellWidth(segment);
  return w;
}

/** The graphemes of a normalized text with their offsets and cells, in order. */
export function* graphemes(
  text: string,
): Generator<{ index: number; text: string; width: number }> {
  if (PLAIN.test(text)) {
    for (let i = 0; i < text.length; i++) yield { index: i, text: text[i] as string, width: 1 };
    return;
  }
  for (const { segment, index } of segments(text)) {
    yield { index, text: segment, width: cellWidth(segment) };
  }
}

/** Whether every character is printable ASCII (the fast path: offsets are columns). */
export function isPlain(text: string): boolean {
  return PLAIN.test(text);
}
