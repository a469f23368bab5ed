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
      const decided = sightings.map(([k, c]) => m.sight(k, c, response));
      m.endResponse();
      return decided;
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

  it.each([
    ["spread timestamps", 40, 30],
    ["many lines on few timestamps", 2, 150],
  ])(
    "agrees with the definition on random overlapping responses (%s), and forgets by last sighting",
    (_name, maxKey, maxLines) => {
      const sighting = fc.tuple(
        fc.integer({ min: 0, max: maxKey }),
        fc.constantFrom("a", "b", "c"),
      );
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.array(sighting, { maxLength: maxLines }), fc.boolean()), {
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
              m.endResponse();
              expect(got).toEqual(want);
            });
            const total = [...model.values()].reduce((a, b) => a + b, 0);
            expect(m.size()).toBe(total);
            // Forget what the last two responses did not hold: nothing they held goes, and with
            // nothing held at all, everything goes.
            const before = responses.length - 2;
            const held = new Map<string, number>();
            responses.slice(Math.max(0, before)).forEach(([sightings]) => {
              const counts = new Map<string, number>();
              for (const [k, c] of sightings) {
                const id = `${k}|${c}`;
                counts.set(id, (counts.get(id) ?? 0) + 1);
              }
              for (const [id, n] of counts) held.set(id, Math.max(held.get(id) ?? 0, n));
            });
            m.prune(before);
            const mustKeep = [...held.values()].reduce((a, b) => a + b, 0);
            expect(m.size()).toBeGreaterThanOrEqual(mustKeep);
            expect(m.size()).toBeLessThanOrEqual(total);
            if (mustKeep === 0) expect(m.size()).toBe(0);
            const size = m.size();
            m.beginResponse();
            for (const [id, n] of held) {
              const [k, c] = id.split("|");
              for (let j = 0; j < n; j++) expect(m.sight(Number(k), c as string, 99)).toBe(false);
            }
            m.endResponse();
            expect(m.size()).toBe(size);
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it("matches timestamps it cannot hold exactly by their text, and forgets them by last sighting", () => {
    const m = new TimestampedMemory();
    m.beginResponse();
    expect(m.sightByText("x.1", "a", 1)).toBe(true);
    expect(m.sightByText("x.1", "a", 1)).toBe(true);
    m.beginResponse();
    expect(m.sightByText("x.1", "a", 2)).toBe(false);
    expect(m.sightByText("x.1", "b", 2)).toBe(true);
    expect(m.size()).toBe(3);
    m.prune(2);
    // The one not re-sent in response 2 is forgotten.
    expect(m.size()).toBe(2);
    m.prune(3);
    expect(m.size()).toBe(0);
  });

  it("forgets a line only once responses stop re-sending it, whatever its timestamp", () => {
    const m = new TimestampedMemory();
    const farPast = -1e15;
    const farFuture = 1e15;
    // Every response re-sends a line stamped far in the past and one far ahead, beside a moving
    // window of ordinary lines.
    for (let r = 0; r < 2000; r++) {
      m.beginResponse();
      expect(m.sight(farPast, "1970", r)).toBe(r === 0);
      for (let k = r * 10; k < r * 10 + 30; k++) m.sight(k, `line ${k}`, r);
      expect(m.sight(farFuture, "ahead", r)).toBe(r === 0);
      m.endResponse();
      m.prune(r - 3);
      // Memory stays bounded although the line at the front is never forgotten.
      expect(m.size()).toBeLessThan(2 * 60 + 1024 + 2);
    }
  });

  it("stays near-linear on hostile orders: one timestamp for every line, shuffled, or backwards", () => {
    const n = 60_000;
    const lines = Array.from({ length: n }, (_, i) => `line ${i}`);
    const shuffled = [...lines].sort(
      (a, b) =>
        ((a.length * 7919 + a.charCodeAt(a.length - 1)) % 13) -
        ((b.length * 7919 + b.charCodeAt(b.length - 1)) % 13),
    );
    const m = new TimestampedMemory();
    // The same instant for every line, re-sent in another order.
    for (const [r, list] of [lines, shuffled, lines].entries()) {
      m.beginResponse();
      let fresh = 0;
      for (const c of list) if (m.sight(42, c, r)) fresh++;
      m.endResponse();
      expect(fresh).toBe(r === 0 ? n : 0);
    }
    // Every line older than the one before it, all new, then re-sent in order.
    const backwards = new TimestampedMemory();
    for (const r of [0, 1]) {
      backwards.beginResponse();
      let fresh = 0;
      for (let i = 0; i < n; i++) {
        const key = r === 0 ? n - i : i + 1;
        if (backwards.sight(key, `at ${key}`, r)) fresh++;
      }
      backwards.endResponse();
      expect(fresh).toBe(r === 0 ? n : 0);
    }
    // Quadratic work would take minutes here, past the test's time-out.
  });
});
