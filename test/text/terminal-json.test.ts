import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyForTerminal } from "../../src/text/terminal-json.js";

const TERMINAL_ACTIVE =
  /[\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

describe("stringifyForTerminal", () => {
  it("writes C1, DEL, bidi and zero-width characters as \\u escapes", () => {
    expect(stringifyForTerminal({ s: "\u009b2J\u007f\u202e\u2066\u200e\u200f\u061c\u200b" })).toBe(
      '{"s":"\\u009b2J\\u007f\\u202e\\u2066\\u200e\\u200f\\u061c\\u200b"}',
    );
  });

  it("parses back to the same value, whatever it holds, with nothing raw a terminal acts on", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, s) => {
        for (const v of [value, { s, nested: [s, { s }] }]) {
          for (const space of [undefined, 2]) {
            const out = stringifyForTerminal(v, space);
            expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
            expect(out).not.toMatch(TERMINAL_ACTIVE);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves ordinary text, unicode and emoji as JSON.stringify writes them", () => {
    const v = { a: "naïve café 用户 🚀 👍🏽", b: [1, true, null], c: 'q"\\\n' };
    expect(stringifyForTerminal(v)).toBe(JSON.stringify(v));
    expect(stringifyForTerminal(v, 2)).toBe(JSON.stringify(v, null, 2));
  });
});
