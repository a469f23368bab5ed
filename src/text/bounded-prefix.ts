/**
 * The largest slice to render of a text. A file of its own: code that only reads text (log-level
 * detection in `tail`) takes it without loading the terminal-width tables safe-text needs.
 */

/** The largest slice to render of a text: cut on a code point boundary. */
export function boundedPrefix(text: string, maxChars: number): { text: string; hidden: number } {
  if (text.length <= maxChars) return { text, hidden: 0 };
  let end = maxChars;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), hidden: text.length - end };
}
