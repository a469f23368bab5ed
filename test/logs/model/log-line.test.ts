import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineTimestamp, packNanos } from "../../../src/logs/model/log-line.js";

describe("a line's timestamp, kept without an object or a string per line", () => {
  it("gives back the nanos exactly as received, whatever they were", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.integer({ min: 0, max: 999_999_999 }).map(String),
          fc.stringMatching(/^[0-9]{1,12}$/),
        ),
        (text) => {
          expect(String(packNanos(text))).toBe(text);
          expect(lineTimestamp({ seconds: "1795000000", nanos: packNanos(text) })).toEqual({
            seconds: "1795000000",
            nanos: text,
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("keeps plain digits as a small integer, and the rest as text", () => {
    expect(packNanos("123456789")).toBe(123_456_789);
    expect(packNanos("0")).toBe(0);
    expect(packNanos("000000005")).toBe("000000005");
    expect(packNanos("1234567890")).toBe("1234567890");
    expect(packNanos("-5")).toBe("-5");
    expect(packNanos("")).toBe("");
    expect(lineTimestamp({ seconds: undefined, nanos: undefined })).toBeUndefined();
  });
});
