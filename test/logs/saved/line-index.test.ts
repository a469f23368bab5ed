/**
 * A large file's pieces are indexed into windows of one set of shared columns
 * (src/logs/saved/line-index.ts): each window holds its own lines, one that outgrows its slots
 * moves them to columns of its own, and the pieces put together in file order read as one index
 * would, the lines of one window moved after the other's in the same columns.
 */
import { describe, expect, it } from "vitest";
import { type LineColumns, LineIndex, sharedColumns } from "../../../src/logs/saved/line-index.js";
import { pieceTransfer } from "../../../src/logs/saved/piece-protocol.js";

/** Line `i` of a piece: its start, length, key, flags, stream and content span, from `i`. */
function fill(ix: LineIndex, from: number, count: number, stream: (i: number) => number): void {
  for (let i = from; i < from + count; i++)
    ix.push(i * 100, 90 + (i % 7), i * 3, i % 8, stream(i), i % 5, i % 3);
}

function rows(ix: LineIndex): string[] {
  const out: string[] = [];
  for (let n = ix.first(); n < ix.next(); n++)
    out.push(
      [
        ix.start(n),
        ix.length(n),
        ix.key(n),
        ix.flags(n),
        ix.stream(n),
        ix.contentStart(n),
        ix.contentTail(n),
      ].join(" "),
    );
  return out;
}

/** The pieces put together as ./saved-file.ts puts them: the first's columns, the rest after. */
function together(pieces: LineColumns[], streamOf: Uint32Array[]): LineIndex {
  const whole = LineIndex.adopt({ ...(pieces[0] as LineColumns), size: 0 });
  pieces.forEach((c, k) => {
    whole.append(c, streamOf[k] as Uint32Array);
  });
  return whole;
}

const isShared = (c: LineColumns) =>
  [c.starts, c.lengths, c.keys, c.flags, c.streams, c.contentFrom, c.contentAfter].map(
    (a) => a.buffer instanceof SharedArrayBuffer,
  );

describe("windows of shared columns", () => {
  it("hold each piece's lines in their own slots; put together, the second's lines are moved after the first's in place", () => {
    const shared = sharedColumns(10_000);
    const a = LineIndex.window(shared, 0, 4000);
    const b = LineIndex.window(shared, 4000, 10_000);
    fill(b, 3000, 5000, (i) => i % 4);
    fill(a, 0, 3000, (i) => i % 3);
    expect([a.size(), b.size()]).toEqual([3000, 5000]);
    const whole = together(
      [a.columns(), b.columns()],
      [Uint32Array.of(0, 1, 2), Uint32Array.of(2, 3, 4, 5)],
    );
    // One index made at once, its streams as the whole's (the second piece's 0..3 as 2..5).
    const one = new LineIndex(16);
    fill(one, 0, 3000, (i) => i % 3);
    fill(one, 3000, 5000, (i) => (i % 4) + 2);
    expect(rows(whole)).toEqual(rows(one));
    expect(isShared(whole.columns())).toEqual(Array(7).fill(true));
    // Shared columns are shared with the thread that has them, not handed over.
    expect(pieceTransfer({ columns: b.columns() } as Parameters<typeof pieceTransfer>[0])).toEqual(
      [],
    );
  });

  it("a piece with more lines than its window moves them to columns of its own, and is put together the same", () => {
    const shared = sharedColumns(3000);
    const a = LineIndex.window(shared, 0, 1000);
    const b = LineIndex.window(shared, 1000, 3000);
    fill(a, 0, 1500, () => 1);
    fill(b, 1500, 2500, () => 0);
    expect(isShared(a.columns())).toEqual(Array(7).fill(false));
    expect(isShared(b.columns())).toEqual(Array(7).fill(false));
    // What outgrew its window wrote nothing into the next one's slots.
    const whole = together([a.columns(), b.columns()], [Uint32Array.of(0, 1), Uint32Array.of(2)]);
    const one = new LineIndex(16);
    fill(one, 0, 1500, () => 1);
    fill(one, 1500, 2500, () => 2);
    expect(rows(whole)).toEqual(rows(one));
    expect(
      pieceTransfer({ columns: a.columns() } as Parameters<typeof pieceTransfer>[0]),
    ).toHaveLength(7);
  });

  it("the first piece outgrown, the second still shared; a stream past 65,535 widens one column only", () => {
    const shared = sharedColumns(5000);
    const a = LineIndex.window(shared, 0, 500);
    const b = LineIndex.window(shared, 500, 5000);
    fill(a, 0, 800, (i) => i % 2);
    fill(b, 800, 2000, (i) => (i === 900 ? 70_000 : 7));
    const bc = b.columns();
    expect(isShared(bc)).toEqual([true, true, true, true, false, true, true]);
    const whole = together([a.columns(), bc], [Uint32Array.of(0, 1), new Uint32Array(0)]);
    const one = new LineIndex(16);
    fill(one, 0, 800, (i) => i % 2);
    fill(one, 800, 2000, (i) => (i === 900 ? 70_000 : 7));
    expect(rows(whole)).toEqual(rows(one));
  });

  it("lets its oldest lines go (a cap) and hands over only the lines it holds", () => {
    const shared = sharedColumns(2000);
    const a = LineIndex.window(shared, 100, 2000);
    fill(a, 0, 1000, () => 0);
    a.dropFront(400);
    const c = a.columns();
    expect([c.from, c.size]).toEqual([500, 600]);
    const whole = LineIndex.adopt({ ...c, size: 0 });
    whole.append(c, new Uint32Array(0));
    const one = new LineIndex(16);
    fill(one, 400, 600, () => 0);
    expect(rows(whole)).toEqual(rows(one));
  });
});
