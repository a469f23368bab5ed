import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/logs/field-query.js";
import { compilePattern, FILTERED_CHARS, LineFilter } from "../../src/logs/line-filter.js";
import { logLine } from "./corpus.js";

const keeps = (f: LineFilter, content: string) =>
  f.keepsEvent([logLine("replica 1/2", content, 0)]);
const keepsEvent = (f: LineFilter, ...contents: string[]) =>
  f.keepsEvent(contents.map((c, i) => logLine("replica 1/2", c, i)));
const re = (...sources: string[]) => sources.map(compilePattern);

describe("what a filter keeps of an event", () => {
  it("include groups: every group must match, any pattern within one", () => {
    const either = new LineFilter({ include: [re("WARN", "ERROR")] });
    expect(keeps(either, "WARN slow")).toBe(true);
    expect(keeps(either, "ERROR down")).toBe(true);
    expect(keeps(either, "INFO fine")).toBe(false);
    const both = new LineFilter({ include: [re("ERROR"), re("ledger")] });
    expect(keeps(both, "ERROR ledger closed")).toBe(true);
    expect(keeps(both, "ERROR signer closed")).toBe(false);
    // An empty group narrows nothing.
    expect(new LineFilter({ include: [[]] }).narrows).toBe(false);
  });

  it("exclude: any pattern hides", () => {
    const f = new LineFilter({ exclude: re("heartbeat", "HTTP") });
    expect(keeps(f, "heartbeat ok")).toBe(false);
    expect(keeps(f, '"GET / HTTP/1.1" 200')).toBe(false);
    expect(keeps(f, "ERROR down")).toBe(true);
  });

  it("a minimum level; a line stating none counts as info", () => {
    const warn = new LineFilter({ minLevel: "warn" });
    expect(keeps(warn, "WARN slow")).toBe(true);
    expect(keeps(warn, '{"level":"error","msg":"x"}')).toBe(true);
    expect(keeps(warn, "heartbeat ok")).toBe(false);
    expect(keeps(warn, "INFO fine")).toBe(false);
    const info = new LineFilter({ minLevel: "info" });
    expect(keeps(info, "heartbeat ok")).toBe(true);
    expect(keeps(info, "DEBUG tick")).toBe(false);
  });

  it("smart case: all lower case ignores case, an upper-case letter is exact", () => {
    expect(keeps(new LineFilter({ include: [re("error")] }), '{"level":"ERROR"}')).toBe(true);
    expect(keeps(new LineFilter({ include: [re("Error")] }), "ERROR x")).toBe(false);
    expect(keeps(new LineFilter({ include: [re("\\d+ms")] }), "took 12MS")).toBe(true);
  });

  it("patterns see the first FILTERED_CHARS of a line", () => {
    const f = new LineFilter({ include: [re("needle")] });
    expect(keeps(f, `${"x".repeat(FILTERED_CHARS - 6)}needle`)).toBe(true);
    expect(keeps(f, `${"x".repeat(FILTERED_CHARS)}needle`)).toBe(false);
  });

  it("a pattern keeps no state from one line to the next", () => {
    const f = new LineFilter({ include: [re("a")] });
    expect(keeps(f, "a")).toBe(true);
    expect(keeps(f, "a")).toBe(true);
  });

  it("context applies only while something narrows", () => {
    expect(new LineFilter({ before: 2 }).hasContext).toBe(false);
    expect(new LineFilter({ before: 2, minLevel: "warn" }).hasContext).toBe(true);
  });

  it("selects by replica, asking once per replica", () => {
    let asked = 0;
    const f = new LineFilter({
      select: (l) => {
        asked++;
        return l.replicaLabel === "replica 1/2";
      },
    });
    for (let i = 0; i < 10; i++) {
      expect(f.selects(logLine("replica 1/2", "x", i))).toBe(true);
      expect(f.selects(logLine("replica 2/2", "x", i))).toBe(false);
    }
    expect(asked).toBe(2);
  });

  it("judges an event by all its lines: any line matches an include, any hides it for an exclude", () => {
    const trace = ["ERROR boom", "    at fetchNonce (a.js:1:1)", "    at main (b.js:2:2)"];
    expect(keepsEvent(new LineFilter({ include: [re("fetchNonce")] }), ...trace)).toBe(true);
    expect(keepsEvent(new LineFilter({ include: [re("fetchNonce")] }), "ERROR boom")).toBe(false);
    expect(keepsEvent(new LineFilter({ exclude: re("main") }), ...trace)).toBe(false);
    // Each include group may be met by a different line.
    expect(keepsEvent(new LineFilter({ include: [re("boom"), re("main")] }), ...trace)).toBe(true);
    expect(keepsEvent(new LineFilter({ include: [re("boom"), re("other")] }), ...trace)).toBe(
      false,
    );
    // The level is the event's first line's.
    expect(keepsEvent(new LineFilter({ minLevel: "error" }), ...trace)).toBe(true);
    expect(keepsEvent(new LineFilter({ minLevel: "error" }), "INFO x", "    ERROR inside")).toBe(
      false,
    );
  });

  it("field queries: each must hold for some line, read with the event's level", () => {
    const where = (...q: string[]) => new LineFilter({ where: q.map(parseQuery) });
    const slow = '{"level":"warn","latencyMs":312,"service":"signer"}';
    expect(where("latencyMs > 300").narrows).toBe(true);
    expect(keeps(where("latencyMs > 300"), slow)).toBe(true);
    expect(keeps(where("latencyMs > 300", "service = ledger"), slow)).toBe(false);
    expect(keeps(where("latencyMs > 300", "service = signer"), slow)).toBe(true);
    expect(keeps(where("latencyMs > 300"), "latencyMs 400")).toBe(false);
    expect(keeps(where("latencyMs > 300"), "took latencyMs=400")).toBe(true);
    expect(keepsEvent(where("level >= warn and service = signer"), slow, "  detail")).toBe(true);
    expect(keepsEvent(where("level >= error"), "ERROR x", "    at y")).toBe(true);
  });
});
