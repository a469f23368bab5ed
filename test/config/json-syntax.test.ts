import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  jsonSyntaxErrorOffset,
  parseJsonQuietly,
  positionOf,
} from "../../src/config/json-syntax.js";

describe("jsonSyntaxErrorOffset", () => {
  it("agrees with JSON.parse on what is valid, for JSON and JSON with one character changed", () => {
    const jsonText = fc.jsonValue().map((v) => JSON.stringify(v, null, 1));
    const mutated = fc
      .tuple(jsonText, fc.nat(), fc.constantFrom("", ",", "}", "]", '"', ":", "x", "\\", "\n", "0"))
      .map(([t, at, ch]) => {
        const i = t.length === 0 ? 0 : at % t.length;
        return t.slice(0, i) + ch + t.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(jsonText, mutated), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const offset = jsonSyntaxErrorOffset(text);
        expect(offset === undefined).toBe(valid);
        if (offset !== undefined) expect(offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it("points at the first character that cannot continue the text", () => {
    expect(jsonSyntaxErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonSyntaxErrorOffset('{"a":tru}')).toBe(8);
    expect(jsonSyntaxErrorOffset("[1,2")).toBe(4);
    expect(positionOf('{\n  "a": 1,\n}', 12)).toEqual({ line: 3, column: 1 });
  });
});

describe("parseJsonQuietly", () => {
  const secret = "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c";
  it("names the line and column, never the text", () => {
    const text = `{\n  "apiPrivateKey": "${secret}"\n  "organizationId": "o"\n}`;
    expect(() => parseJsonQuietly(text, "config file c.json")).toThrow(
      "config file c.json is not valid JSON (line 3, column 3)",
    );
    expect(() => parseJsonQuietly(`{"k": ${secret}}`, "--body")).toThrow(
      /^--body is not valid JSON \(line 1, column 10\)$/,
    );
    expect(() => parseJsonQuietly(`{"k": "${secret}`, "--body")).toThrow(/ends early/);
    expect(() => parseJsonQuietly(" \n", "--body")).toThrow("--body is empty (expected JSON)");
  });

  it("accepts a leading byte-order mark", () => {
    expect(parseJsonQuietly('\ufeff{"a":1}', "f")).toEqual({ a: 1 });
  });
});
