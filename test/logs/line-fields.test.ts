import { describe, expect, it } from "vitest";
import { keyValuePairs, LineFields } from "../../src/logs/line-fields.js";

describe("LineFields", () => {
  it("reads a JSON line's fields by dotted path, a dotted key whole first", () => {
    const f = new LineFields(
      '{"level":"info","latencyMs":312,"fields":{"service":"signer","tags":["a"]},"http.status":503}',
    );
    expect(f.get("latencyMs")).toBe(312);
    expect(f.get("fields.service")).toBe("signer");
    expect(f.get("fields.tags.0")).toBe("a");
    expect(f.get("http.status")).toBe(503);
    expect(f.get("fields.missing")).toBeUndefined();
    expect(f.get("latencyMs.x")).toBeUndefined();
    expect(f.get("toString")).toBeUndefined();
  });

  it("reads key=value pairs of any other line, quoted values whole", () => {
    const f = new LineFields('2026-01-02 WARN level=warn msg="retrying soon" attempt=2 x="a\\"b"');
    expect(f.get("msg")).toBe("retrying soon");
    expect(f.get("attempt")).toBe("2");
    expect(f.get("level")).toBe("warn");
    expect(f.get("x")).toBe('a"b');
    expect(f.get("WARN")).toBeUndefined();
  });

  it("reads a line that only looks like JSON as key=value", () => {
    expect(new LineFields("{not json} status=500").get("status")).toBe("500");
  });

  it("keeps the first of a repeated key and takes keys only at word starts", () => {
    const pairs = keyValuePairs("a=1 a=2 url=http://x/?q=3");
    expect(pairs.get("a")).toBe("1");
    expect(pairs.get("url")).toBe("http://x/?q=3");
    expect(pairs.has("q")).toBe(false);
  });
});
