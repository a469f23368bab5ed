import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertSorted } from "../../../src/logs/model/sorted-insert.js";

describe("insertSorted", () => {
  it("gives what a stable sort of all rows by key gives, past the rows before `from`", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 5 }),
        (heldKeys, batchKeys, dropped) => {
          const held = [...heldKeys].sort((a, b) => a - b).map((k, i) => ({ k, id: `h${i}` }));
          const from = Math.min(dropped, held.length);
          const batch = batchKeys.map((k, i) => ({ k, id: `b${i}` }));
          const rows = held.slice();
          const ids = rows.map((r) => r.id);
          insertSorted(rows, from, batch, (r) => r.k, { rows: ids, batch: batch.map((r) => r.id) });
          // The companion array moved the same way.
          expect(ids.slice(from)).toEqual(rows.slice(from).map((r) => r.id));
          expect(rows.slice(0, from)).toEqual(held.slice(0, from));
          // Rows held before the batch come first among equal keys; the batch keeps its order.
          const want = [...held.slice(from), ...batch].sort((a, b) => a.k - b.k);
          expect(rows.slice(from)).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });
});
