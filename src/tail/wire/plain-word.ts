/**
 * Four bytes of a JSON string judged at once (./window-scanner.ts, ./plain-window.ts): how many
 * of them, from the first, are text in STRING_BYTE's terms (printable ASCII, 0x20 to 0x7e, that
 * is neither a quote nor a backslash), the bytes read as one little-endian 32-bit word (the
 * first byte the lowest). A plain window's content is most of its bytes; four at a time,
 * reading and copying them is most of its reading.
 *
 * Each test below sets a byte's top bit where the byte is of its kind: one of 0x7f or more has
 * its top bit set, or gains it when one is added; one under 0x20 borrows when 0x20 is taken
 * from it where its top bit was clear; a quote or a backslash is a zero byte once the word is
 * xored with it, and a zero byte borrows likewise. A carry or a borrow runs only upwards, out of
 * a byte that is itself not text, so the lowest bit set is the first byte that is not text
 * (test/tail/wire/plain-word.test.ts holds it to the byte-by-byte definition).
 */
export function leadingText(x: number): number {
  const quote = x ^ 0x22222222;
  const backslash = x ^ 0x5c5c5c5c;
  const notText =
    ((x + 0x01010101) |
      x |
      ((x - 0x20202020) & ~x) |
      ((quote - 0x01010101) & ~quote) |
      ((backslash - 0x01010101) & ~backslash)) &
    0x80808080;
  return notText === 0 ? 4 : (31 - Math.clz32(notText & -notText)) >>> 3;
}

/**
 * How many of a word's bytes, from the first, are ASCII digits (0-4): as leadingText, a byte
 * under 0x30 borrows where its top bit was clear, and one over 0x39 has its top bit set or gains
 * it when 0x46 is added (held to the byte-by-byte definition by the same test).
 */
export function leadingDigits(x: number): number {
  const notDigit = (((x - 0x30303030) & ~x) | (x + 0x46464646) | x) & 0x80808080;
  return notDigit === 0 ? 4 : (31 - Math.clz32(notDigit & -notDigit)) >>> 3;
}

/**
 * The number that a word's first `n` bytes (1 to 4, each an ASCII digit) write: the digits are
 * moved to the top of the word (what follows them falls off, and nothing borrows from below
 * them), then tens and units are paired in each half, and the halves joined.
 */
export function digitsValue(x: number, n: number): number {
  const v = (x - 0x30303030) << (32 - 8 * n);
  const pairs = (v * 10 + (v >>> 8)) & 0x00ff00ff;
  return (pairs & 0xff) * 100 + (pairs >>> 16);
}

/**
 * Bytes as the 32-bit words they are compared or written as four at a time (DataView.getInt32,
 * little-endian): word k is the four bytes at min(4k, length - 4), so the last word of bytes
 * whose length is not a multiple of four overlaps the one before it. Four bytes or more.
 */
export function wordsOf(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const words = new Int32Array((bytes.length + 3) >>> 2);
  for (let k = 0; k < words.length; k++)
    words[k] = view.getInt32(Math.min(4 * k, bytes.length - 4), true);
  return words;
}
