import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LogEvent, LogLine } from "../../../src/logs/model/log-line.js";
import { LogStore } from "../../../src/logs/model/log-store.js";

const line = (
  sortKey: number,
  content = `at ${sortKey}`,
  replicaLabel = "replica 1/1",
): LogLine => ({
  kind: "line",
  replicaLabel,
  seconds: String(Math.floor(sortKey / 1000)),
  nanos: 0,
  sortKey,
  content,
  late: false,
});

const contents = (store: LogStore) =>
  store
    .slice(0, store.size())
    .map((row) => (row.event.kind === "line" ? row.event.content : "GAP"));

describe("LogStore", () => {
  it("appends in order and inserts a late line in its place, after equal keys", () => {
    const store = new LogStore();
    store.append([line(1), line(2), line(4)]);
    store.append([line(3), line(2, "second at 2"), line(5)]);
    store.append([line(0)]);
    expect(contents(store)).toEqual([
      "at 0",
      "at 1",
      "at 2",
      "second at 2",
      "at 3",
      "at 4",
      "at 5",
    ]);
    // Ids follow arrival, so a row keeps its React key when a late line lands before it.
    const ids = store.slice(0, store.size()).map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps at most maxLines, dropping the oldest", () => {
    const store = new LogStore({ maxLines: 3 });
    store.append([line(1), line(2), line(3), line(4)]);
    store.append([line(5)]);
    expect(contents(store)).toEqual(["at 3", "at 4", "at 5"]);
    expect(store.evicted()).toBe(2);
    // A line older than everything held goes in, then out at once: the cap holds.
    store.append([line(0)]);
    expect(contents(store)).toEqual(["at 3", "at 4", "at 5"]);
  });

  it("keeps under maxBytes, dropping the oldest", () => {
    const store = new LogStore({ maxBytes: 1000 });
    const big = "x".repeat(300);
    for (let i = 0; i < 10; i++) store.append([line(i, `${i} ${big}`)]);
    expect(store.byteSize()).toBeLessThanOrEqual(1000);
    expect(store.size()).toBe(2);
    expect(contents(store)[1]).toMatch(/^9 /);
  });

  it("tells subscribers of every change once per batch, with a new version", () => {
    const store = new LogStore();
    let calls = 0;
    const unsubscribe = store.subscribe(() => {
      calls += 1;
    });
    const v0 = store.getVersion();
    store.append([line(1), line(2)]);
    store.append([]);
    expect(calls).toBe(1);
    expect(store.getVersion()).toBeGreaterThan(v0);
    store.clear();
    expect(calls).toBe(2);
    expect(store.size()).toBe(0);
    unsubscribe();
    store.append([line(3)]);
    expect(calls).toBe(2);
  });

  it("slices within bounds and reads rows by index", () => {
    const store = new LogStore();
    store.append([line(1), line(2), line(3)]);
    expect(store.slice(-5, 2).map((r) => r.event.sortKey)).toEqual([1, 2]);
    expect(store.slice(2, 99).map((r) => r.event.sortKey)).toEqual([3]);
    expect(store.slice(2, 1)).toEqual([]);
    expect(store.at(1)?.event.sortKey).toBe(2);
    expect(store.at(3)).toBeUndefined();
  });

  it("stays in timestamp order and at its cap whatever arrives, late or not, over many evictions", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 400 }), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 700 }),
        (batches, maxLines) => {
          const store = new LogStore({ maxLines });
          const all: LogEvent[] = [];
          for (const keys of batches) {
            const events = keys.map((k) => line(k));
            store.append(events);
            all.push(...events);
          }
          expect(store.size()).toBe(Math.min(maxLines, all.length));
          const held = store.slice(0, store.size()).map((r) => r.event.sortKey);
          for (let i = 1; i < held.length; i++)
            expect(held[i]).toBeGreaterThanOrEqual(held[i - 1] as number);
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });
});
