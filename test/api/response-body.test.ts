import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FetchResponse } from "../../src/api/http-fetch.js";
import { bodyText, chunksBytes, chunksText, readBodyWithin } from "../../src/api/response-body.js";

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

/** A response whose body comes in these chunks, declaring this content-length (or none). */
function responseOf(chunks: Uint8Array[], declared: number | undefined): FetchResponse {
  let next = 0;
  let cancelled = false;
  return {
    ok: true,
    status: 200,
    headers: {
      get: (name) =>
        name.toLowerCase() === "content-length" && declared !== undefined ? String(declared) : null,
    },
    body: {
      cancel: async () => {
        cancelled = true;
      },
      getReader: () => ({
        read: async () =>
          cancelled || next >= chunks.length
            ? { done: true }
            : { done: false, value: chunks[next++] as Uint8Array },
        cancel: async () => {
          cancelled = true;
        },
      }),
    },
  };
}

describe("reading a body within a limit", () => {
  it("gives the same bytes, or the same refusal, read as one block as read as chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.oneof(fc.constant(undefined), fc.constant("exact"), fc.integer({ min: -50, max: 50 })),
        fc.integer({ min: 0, max: 250 }),
        async (bytes, at, claim, limit) => {
          const declared =
            claim === undefined
              ? undefined
              : claim === "exact"
                ? bytes.length
                : Math.max(0, bytes.length + claim);
          const asChunks = await readBodyWithin(responseOf(cut(bytes, at), declared), limit);
          const asBlock = await readBodyWithin(responseOf(cut(bytes, at), declared), limit, true);
          expect(asBlock.ok).toBe(asChunks.ok);
          if (asBlock.ok && asChunks.ok) {
            expect(asBlock.byteLength).toBe(asChunks.byteLength);
            expect(Buffer.from(chunksBytes(asBlock))).toEqual(Buffer.from(chunksBytes(asChunks)));
            // The declared length, when it holds, is read into one block.
            if (declared === bytes.length && bytes.length > 0)
              expect(asBlock.chunks).toHaveLength(1);
          } else if (!asBlock.ok && !asChunks.ok) {
            expect(asBlock.declared).toBe(asChunks.declared);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
