/**
 * Short deployment labels (src/logs/model/deployment-labels.ts): the same labels as the definition
 * (the shortest prefix, at least MIN_LABEL characters, that no other id shares), found from
 * sorted neighbours, so ten thousand ids with a long common prefix cost no more than sorting.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_LABEL, shortLabels } from "../../../src/logs/model/deployment-labels.js";

/** The definition, tried prefix by prefix against every other id. */
function byDefinition(ids: readonly string[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const id of ids) {
    let n = Math.min(MIN_LABEL, id.length);
    while (n < id.length && ids.some((o) => o !== id && o.startsWith(id.slice(0, n)))) n++;
    labels.set(id, id.slice(0, n));
  }
  return labels;
}

describe("shortLabels", () => {
  it("gives the labels of the definition, in the ids' order, a repeated id once", () => {
    // Few letters: ids share long prefixes, some are prefixes of others, some repeat.
    const id = fc.string({ unit: fc.constantFrom("a", "b", "0"), maxLength: 14 });
    fc.assert(
      fc.property(fc.array(id, { maxLength: 40 }), (ids) => {
        const labels = shortLabels(ids);
        expect([...labels]).toEqual([...byDefinition([...new Set(ids)])]);
      }),
      { numRuns: 500 },
    );
  });

  it("labels every id apart: no label is a prefix of another id", () => {
    const ids = ["9463b164-aaaa", "9463b1ff-bbbb", "9463b1ff-bbbc", "b4f9e00e-cccc", "abc"];
    const labels = shortLabels(ids);
    expect([...labels.values()]).toEqual([
      "9463b16",
      "9463b1ff-bbbb",
      "9463b1ff-bbbc",
      "b4f9e0",
      "abc",
    ]);
  });

  it("labels 10,000 ids with a 200-character common prefix in one sort", {
    timeout: 20_000,
  }, () => {
    const prefix = "d".repeat(200);
    const ids = Array.from({ length: 10_000 }, (_, i) => `${prefix}${String(i).padStart(6, "0")}`);
    const labels = shortLabels(ids);
    expect(labels.size).toBe(10_000);
    expect(labels.get(`${prefix}004711`)).toBe(`${prefix}004711`);
    expect(new Set(labels.values()).size).toBe(10_000);
  });
});
