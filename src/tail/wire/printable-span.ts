/**
 * Whether a span of a block of bytes is printable ASCII (0x20 to 0x7e: nothing a terminal acts
 * on and nothing to decode), judged four bytes at a time over a 32-bit view of the block. A
 * plain window's content is most of its bytes (./window-scanner.ts): a byte at a time, this is
 * the most of its reading.
 */
export class PrintableSpans {
  private readonly words: Int32Array;
  /** The first byte of the block at a word's start: word k holds bytes [base + 4k, base + 4k + 4). */
  private readonly base: number;

  constructor(private readonly b: Uint8Array) {
    const base = (4 - (b.byteOffset & 3)) & 3;
    this.base = Math.min(base, b.length);
    this.words = new Int32Array(b.buffer, b.byteOffset + this.base, (b.length - this.base) >>> 2);
  }

  /** Whether bytes [from, to) of the block are all printable ASCII. */
  printable(from: number, to: number): boolean {
    const b = this.b;
    const base = this.base;
    // The words wholly inside the span, [k0, k1); the bytes before and after them one by one.
    const k0 = from < base ? 0 : (from - base + 3) >>> 2;
    const k1 = to < base ? 0 : Math.min((to - base) >>> 2, this.words.length);
    if (k1 <= k0) return printableBytes(b, from, to);
    const wordsFrom = base + (k0 << 2);
    const wordsTo = base + (k1 << 2);
    if (!printableBytes(b, from, wordsFrom) || !printableBytes(b, wordsTo, to)) return false;
    const words = this.words;
    let bad = 0;
    for (let k = k0; k < k1; k++) {
      const w = words[k] as number;
      // A byte under 0x20 borrows (w - 0x20202020 where the byte's top bit was clear); one of
      // 0x7f or over has its top bit set after adding one. Exact for "any such byte".
      bad |= ((w - 0x20202020) & ~w) | (w + 0x01010101) | w;
    }
    return (bad & 0x80808080) === 0;
  }
}

function printableBytes(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i] as number;
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}
