import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { highlightForTerminal, MARK_OFF, MARK_ON, matchRanges } from "../../src/logs/highlight.js";
import { compilePattern } from "../../src/logs/line-filter.js";
import { sanitizeForTerminal, sanitizeSlice } from "../../src/text/sanitize.js";

const marks = new RegExp(`${MARK_ON.replace("[", "\\[")}|${MARK_OFF.replace("[", "\\[")}`, "g");
const strip = (s: string) => s.replace(marks, "");

describe("--highlight", () => {
  it("marks every match, joining overlapping ones", () => {
    expect(highlightForTerminal("ERROR upstream error", [compilePattern("error")])).toBe(
      `${MARK_ON}ERROR${MARK_OFF} upstream ${MARK_ON}error${MARK_OFF}`,
    );
    expect(matchRanges("abcdef", [compilePattern("abc"), compilePattern("cde")])).toEqual([[0, 5]]);
    expect(matchRanges("aaa", [compilePattern("x*")])).toEqual([]);
  });

  it("marks after sanitizing: an escape shown as text is never cut, nor a surrogate pair", () => {
    // The match ends inside ESC's escape; the other takes an emoji (a pair) whole.
    const line = "a\u001b[31mred 😀x";
    const out = highlightForTerminal(line, [compilePattern("a\u001b"), compilePattern(" .x")]);
    expect(out).toBe(`${MARK_ON}a\\x1b${MARK_OFF}[31mred${MARK_ON} 😀x${MARK_OFF}`);
    expect(strip(out)).toBe(sanitizeForTerminal(line));
  });

  it("taking the marks out gives the line as printed without them; marks fall between escapes", () => {
    const text = fc.string({
      unit: fc.constantFrom(
        "a",
        "b",
        "E",
        "\u001b",
        "[",
        "😀",
        "\u200d",
        "👩",
        "\u202e",
        "\n",
        " ",
      ),
    });
    fc.assert(
      fc.property(
        text,
        fc.array(fc.constantFrom("a", "b+", "\\u001b\\[", "E.", ".", "\\s", "\\x{1F600}"), {
          maxLength: 3,
        }),
        (line, sources) => {
          const out = highlightForTerminal(line, sources.map(compilePattern));
          expect(strip(out)).toBe(sanitizeForTerminal(line));
          // Every mark sits where some prefix of the line, sanitized, ends.
          const ends = new Set<number>();
          for (let k = 0; k <= line.length; k++) ends.add(sanitizeSlice(line, 0, k).length);
          let at = 0;
          for (const piece of out.split(marks)) {
            at += piece.length;
            expect(ends.has(at)).toBe(true);
          }
          expect(out).not.toMatch(/\u001b(?!\[(?:7|27)m)/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
