import { describe, expect, it } from "vitest";
import {
  CELL_MAX_WIDTH,
  CONTINUATION_INDENT,
  FieldColumns,
  LAYOUT_WINDOW,
} from "../../../src/logs/formats/field-columns.js";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { sampleLine } from "../corpus.js";

const line = (content: string, over: Partial<LogLine> = {}): LogLine =>
  sampleLine({ content, ...over });

/** Every row of a window, its widths settled over the window first. */
function rows(columns: FieldColumns, lines: LogLine[]): string[] {
  columns.measure(lines.map((l) => ({ line: l })));
  return lines.map((l) => columns.row(l));
}

describe("FieldColumns", () => {
  it("lines up JSON paths and key=value keys, an empty cell where a line has no field", () => {
    const columns = new FieldColumns(["service", "latencyMs", "msg"], { utc: true });
    const out = rows(columns, [
      line('{"service":"signer","latencyMs":812,"msg":"slow sign"}'),
      line("service=api latencyMs=5 msg=ok"),
      line('{"latencyMs":31,"msg":"no service"}'),
    ]);
    expect(out).toEqual(["signer  812  slow sign", "api     5    ok", "        31   no service"]);
  });

  it("reads dotted paths, objects as JSON, and the pseudo-fields time, replica and level", () => {
    const columns = new FieldColumns(["time", "replica", "level", "fields.req", "msg"], {
      utc: true,
    });
    const [row] = rows(columns, [
      line('{"level":"warn","fields":{"req":{"id":7}},"message":"retrying"}'),
    ]);
    expect(row).toBe('2026-11-18T11:06:40.000000005Z  replica 2/3  warn  {"id":7}  retrying');
  });

  it("takes a line that is not JSON whole as its msg (unless it has a msg pair), and leaves other fields empty", () => {
    const columns = new FieldColumns(["service", "msg"], { utc: true });
    expect(rows(columns, [line("plain text, no fields")])).toEqual(["  plain text, no fields"]);
    expect(rows(columns, [line("INFO request ok seq=4")])).toEqual(["  INFO request ok seq=4"]);
    expect(rows(columns, [line("service=api msg=ok")])).toEqual(["api  ok"]);
    const structured = new FieldColumns(["msg", "service"], { utc: true });
    expect(rows(structured, [line('{"service":"s"}')])).toEqual(["  s"]);
  });

  it("cuts a long cell with an ellipsis at the most a column is, but never the last column", () => {
    const long = "x".repeat(CELL_MAX_WIDTH + 20);
    const columns = new FieldColumns(["a", "b"], { utc: true });
    const [row] = rows(columns, [line(`a=${long} b=${long}`)]);
    expect(row).toBe(`${"x".repeat(CELL_MAX_WIDTH - 1)}…  ${long}`);
  });

  it("sanitizes every cell: escapes, bidi controls and newlines are shown inert", () => {
    const columns = new FieldColumns(["a", "msg"], { utc: true });
    const [row] = rows(columns, [
      line(JSON.stringify({ a: "\u001b[2Jx", msg: "one\nline\u202e" })),
    ]);
    expect(row).toBe("\\x1b[2Jx  one\\x0aline\\u202e");
    expect(row).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it("prints a continuing line whole, indented under its event, and keeps its cells out of the widths", () => {
    const columns = new FieldColumns(["a", "msg"], { utc: true });
    const head = line('{"a":"1","msg":"failed"}');
    const frame = line("    at fetchNonce (nonce.ts:12) and a long frame text");
    columns.measure([{ line: head }, { line: frame, head }]);
    expect(columns.row(head)).toBe("1  failed");
    expect(columns.row(frame, head)).toBe(`${CONTINUATION_INDENT}${frame.content}`);
  });

  it("widens a column in a later window, never narrows it", () => {
    const columns = new FieldColumns(["a", "b"], { utc: true });
    expect(rows(columns, [line("a=long-value b=1")])).toEqual(["long-value  1"]);
    expect(rows(columns, [line("a=s b=2")])).toEqual(["s           2"]);
    expect(rows(columns, [line("a=an-even-longer-value b=3")])).toEqual([
      "an-even-longer-value  3",
    ]);
  });

  it("settles widths over at most LAYOUT_WINDOW lines: a wider line past the window widens as it prints", () => {
    const columns = new FieldColumns(["a", "b"], { utc: true });
    const lines = Array.from({ length: LAYOUT_WINDOW }, () => line("a=x b=1"));
    lines.push(line("a=wider b=2"));
    const out = rows(columns, lines);
    expect(out[0]).toBe("x  1");
    expect(out[LAYOUT_WINDOW]).toBe("wider  2");
  });
});
