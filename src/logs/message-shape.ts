/**
 * A log message's shape: its text with what changes from one occurrence to the next masked, so
 * that `upstream timeout after 5000ms (pool exhausted: 64 of 64 connections busy)` and the same
 * message with 63 busy connections read as one message, and a new message reads as new.
 *
 * The text is taken word by word (runs of letters, digits and `_`), in one linear pass:
 * - a UUID is `<id>`;
 * - a word of digits is `#`;
 * - a hex word (`0x…`, or hex digits with a digit among them, 4 or more) is `<hex>`;
 * - a long word with a digit in it (12 or more: a base58 signature or address, a request id) is
 *   `<id>`;
 * - any other word keeps its letters, each run of digits in it `#` (`5000ms` → `#ms`).
 * Only the first SHAPE_CHARS of a message are read.
 */

/** How much of a message its shape reads. */
export const SHAPE_CHARS = 200;

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
const WORD = /[A-Za-z0-9_]+/g;
const DIGITS = /^\d+$/;
const HEX = /^(?:0x[0-9a-fA-F]+|[0-9a-fA-F]{4,})$/;
const HAS_DIGIT = /\d/;
const DIGIT_RUNS = /\d+/g;
/** A word this long with a digit in it is an identifier. */
const ID_LENGTH = 12;

function maskWord(word: string): string {
  if (DIGITS.test(word)) return "#";
  if (!HAS_DIGIT.test(word)) return word;
  if (HEX.test(word)) return "<hex>";
  if (word.length >= ID_LENGTH) return "<id>";
  return word.replace(DIGIT_RUNS, "#");
}

/** The shape of `message` (see the module comment). */
export function messageShape(message: string): string {
  const text = message.length > SHAPE_CHARS ? message.slice(0, SHAPE_CHARS) : message;
  return text.replace(UUID, "<id>").replace(WORD, maskWord);
}
