import { describe, expect, it } from "vitest";
import { compilePattern, PatternError, patternProblem } from "../../src/text/pattern.js";

describe("the one matcher: patterns from outside, matched in linear time", () => {
  it("answers a pattern that backtracking takes exponential time over (^(a+)+$ on 34 a's and !)", () => {
    const line = `${"a".repeat(34)}!`;
    expect(compilePattern("^(a+)+$").test(line)).toBe(false);
    expect(compilePattern("^(a+)+$").test("a".repeat(34))).toBe(true);
    expect(compilePattern("(x+x+)+y").test("x".repeat(5000))).toBe(false);
    expect(compilePattern("(a|aa)+$").matches(`${"a".repeat(3000)}b`)).toEqual([]);
  });

  it("an all-lower-case pattern ignores case; one upper-case letter makes it exact", () => {
    expect(compilePattern("info").test('{"level":"INFO"}')).toBe(true);
    expect(compilePattern("info").test('{"level":"info"}')).toBe(true);
    expect(compilePattern("INFO").test('{"level":"info"}')).toBe(false);
    expect(compilePattern("Timeout").test("timeout after 5s")).toBe(false);
    expect(compilePattern("(?i)Timeout").test("TIMEOUT after 5s")).toBe(true);
  });

  it("upper-case escapes are syntax, not letters: \\S, \\W, \\pL, \\p{Lu}, \\x{4A} keep a lower-case pattern case-blind", () => {
    for (const source of ["error\\S+", "\\Werr", "\\p{Lu}x", "\\pLx", "\\x41rr", "\\x{4A}rr"]) {
      expect(compilePattern(source).ignoreCase, source).toBe(true);
    }
    expect(compilePattern("E\\d+").ignoreCase).toBe(false);
    expect(compilePattern("error\\S+").test("ERROR: boom")).toBe(true);
  });

  it("refuses what needs backtracking in one line naming the feature", () => {
    const cases: [string, string][] = [
      ["(a)\\1", "a backreference (\\1)"],
      ["(?<n>a)\\k<n>", "a named backreference (\\k<n>)"],
      ["foo(?=bar)", "lookahead ((?=)"],
      ["foo(?!bar)", "lookahead ((?!)"],
      ["(?<=user=)\\w+", "lookbehind ((?<=)"],
      ["(?<!x)y", "lookbehind ((?<!)"],
    ];
    for (const [source, feature] of cases) {
      const problem = patternProblem(source) ?? "";
      expect(problem, source).toBe(
        `regex refused: ${feature} is JavaScript-only (patterns are RE2: linear time)`,
      );
      expect(() => compilePattern(source)).toThrow(PatternError);
    }
    // Inside a class, `(?=` is three characters.
    expect(compilePattern("[(?=]").test("=")).toBe(true);
  });

  it("an invalid pattern says why in one line, without RE2's prefix", () => {
    expect(patternProblem("a(")).toBe("invalid regex: missing closing ): `a(`");
    expect(patternProblem("[z-a]")).toBe("invalid regex: invalid character class range: `z-a`");
    expect(patternProblem("a{2,1}")).toBe("invalid regex: invalid repeat count: `{2,1}`");
    expect(patternProblem("error|warn")).toBeUndefined();
  });

  it("reads JavaScript's \\uXXXX, \\u{X} and \\cX escapes as the characters they name", () => {
    expect(compilePattern("\\u0041\\u{42}").test("xABy")).toBe(true);
    expect(compilePattern("\\u{1F600}").test("smile 😀")).toBe(true);
    expect(compilePattern("a\\cIb").test("a\tb")).toBe(true);
    expect(compilePattern("\\u0041").ignoreCase).toBe(true);
  });

  it("finds the non-empty matches left to right in UTF-16 offsets, at most as many as asked", () => {
    expect(compilePattern("b").matches("😀b😀b")).toEqual([
      [2, 3],
      [5, 6],
    ]);
    expect(compilePattern("x*").matches("axxb")).toEqual([[1, 3]]);
    expect(compilePattern("a").matches("aaaa", 2)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it("keys a pattern by its source and how case is read", () => {
    expect(compilePattern("err").key).toBe(compilePattern("err").key);
    expect(compilePattern("err").key).not.toBe(compilePattern("Err").key);
  });
});

describe("a literal pattern is passed over lines that cannot hold it", () => {
  // What RE2 alone says, the literal's fast path aside: a pattern with a syntax character
  // around the same letters (`(?:…)`) is never a literal.
  const re2 = (source: string) => compilePattern(`(?:${source})`);
  const texts = [
    "an upstream timeout after 5000ms",
    "AN UPSTREAM TIMEOUT",
    "Upstream Timeout",
    "upstream\ttimeout",
    "upſtream timeout",
    "\u212Aey rotated",
    "key rotated",
    "KEY ROTATED",
    "İstanbul is",
    "istanbul is",
    "x y-z:1=2/q #tag",
    "",
    "nothing here",
  ];
  it.each([
    "upstream timeout",
    "Upstream Timeout",
    "key",
    "KEY",
    "istanbul",
    "s",
    "x y-z:1=2/q #tag",
  ])("%s matches exactly what RE2 matches", (source) => {
    const literal = compilePattern(source);
    for (const text of texts) expect(literal.test(text), text).toBe(re2(source).test(text));
  });

  it("the case-blind letters that are not ASCII still match (KELVIN SIGN, LONG S)", () => {
    expect(compilePattern("key").test("\u212Aey")).toBe(true);
    expect(compilePattern("upstream").test("upſtream")).toBe(true);
  });
});
