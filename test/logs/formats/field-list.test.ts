import { describe, expect, it } from "vitest";
import { MAX_FIELDS, parseFieldList } from "../../../src/logs/formats/field-list.js";

describe("parseFieldList", () => {
  it("reads names separated by commas, spaces around them trimmed", () => {
    expect(parseFieldList("time, replica,msg,fields.service")).toEqual([
      "time",
      "replica",
      "msg",
      "fields.service",
    ]);
  });

  it("refuses an empty list, an empty name, a repeated name and too many, each in one line", () => {
    expect(() => parseFieldList("")).toThrow(/give the fields to show/);
    expect(() => parseFieldList("time,,msg")).toThrow("field 2 is empty");
    expect(() => parseFieldList("msg,msg")).toThrow('field "msg" is named twice');
    expect(() => parseFieldList("a b")).toThrow(/holds a space/);
    const many = Array.from({ length: MAX_FIELDS + 1 }, (_, i) => `f${i}`).join(",");
    expect(() => parseFieldList(many)).toThrow(`at most ${MAX_FIELDS} columns`);
  });
});
