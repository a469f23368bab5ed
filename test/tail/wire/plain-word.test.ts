import { describe, expect, it } from "vitest";
import {
  digitsValue,
  leadingDigits,
  leadingText,
  wordsOf,
} from "../../../src/tail/wire/plain-word.js";
import { STRING_BYTE, TEXT } from "../../../src/tail/wire/window-scanner.js";

/** The definition, a byte at a time: how many of the bytes, from the first, are text. */
function textBytes(bytes: readonly number[]): number {
  let n = 0;
  while (n < bytes.length && STRING_BYTE[bytes[n] as number] === TEXT) n++;
  return n;
}

/** The definition of leadingDigits, a byte at a time. */
function digitBytes(bytes: readonly number[]): number {
  let n = 0;
  while (n < bytes.length && (bytes[n] as number) >= 0x30 && (bytes[n] as number) <= 0x39) n++;
  return n;
}

/**
 * Every four bytes made of `other` but for two places, each holding every byte: for each `other`,
 * each two places and each two bytes there (4 x 12 x 256 x 256 words for four `others`).
 */
function* everyTwoBytesInTwoPlaces(others: readonly number[]): Generator<number[]> {
  for (const other of others)
    for (let first = 0; first < 4; first++)
      for (let second = 0; second < 4; second++) {
        if (first === second) continue;
        for (let a = 0; a < 256; a++)
          for (let b = 0; b < 256; b++) {
            const bytes = [other, other, other, other];
            bytes[first] = a;
            bytes[second] = b;
            yield bytes;
          }
      }
}

/** The bytes as DataView.getInt32(at, true) reads them. */
function wordOf(bytes: readonly number[]): number {
  return Buffer.from(bytes).readInt32LE(0);
}

describe("leadingText", () => {
  it("counts the text bytes before the first that is not, as the byte table does, for every two bytes in every two places", () => {
    // The other two bytes: text, or not text of each kind (a quote, a control, past ASCII).
    const others = [0x41, 0x22, 0x00, 0xff];
    let judged = 0;
    const seen = new Set<number>();
    for (const bytes of everyTwoBytesInTwoPlaces(others)) {
      const want = textBytes(bytes);
      const got = leadingText(wordOf(bytes));
      if (got !== want) expect(got, `bytes ${bytes.join(",")}`).toBe(want);
      seen.add(want);
      judged++;
    }
    expect(judged).toBe(4 * 12 * 256 * 256);
    // Every answer from none to all four was given.
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("reads the bytes of a word in the order they lie", () => {
    expect(leadingText(wordOf([0x61, 0x62, 0x63, 0x64]))).toBe(4);
    expect(leadingText(wordOf([0x61, 0x5c, 0x22, 0x64]))).toBe(1);
    expect(leadingText(wordOf([0x61, 0x62, 0x7f, 0x0a]))).toBe(2);
    expect(leadingText(wordOf([0x20, 0x7e, 0x21, 0x80]))).toBe(3);
    expect(leadingText(wordOf([0x1f, 0x41, 0x41, 0x41]))).toBe(0);
  });
});

describe("leadingDigits and digitsValue", () => {
  it("count the digits before the first byte that is not one, as the definition does, for every two bytes in every two places", () => {
    const others = [0x35, 0x22, 0x2f, 0x3a, 0x00, 0xff];
    const seen = new Set<number>();
    let judged = 0;
    for (const bytes of everyTwoBytesInTwoPlaces(others)) {
      const want = digitBytes(bytes);
      const got = leadingDigits(wordOf(bytes));
      if (got !== want) expect(got, `bytes ${bytes.join(",")}`).toBe(want);
      seen.add(want);
      judged++;
    }
    expect(judged).toBe(6 * 12 * 256 * 256);
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("give the number the first digits write, whatever follows them", () => {
    const after = [0x22, 0x00, 0xff, 0x39, 0x2c];
    let checked = 0;
    for (let n = 1; n <= 4; n++)
      for (let value = 0; value < 10 ** n; value++)
        for (const tail of after) {
          const text = String(value).padStart(n, "0");
          const bytes = [...Buffer.from(text, "latin1"), tail, tail, tail].slice(0, 4);
          const got = digitsValue(wordOf(bytes), n);
          if (got !== value) expect(got, `${text} then ${tail}`).toBe(value);
          checked++;
        }
    expect(checked).toBe(5 * (10 + 100 + 1000 + 10000));
  });
});

describe("wordsOf", () => {
  it("reads bytes as words four at a time, the last ending where the bytes do", () => {
    const bytes = Buffer.from("0123456789", "latin1");
    expect([...wordsOf(bytes)]).toEqual([
      bytes.readInt32LE(0),
      bytes.readInt32LE(4),
      bytes.readInt32LE(6),
    ]);
    expect([...wordsOf(bytes.subarray(0, 8))]).toEqual([
      bytes.readInt32LE(0),
      bytes.readInt32LE(4),
    ]);
  });
});
