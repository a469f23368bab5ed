/** Counts grouped by thousands without ICU (src/text/grouped-number.ts) read as en-US writes them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grouped } from "../../src/text/grouped-number.js";

describe("grouped", () => {
  it("writes every safe integer as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, -1, -1000, -1_234_567, -0])
      expect(grouped(n)).toBe(n.toLocaleString("en-US"));
    expect(grouped(Number.MAX_SAFE_INTEGER)).toBe("9,007,199,254,740,991");
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => grouped(n) === n.toLocaleString("en-US")),
      { numRuns: 2000 },
    );
  });

  it("leaves what is not an integer to toLocaleString", () => {
    for (const n of [1234.5, 0.125, 1e21, Number.NaN, Number.POSITIVE_INFINITY])
      expect(grouped(n)).toBe(n.toLocaleString("en-US"));
  });
});
