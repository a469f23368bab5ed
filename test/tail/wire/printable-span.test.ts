import { describe, expect, it } from "vitest";
import { PrintableSpans } from "../../../src/tail/wire/printable-span.js";

/** The definition, a byte at a time. */
function printable(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++)
    if ((b[i] as number) < 0x20 || (b[i] as number) > 0x7e) return false;
  return true;
}

/** A small deterministic generator (the same cases every run). */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

describe("PrintableSpans", () => {
  it("judges every span as the byte-by-byte definition does, at every alignment of the block", () => {
    const next = generator(7);
    const edges = [0x00, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xff];
    let judged = 0;
    let notPrintable = 0;
    for (let offset = 0; offset < 4; offset++) {
      const backing = new Uint8Array(300 + offset);
      const block = backing.subarray(offset);
      for (let round = 0; round < 400; round++) {
        // Mostly printable text, with one edge byte or none somewhere.
        for (let i = 0; i < block.length; i++) block[i] = 0x20 + (next() % 0x5f);
        if (round % 4 !== 0) block[next() % block.length] = edges[next() % edges.length] as number;
        const spans = new PrintableSpans(block);
        for (let k = 0; k < 20; k++) {
          const from = next() % block.length;
          const to = from + (next() % (block.length - from + 1));
          const want = printable(block, from, to);
          expect(spans.printable(from, to), `offset ${offset} [${from}, ${to})`).toBe(want);
          judged++;
          if (!want) notPrintable++;
        }
      }
    }
    expect(judged).toBe(4 * 400 * 20);
    // Both answers were exercised.
    expect(notPrintable).toBeGreaterThan(1000);
    expect(judged - notPrintable).toBeGreaterThan(1000);
  });

  it("judges a block shorter than a word, and an empty span", () => {
    const block = new Uint8Array([0x41, 0x0a, 0x42]);
    const spans = new PrintableSpans(block);
    expect(spans.printable(0, 1)).toBe(true);
    expect(spans.printable(0, 2)).toBe(false);
    expect(spans.printable(2, 3)).toBe(true);
    expect(spans.printable(1, 1)).toBe(true);
  });
});
