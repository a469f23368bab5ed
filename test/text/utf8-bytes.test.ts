import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCleanUtf8 } from "../../src/text/utf8-bytes.js";

/** What decoding says: no U+FFFD in the text the bytes make. */
const byDecoding = (bytes: Uint8Array) => !Buffer.from(bytes).toString("utf8").includes("\ufffd");

describe("isCleanUtf8", () => {
  it.each([
    ["ASCII", [0x61, 0x62]],
    ["two bytes", [0xc3, 0xa9]],
    ["overlong two bytes", [0xc0, 0xaf]],
    ["three bytes", [0xe2, 0x9c, 0x93]],
    ["overlong three bytes", [0xe0, 0x80, 0xaf]],
    ["a surrogate", [0xed, 0xa0, 0x80]],
    ["U+FFFD itself", [0xef, 0xbf, 0xbd]],
    ["U+FFFF", [0xef, 0xbf, 0xbf]],
    ["four bytes", [0xf0, 0x9f, 0x91, 0x8d]],
    ["overlong four bytes", [0xf0, 0x80, 0x80, 0x80]],
    ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["cut short", [0x61, 0xe2, 0x9c]],
    ["a lone continuation", [0x80]],
    ["0xff", [0xff]],
  ])("%s: as decoding says", (_, bytes) => {
    expect(isCleanUtf8(Uint8Array.from(bytes), 0, bytes.length)).toBe(
      byDecoding(Uint8Array.from(bytes)),
    );
  });

  it("agrees with decoding on any bytes, and reads none past its end", () => {
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xa0, 0x9f, 0x90),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 12 }), fc.nat(3), (bytes, cut) => {
        const all = Uint8Array.from(bytes);
        const to = Math.max(0, all.length - cut);
        expect(isCleanUtf8(all, 0, to)).toBe(byDecoding(all.subarray(0, to)));
      }),
      { numRuns: 20_000, seed: 4109 },
    );
  });

  it("agrees with decoding on text of every range", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), (text) => {
        const bytes = Buffer.from(text);
        expect(isCleanUtf8(bytes, 0, bytes.length)).toBe(!text.includes("\ufffd"));
      }),
      { numRuns: 5_000, seed: 4110 },
    );
  });
});
