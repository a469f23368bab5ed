import { describe, expect, it } from "vitest";
import type { DebugLogEntry } from "../../src/api/schemas.js";
import { Deduplicator } from "../../src/tail/deduplicator.js";

const e = (
  replica: number,
  seconds: number,
  nanos: number,
  content: string,
  ts = true,
): DebugLogEntry => ({
  replicaLabel: `replica ${replica}/2`,
  line: ts ? { content, ts: { seconds: String(seconds), nanos: String(nanos) } } : { content },
});

const contents = (d: Deduplicator, entries: DebugLogEntry[]) =>
  d
    .accept(entries, 0)
    .indexes.map((i) => `${entries[i]?.replicaLabel}|${entries[i]?.line.content}`);

describe("Deduplicator", () => {
  it("keeps two identical lines at the same nanosecond, and drops them when re-sent", () => {
    const d = new Deduplicator();
    const first = [e(1, 100, 5, "same"), e(1, 100, 5, "same"), e(2, 100, 5, "same")];
    expect(contents(d, first)).toHaveLength(3);
    expect(contents(d, first)).toEqual([]);
    // A third identical line appears later (late arrival): only it is new.
    expect(contents(d, [...first, e(1, 100, 5, "same")])).toEqual(["replica 1/2|same"]);
  });

  it("counts identical lines right even when a response is not in timestamp order", () => {
    const d = new Deduplicator();
    const unsorted = [e(1, 101, 0, "b"), e(1, 100, 0, "a"), e(1, 101, 0, "b"), e(1, 100, 0, "a")];
    expect(contents(d, unsorted)).toHaveLength(4);
    expect(
      contents(d, [
        e(1, 100, 0, "a"),
        e(1, 100, 0, "a"),
        e(1, 101, 0, "b"),
        e(1, 101, 0, "b"),
        e(1, 101, 0, "b"),
      ]),
    ).toEqual(["replica 1/2|b"]);
  });

  it("distinguishes timestamps a nanosecond apart, and timestamps far from the first one", () => {
    const d = new Deduplicator();
    expect(contents(d, [e(1, 1_795_000_000, 1, "x"), e(1, 1_795_000_000, 2, "x")])).toHaveLength(2);
    expect(
      contents(d, [
        e(1, 1_795_000_000, 2, "x"),
        e(1, 1_995_000_000, 2, "x"),
        e(1, 1_995_000_000, 2, "x"),
      ]),
    ).toHaveLength(2);
    expect(contents(d, [e(1, 1_995_000_000, 2, "x"), e(1, 1_995_000_000, 2, "x")])).toEqual([]);
  });

  it("recognises an untimestamped line again when late lines land beside it", () => {
    const d = new Deduplicator();
    expect(contents(d, [e(1, 100, 0, "A"), e(1, 0, 0, "x", false)])).toHaveLength(2);
    expect(
      contents(d, [
        e(1, 100, 0, "A"),
        e(1, 100, 500, "late"),
        e(1, 0, 0, "x", false),
        e(1, 101, 0, "B"),
      ]),
    ).toEqual(["replica 1/2|late", "replica 1/2|B"]);
  });

  it("forgets what no later window can re-send", () => {
    const d = new Deduplicator();
    d.accept([e(1, 100, 0, "a"), e(1, 200, 0, "b")], 0);
    expect(d.size()).toBe(2);
    d.prune(150_000);
    expect(d.size()).toBe(1);
  });
});
