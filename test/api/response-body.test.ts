import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bodyText, chunksBytes, chunksText } from "../../src/api/response-body.js";

/** `bytes` cut at the given offsets (taken within the bytes, sorted, deduplicated). */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  return chunks;
}

describe("a body's chunks", () => {
  it("as text are bodyText of the bytes joined, wherever the chunks cut them (multi-byte characters, a BOM, invalid UTF-8)", () => {
    const body = fc.oneof(
      fc.string({ unit: "binary" }).map((s) => new Uint8Array(Buffer.from(s, "utf8"))),
      fc.string({ unit: "grapheme" }).map((s) => new Uint8Array(Buffer.from(`\uFEFF${s}`, "utf8"))),
      fc.uint8Array({ maxLength: 64 }),
    );
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 12 }), (bytes, at) => {
        const whole = { chunks: cut(bytes, at), byteLength: bytes.length };
        expect(chunksText(whole)).toBe(bodyText(bytes));
        expect(Buffer.from(chunksBytes(whole)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("as text drop one leading byte-order mark split over chunks, and keep a second", () => {
    const bytes = new Uint8Array(Buffer.from("\uFEFF\uFEFF{}", "utf8"));
    const chunks = [
      bytes.subarray(0, 1),
      bytes.subarray(1, 2),
      bytes.subarray(2, 4),
      bytes.subarray(4),
    ];
    expect(chunksText({ chunks, byteLength: bytes.length })).toBe("\uFEFF{}");
    expect(chunksText({ chunks: [], byteLength: 0 })).toBe("");
    expect(chunksBytes({ chunks: [], byteLength: 0 })).toHaveLength(0);
  });
});
