/**
 * Makes untrusted text (log lines, email fields, memos) safe for a terminal: every character
 * that could start or carry an escape sequence or move the cursor, and every character that
 * reorders or hides text, is shown visibly escaped instead (`\x1b[2J` stays readable, inert).
 *
 * Escaped: C0 controls except tab (so also CR, LF, BEL, BS, ESC), DEL, C1 (U+0080-U+009F),
 * zero-width and line/paragraph separators (U+200B-U+200F, U+2028, U+2029, U+FEFF, the word
 * joiner and invisible operators U+2060-U+2064, U+180E), bidi marks, embeddings, overrides and
 * isolates (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the deprecated format
 * controls U+206A-U+206F and the interlinear annotation marks U+FFF9-U+FFFB. Because ESC itself is
 * escaped, no CSI, OSC (titles, OSC 8 links, OSC 52 clipboard), DCS, APC, PM or SOS sequence can
 * reach the terminal, whole or in part.
 *
 * One exception: a zero-width joiner between two emoji (👩‍💻) is part of the glyph and kept.
 */
const UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, "g");

const PICTOGRAPHIC_BEFORE = /\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?$/u;
const PICTOGRAPHIC_AFTER = /^\p{Extended_Pictographic}/u;

/** Whether the ZWJ at `at` joins two emoji into one glyph. */
function joinsEmoji(text: string, at: number): boolean {
  return (
    PICTOGRAPHIC_BEFORE.test(text.slice(Math.max(0, at - 4), at)) &&
    PICTOGRAPHIC_AFTER.test(text.slice(at + 1, at + 3))
  );
}

function escapeChar(ch: string, at: number, text: string): string {
  if (ch === "\u200d" && joinsEmoji(text, at)) return ch;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

export function sanitizeForTerminal(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_GLOBAL, escapeChar) : text;
}

/**
 * `text[from, to)` made safe as sanitizeForTerminal makes the whole text: the pieces of a text
 * cut anywhere, each sanitized so, join to sanitizeForTerminal(text), every escape whole in one.
 */
export function sanitizeSlice(text: string, from: number, to: number): string {
  const part = text.slice(from, to);
  return UNSAFE.test(part)
    ? part.replace(UNSAFE_GLOBAL, (ch: string, at: number) => escapeChar(ch, from + at, text))
    : part;
}
