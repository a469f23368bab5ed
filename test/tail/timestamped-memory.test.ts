import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TimestampedMemory } from "../../src/tail/timestamped-memory.js";

/** The definition: a multiset of (key, content) remembered; a response's k-th sighting of one is new when k exceeds what is remembered. */
function modelDecide(remembered: Map<string, number>, response: [number, string][]): boolean[] {
  const inResponse = new Map<string, number>();
  return response.map(([key, content]) => {
    const id = `${key}|${content}`;
    const k = (inResponse.get(id) ?? 0) + 1;
    inResponse.set(id, k);
    const have = remembered.get(id) ?? 0;
    if (k > have) {
      remembered.set(id, have + 1);
      return true;
    }
    return false;
  });
}

describe("TimestampedMemory", () => {
  it("matches the k-th identical sighting to the k-th remembered line, in any order", () => {
    const m = new TimestampedMemory();
    const decide = (response: number, sightings: [number, string][]) => {
      m.beginResponse();
      return sightings.map(([k, c]) => m.sight(k, c, response));
    };
    expect(
      decide(1, [
        [5, "a"],
        [5, "a"],
        [5, "b"],
        [7, "c"],
      ]),
    ).toEqual([true, true, true, true]);
    expect(
      decide(2, [
        [5, "a"],
        [5, "b"],
        [5, "a"],
        [7, "c"],
        [5, "a"],
      ]),
    ).toEqual([false, false, false, false, true]);
    // A late line between remembered ones, then the same response listed backwards.
    expect(
      decide(3, [
        [6, "late"],
        [7, "c"],
        [5, "a"],
        [5, "a"],
        [5, "a"],
        [5, "b"],
      ]),
    ).toEqual([true, false, false, false, false, false]);
    expect(m.size()).toBe(6);
  });

  it("agrees with the definition on random overlapping responses, and prunes exactly", () => {
    const sighting = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom("a", "b", "c"));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(sighting, { maxLength: 30 }), fc.boolean()), {
          maxLength: 12,
        }),
        (responses) => {
          const m = new TimestampedMemory();
          const model = new Map<string, number>();
          responses.forEach(([sightings, sortIt], r) => {
            const list = sortIt ? [...sightings].sort((x, y) => x[0] - y[0]) : sightings;
            const want = modelDecide(model, list);
            m.beginResponse();
            const got = list.map(([k, c]) => m.sight(k, c, r));
            expect(got).toEqual(want);
          });
          const total = [...model.values()].reduce((a, b) => a + b, 0);
          expect(m.size()).toBe(total);
          m.prune(20, Number.NEGATIVE_INFINITY);
          const kept = [...model].filter(([id]) => Number(id.split("|")[0]) >= 20);
          expect(m.size()).toBe(kept.reduce((a, [, n]) => a + n, 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("matches timestamps it cannot hold exactly by their text, and prunes them by sort key", () => {
    const m = new TimestampedMemory();
    m.beginResponse();
    expect(m.sightByText("x.1", 100, "a", 1)).toBe(true);
    expect(m.sightByText("x.1", 100, "a", 1)).toBe(true);
    m.beginResponse();
    expect(m.sightByText("x.1", 100, "a", 2)).toBe(false);
    expect(m.sightByText("x.1", 100, "a", 2)).toBe(false);
    expect(m.sightByText("x.1", 100, "a", 2)).toBe(true);
    expect(m.size()).toBe(3);
    m.prune(Number.NEGATIVE_INFINITY, 101);
    expect(m.size()).toBe(0);
  });
});
