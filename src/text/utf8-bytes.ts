/**
 * Whether bytes decode as UTF-8 to text without U+FFFD, told from the bytes without decoding
 * them: every sequence well formed (Unicode's table 3-7: no overlong form, no surrogate, nothing
 * past U+10FFFF, no sequence cut short), and none of them U+FFFD itself (`EF BF BD`). Exactly
 * when `buffer.toString("utf8", from, to)` holds no `\ufffd`.
 */
export function isCleanUtf8(b: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= to || !continuation(b[i + 1] as number)) return false;
      i += 2;
      continue;
    }
    if (c >= 0xe0 && c <= 0xef) {
      if (i + 2 >= to) return false;
      const c1 = b[i + 1] as number;
      const low = c === 0xe0 ? 0xa0 : 0x80;
      const high = c === 0xed ? 0x9f : 0xbf;
      if (c1 < low || c1 > high || !continuation(b[i + 2] as number)) return false;
      if (c === 0xef && c1 === 0xbf && b[i + 2] === 0xbd) return false;
      i += 3;
      continue;
    }
    if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= to) return false;
      const c1 = b[i + 1] as number;
      const low = c === 0xf0 ? 0x90 : 0x80;
      const high = c === 0xf4 ? 0x8f : 0xbf;
      if (c1 < low || c1 > high) return false;
      if (!continuation(b[i + 2] as number) || !continuation(b[i + 3] as number)) return false;
      i += 4;
      continue;
    }
    return false;
  }
  return true;
}

function continuation(c: number): boolean {
  return c >= 0x80 && c <= 0xbf;
}
