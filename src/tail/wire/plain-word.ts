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
