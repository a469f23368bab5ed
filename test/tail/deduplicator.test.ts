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

/** No Date headers: where a window began is known on the monotonic clock only. */
const NONE = Number.NEGATIVE_INFINITY;

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

  it("takes an untimestamped line for a new one when it cannot be the remembered one", () => {
    const d = new Deduplicator();
    // x (no timestamp) between A and B; then the window moves past B, and an identical x printed
    // after B comes back without a previous neighbour. It lies after B, the old x before it.
    expect(
      contents(d, [e(1, 100, 0, "A"), e(1, 0, 0, "x", false), e(1, 101, 0, "B")]),
    ).toHaveLength(3);
    expect(contents(d, [e(1, 0, 0, "x", false), e(1, 105, 0, "C")])).toEqual([
      "replica 1/2|x",
      "replica 1/2|C",
    ]);
  });

  it("recognises untimestamped lines again once a line stamped far ahead after them goes", () => {
    const d = new Deduplicator();
    // No Date header: nothing tells that H, stamped a year ahead, is out of place, and it is taken
    // for the next neighbour of x, then of y. The server stops sending it; A and B are still
    // there, so H did not fall away at the window's front: x and y are the lines seen before.
    const A = e(1, 100, 0, "A");
    const B = e(1, 101, 0, "B");
    const H = e(1, 100 + 365 * 86_400, 0, "H");
    const x = e(1, 0, 0, "x", false);
    const y = e(1, 0, 0, "y", false);
    expect(contents(d, [A, x, H])).toHaveLength(3);
    expect(contents(d, [A, x, B, y, H])).toEqual(["replica 1/2|B", "replica 1/2|y"]);
    expect(contents(d, [A, x, B, y])).toEqual([]);
    expect(contents(d, [x, B, y, e(1, 102, 0, "C")])).toEqual(["replica 1/2|C"]);
  });

  it("tells a next neighbour out of place from one that fell away by how far the window's front moved", () => {
    // x between A and H (stamped a year ahead); the front then passes A and H goes in the same
    // answer, where x has only a line stamped in 1970 before it. Fronts 2 s apart: x was ahead of
    // the front, H a year after x can have gone only from behind it: x is the line seen before.
    const A = e(1, 100, 0, "A");
    const H = e(1, 100 + 365 * 86_400, 0, "H");
    const old = e(1, 0, 0, "1970");
    const x = e(1, 0, 0, "x", false);
    const near = new Deduplicator();
    near.accept([old, A, x, H], 0, Number.POSITIVE_INFINITY, {
      low: 0,
      high: 100,
      serverLow: NONE,
    });
    expect(
      near.accept([old, x], 0, Number.POSITIVE_INFINITY, { low: 2000, high: 2100, serverLow: NONE })
        .indexes,
    ).toEqual([]);
    // With no front known (a window of tailLines) nothing says H did not fall away with x.
    const unknown = new Deduplicator();
    unknown.accept([old, A, x, H], 0);
    expect(unknown.accept([old, x], 0).indexes).toEqual([1]);
    // Nor when the fronts moved further than from A to H (in the fiction of this test).
    const far = new Deduplicator();
    far.accept([old, A, x, H], 0, Number.POSITIVE_INFINITY, { low: 0, high: 100, serverLow: NONE });
    const year = 365 * 86_400_000;
    expect(
      far.accept([old, x], 0, Number.POSITIVE_INFINITY, {
        low: year,
        high: year + 100,
        serverLow: NONE,
      }).indexes,
    ).toEqual([1]);
  });

  it("takes no line stamped outside its window, on the server's clock, for a neighbour", () => {
    // The window began at 95 s (Date headers say so) and was answered by 110 s: the line stamped
    // in 1970 and the one stamped a year ahead were sent whatever the window. x lies before B.
    const d = new Deduplicator();
    const entries = [
      e(1, 0, 0, "1970"),
      e(1, 0, 0, "x", false),
      e(1, 101, 0, "B"),
      e(1, 100 + 365 * 86_400, 0, "ahead"),
      e(1, 0, 0, "y", false),
    ];
    const { keys } = d.accept(entries, 50_000, 110_000, { low: 0, high: 100, serverLow: 95_000 });
    expect(keys[1]).toBe(101_000);
    expect(keys[4]).toBe(101_000);
    // Without Date headers nothing says so: x is placed after the line stamped in 1970.
    const blind = new Deduplicator();
    expect(blind.accept(entries, 50_000).keys[1]).toBe(0);
  });

  it("lines up untimestamped lines by sequence when the window's front cuts some away", () => {
    const d = new Deduplicator();
    const at = (s: number) => e(1, s, 0, "K");
    const x = e(1, 0, 0, "x", false);
    // Three x between 100 and 102, two more between two lines of the same instant 102.
    const all = [at(100), x, x, x, at(102), at(102), x, x, at(102)];
    expect(contents(d, all)).toHaveLength(9);
    // The front falls away up to the first 102: the two x left are the last two remembered.
    expect(contents(d, [at(102), at(102), x, x, at(102)])).toEqual([]);
    // A wider window brings the first three back: still nothing new.
    expect(contents(d, all)).toEqual([]);
  });

  it("places a new untimestamped line by the order of the ones around it", () => {
    const d = new Deduplicator();
    const b = e(1, 0, 0, "b", false);
    const a = e(1, 0, 0, "a", false);
    d.accept([e(1, 100, 0, "t"), b, a, a], 0);
    // Later a timestamped line and another b arrive after them: the old b is the first one.
    const next = [e(1, 100, 0, "t"), b, a, a, e(1, 101, 0, "u"), b];
    expect(d.accept(next, 0).indexes).toEqual([4, 5]);
  });

  it("forgets what a later response did not re-send, timestamped or not, by response number", () => {
    const d = new Deduplicator();
    expect(d.nextResponse()).toBe(0);
    d.accept([e(1, 100, 0, "a"), e(1, 0, 0, "x", false), e(1, 200, 0, "b")], 0);
    // The window moved past a and x; b, and a line stamped a day ahead, are sent.
    d.accept([e(1, 200, 0, "b"), e(1, 200 + 86_400, 0, "ahead")], 0);
    expect(d.nextResponse()).toBe(2);
    expect(d.size()).toBe(4);
    d.prune(1);
    expect(d.size()).toBe(2);
    // What is still re-sent is still recognised, however far its timestamp.
    expect(contents(d, [e(1, 200, 0, "b"), e(1, 200 + 86_400, 0, "ahead")])).toEqual([]);
  });
});
