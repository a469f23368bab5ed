import { describe, expect, it } from "vitest";
import { MAX_DEPTH, MAX_QUERY, parseQuery, queryProblem } from "../../src/logs/field-query.js";
import { LineFields } from "../../src/logs/line-fields.js";
import { levelOfContent } from "../../src/text/log-level.js";

function holds(query: string, content: string): boolean {
  const fields = new LineFields(content);
  return parseQuery(query).matches({
    field: (p) => fields.get(p),
    level: () => levelOfContent(content) ?? "info",
  });
}

const slow = '{"level":"warn","msg":"slow call","latencyMs":312,"fields":{"service":"signer"}}';
const fast = '{"level":"info","msg":"ok","latencyMs":"12","fields":{"service":"ledger"}}';
const logfmt = 'level=error msg="payment failed" status=503 service=signer';

describe("field queries", () => {
  it("compares numbers as numbers, JSON numbers and numeric text alike", () => {
    expect(holds("latencyMs > 300", slow)).toBe(true);
    expect(holds("latencyMs > 300", fast)).toBe(false);
    expect(holds("latencyMs < 100", fast)).toBe(true);
    expect(holds("latencyMs >= 312", slow)).toBe(true);
    expect(holds("latencyMs <= 311.5", slow)).toBe(false);
    expect(holds("latencyMs = 12", fast)).toBe(true);
    expect(holds("latencyMs = 12.0", fast)).toBe(true);
    expect(holds("status >= 500", logfmt)).toBe(true);
    expect(holds("status != 503", logfmt)).toBe(false);
  });

  it("compares strings, bare or quoted, and dotted paths", () => {
    expect(holds("fields.service = signer", slow)).toBe(true);
    expect(holds("fields.service != signer", fast)).toBe(true);
    expect(holds('msg = "slow call"', slow)).toBe(true);
    expect(holds("msg = 'slow call'", slow)).toBe(true);
    expect(holds('msg = "payment failed"', logfmt)).toBe(true);
    // A quoted number is a string: compared as text.
    expect(holds('latencyMs = "312"', slow)).toBe(true);
    expect(holds('time > "2026-01-02T03:04:05Z"', '{"time":"2026-01-02T03:04:06Z"}')).toBe(true);
  });

  it("~ is a regex with smart case", () => {
    expect(holds("msg ~ slow|fail", slow)).toBe(true);
    expect(holds("msg ~ SLOW", slow)).toBe(false);
    expect(holds("msg ~ slow", '{"msg":"SLOW call"}')).toBe(true);
    expect(holds('msg ~ "^pay.*ed$"', logfmt)).toBe(true);
    expect(holds("fields ~ signer", slow)).toBe(true);
  });

  it("reads level as the filters do, in level order", () => {
    expect(holds("level >= warn", slow)).toBe(true);
    expect(holds("level >= warn", fast)).toBe(false);
    expect(holds("level = error", logfmt)).toBe(true);
    expect(holds("level > warning", logfmt)).toBe(true);
    expect(holds("level = info", "no level stated here")).toBe(true);
    expect(holds("level >= error", "ERROR boom")).toBe(true);
  });

  it("combines with and, or, not and parentheses, and binds and tighter than or", () => {
    expect(holds("latencyMs > 300 and fields.service = signer", slow)).toBe(true);
    expect(holds("latencyMs > 300 AND fields.service = ledger", slow)).toBe(false);
    expect(holds("fields.service = ledger or latencyMs > 300", slow)).toBe(true);
    expect(holds("not fields.service = ledger", slow)).toBe(true);
    expect(holds("level = error or level = warn and latencyMs > 1000", logfmt)).toBe(true);
    expect(holds("(level = error or level = warn) and latencyMs > 1000", slow)).toBe(false);
    expect(holds("not (latencyMs > 300 or fields.service = signer)", fast)).toBe(true);
    expect(holds("not (latencyMs > 300 or status > 500)", fast)).toBe(false);
  });

  it("a line without the field does not match, nor does its not", () => {
    expect(holds("latencyMs > 0", logfmt)).toBe(false);
    expect(holds("not latencyMs > 0", logfmt)).toBe(false);
    expect(holds("latencyMs != 5", logfmt)).toBe(false);
    expect(holds("latencyMs > 0 or status = 503", logfmt)).toBe(true);
    expect(holds("not (latencyMs > 0 and status = 200)", logfmt)).toBe(true);
    expect(holds("service > 3", logfmt)).toBe(false);
    expect(holds("not service > 3", logfmt)).toBe(false);
    expect(holds("msg = x", "a plain line")).toBe(false);
  });

  it("a malformed query is one line naming the token and its column", () => {
    expect(queryProblem("latencyMs >")).toBe(
      "expected a value, found the end of the query at column 12",
    );
    expect(queryProblem("latencyMs 300")).toBe(
      'expected = != > >= < <= or ~, found "300" at column 11',
    );
    expect(queryProblem("a = 1 b = 2")).toBe('expected and, or or the end, found "b" at column 7');
    expect(queryProblem("(a = 1")).toBe('expected ")", found the end of the query at column 7');
    expect(queryProblem("= 1")).toBe('expected a field name, found "=" at column 1');
    expect(queryProblem('msg = "open')).toBe('unclosed quote " at column 7');
    expect(queryProblem("level >= loud")).toBe(
      'expected a level (trace, debug, info, warn, error, fatal), found "loud" at column 10',
    );
    expect(queryProblem("msg ~ '(a'")).toMatch(/^invalid regex: .*at column 7$/);
    expect(queryProblem("msg ~ '(a)\\1'")).toMatch(/^regex refused: a backreference/);
    expect(queryProblem("a ! b")).toBe('unexpected "!" at column 3 (did you mean != ?)');
    expect(queryProblem("")).toBe("empty query: expected FIELD OP VALUE");
    for (const bad of ["a =", "a = 1 and", "not", "()", "a = 1)"]) {
      const problem = queryProblem(bad);
      expect(problem, bad).toMatch(/at column \d+$/);
      expect(problem).not.toContain("\n");
    }
  });

  it("is bounded: a long query and deep nesting are refused in one line", () => {
    expect(queryProblem(`a = ${"x".repeat(MAX_QUERY)}`)).toMatch(/^query too long: \d+ characters/);
    const deep = `${"(".repeat(MAX_DEPTH + 1)}a = 1${")".repeat(MAX_DEPTH + 1)}`;
    expect(queryProblem(deep)).toMatch(/nested more than 32 deep/);
    const nots = `${"not ".repeat(MAX_DEPTH)}a = 1`;
    expect(queryProblem(nots)).toMatch(/nested more than/);
    expect(
      queryProblem(`${"(".repeat(MAX_DEPTH - 1)}a = 1${")".repeat(MAX_DEPTH - 1)}`),
    ).toBeUndefined();
    // Long flat chains parse (no recursion per term).
    const chain = Array.from({ length: 80 }, (_, i) => `a = ${i}`).join(" or ");
    expect(holds(chain, "a=79")).toBe(true);
  });
});
