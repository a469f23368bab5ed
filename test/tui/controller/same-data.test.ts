import { describe, expect, it } from "vitest";
import { sameData } from "../../../src/tui/controller/same-data.js";

describe("sameData", () => {
  it("holds for the same primitives, arrays and plain objects, made apart", () => {
    expect(sameData(1, 1)).toBe(true);
    expect(sameData(Number.NaN, Number.NaN)).toBe(true);
    expect(sameData("a", "a")).toBe(true);
    expect(sameData(undefined, undefined)).toBe(true);
    expect(sameData([1, { a: "x", b: [true] }], [1, { a: "x", b: [true] }])).toBe(true);
    expect(sameData(Object.assign(Object.create(null), { a: 1 }), { a: 1 })).toBe(true);
  });

  it("fails for other values, keys or lengths, and an array beside an object", () => {
    expect(sameData(0, -0)).toBe(false);
    expect(sameData(1, "1")).toBe(false);
    expect(sameData(null, {})).toBe(false);
    expect(sameData({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameData({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameData({ a: undefined }, {})).toBe(false);
    expect(sameData({}, { a: undefined })).toBe(false);
    expect(sameData([1, 2], [1, 2, 3])).toBe(false);
    expect(sameData([], {})).toBe(false);
    expect(sameData({}, [])).toBe(false);
  });

  it("holds for anything else only when it is the same object", () => {
    const f = () => 1;
    const m = new Map([[1, 2]]);
    expect(sameData({ f, m }, { f, m })).toBe(true);
    expect(sameData({ f }, { f: () => 1 })).toBe(false);
    expect(sameData(m, new Map([[1, 2]]))).toBe(false);
    expect(sameData(new Date(0), new Date(0))).toBe(false);
    class Point {
      constructor(readonly x: number) {}
    }
    expect(sameData(new Point(1), new Point(1))).toBe(false);
  });

  it("tells data nested too deep different rather than compare it", () => {
    const deep = (n: number): unknown => (n === 0 ? 1 : { next: deep(n - 1) });
    expect(sameData(deep(10), deep(10))).toBe(true);
    expect(sameData(deep(100), deep(100))).toBe(false);
    const shared = deep(100);
    expect(sameData({ a: shared }, { a: shared })).toBe(true);
  });
});
