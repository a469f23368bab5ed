import { describe, expect, it } from "vitest";
import { LineIndex, NO_SPAN, sharedColumns } from "../../../src/logs/saved/line-index.js";

describe("line index", () => {
  it("copyRows reads the keys, flags and streams of the lines asked for, after lines were let go", () => {
    const ix = new LineIndex(16);
    for (let n = 0; n < 40; n++) ix.push(n * 10, 9, 1000 + n, n % 7, n % 3, 2, 0);
    ix.dropFront(5);
    const keys = new Float64Array(12);
    const flags = new Uint8Array(12);
    const streams = new Uint32Array(12);
    ix.copyRows(10, 10, keys, flags, streams, 2);
    for (let k = 0; k < 10; k++) {
      expect([keys[k + 2], flags[k + 2], streams[k + 2]]).toEqual([
        ix.key(10 + k),
        ix.flags(10 + k),
        ix.stream(10 + k),
      ]);
    }
    // The slots before `at` are left as they were.
    expect([keys[0], flags[1], streams[0]]).toEqual([0, 0, 0]);
    // A stream number past two bytes widens the column; it is copied whole.
    ix.push(400, 9, 2000, 1, 70_000, 2, 0);
    ix.copyRows(ix.next() - 1, 1, keys, flags, streams);
    expect([keys[0], flags[0], streams[0]]).toEqual([2000, 1, 70_000]);
  });

  it("a window of shared columns fills the slots it is given, then columns of its own; lines further on in the same columns are moved to its end", () => {
    const shared = sharedColumns(100);
    let given = 0;
    const front = LineIndex.window(shared, 0, (end) => {
      given++;
      return Math.min(end + 8, 20);
    });
    for (let n = 0; n < 12; n++) front.push(n * 10, 9, 1000 + n, n % 7, n % 3, 2, 0);
    // Its lines in the shared columns, in the slots it was given (8, then 8 more).
    expect(given).toBe(2);
    expect(front.columns().starts).toBe(shared.starts);
    // Lines another reader put further on in them, moved after its own.
    for (let k = 0; k < 5; k++) {
      shared.starts[70 + k] = 500 + k;
      shared.keys[70 + k] = 2000 + k;
      shared.streams[70 + k] = k % 2;
    }
    const first = front.append({ ...shared, from: 70, size: 5 }, Uint32Array.of(4, 5));
    expect(first).toBe(12);
    expect(front.columns().starts).toBe(shared.starts);
    expect([front.start(13), front.key(13), front.stream(13), front.stream(14)]).toEqual([
      501, 2001, 5, 4,
    ]);
    // Past its slots (20 at most): columns of its own, the lines the same.
    for (let n = 17; n < 30; n++) front.push(n * 10, 9, 1000 + n, 0, 0, 2, 0);
    expect(front.columns().starts).not.toBe(shared.starts);
    expect([front.start(11), front.start(16), front.start(29), front.size()]).toEqual([
      110, 504, 290, 30,
    ]);
    // Emptied, numbered from 0 again, its columns kept.
    const own = front.columns().starts;
    front.clear();
    expect([front.size(), front.next()]).toEqual([0, 0]);
    front.push(7, 1, 1, 0, 0, 2, 0);
    expect(front.columns().starts).toBe(own);
  });

  it("starts past 4 GiB widen the starts column: every start kept exactly, found by numberAt", () => {
    const ix = new LineIndex(16);
    const big = 2 ** 33 + 5;
    for (let n = 0; n < 20; n++) ix.push(n * 100, 99, n, 0, 0, 2, 0);
    expect(ix.bytes()).toBe(ix.columns().starts.length * 18);
    ix.push(big, 99, 20, 0, 0, 2, 0);
    ix.push(big + 2 ** 32, 99, 21, 0, 0, 2, 0);
    expect(ix.bytes()).toBe(ix.columns().starts.length * 22);
    expect([ix.start(19), ix.start(20), ix.start(21)]).toEqual([1900, big, big + 2 ** 32]);
    expect([ix.numberAt(1900), ix.numberAt(big), ix.numberAt(big + 2 ** 32)]).toEqual([19, 20, 21]);
    // Wide columns appended after narrow ones widen them; narrow ones after wide ones are read as they are.
    const narrow = new LineIndex(16);
    narrow.push(7, 1, 1, 0, 0, 2, 0);
    narrow.append(ix.columns(), Uint32Array.of(0));
    expect([narrow.start(0), narrow.start(21), narrow.start(22)]).toEqual([7, big, big + 2 ** 32]);
    const small = new LineIndex(16);
    small.push(3, 1, 1, 0, 0, 2, 0);
    narrow.append(small.columns(), Uint32Array.of(0));
    expect(narrow.start(23)).toBe(3);
  });

  it("lengths, streams and the content's place widen their columns when a value needs more bytes: every value kept, a place not known still not known", () => {
    const ix = new LineIndex(16);
    ix.push(0, 100, 1, 0, 3, 40, 0);
    ix.push(101, 10, 2, 0, 0, -1, -1);
    expect(ix.bytes()).toBe(ix.columns().starts.length * 18);
    expect([ix.contentStart(1), ix.contentTail(1)]).toEqual([NO_SPAN, NO_SPAN]);
    // A line longer than 65,535 bytes, stream 300 then 70,000, content 300 bytes in, 254 from the end.
    ix.push(200, 70_000, 3, 0, 300, 300, 254);
    ix.push(70_201, 5, 4, 0, 70_000, 0, 0);
    ix.push(70_207, 5, 5, 0, 1, 255, 0);
    ix.push(70_213, 5, 6, 0, 1, 2, 1000);
    ix.push(70_219, 5, 7, 0, 1, -1, 0);
    expect(ix.bytes()).toBe(ix.columns().starts.length * 25);
    const read = (n: number) => [
      ix.start(n),
      ix.length(n),
      ix.stream(n),
      ix.contentStart(n),
      ix.contentTail(n),
    ];
    expect([0, 1, 2, 3, 4, 5, 6].map(read)).toEqual([
      [0, 100, 3, 40, 0],
      [101, 10, 0, NO_SPAN, NO_SPAN],
      [200, 70_000, 300, 300, 254],
      [70_201, 5, 70_000, 0, 0],
      [70_207, 5, 1, 255, 0],
      [70_213, 5, 1, 2, 1000],
      [70_219, 5, 1, NO_SPAN, NO_SPAN],
    ]);
    // Narrow columns appended after wide ones, and wide ones after narrow ones, read the same.
    const narrow = new LineIndex(16);
    narrow.push(9, 1, 1, 0, 2, 7, 0);
    narrow.push(11, 1, 1, 0, 2, -1, 0);
    ix.append(narrow.columns(), Uint32Array.of(0, 1, 5));
    expect([7, 8].map(read)).toEqual([
      [9, 1, 5, 7, 0],
      [11, 1, 5, NO_SPAN, NO_SPAN],
    ]);
    const other = new LineIndex(16);
    other.push(1, 1, 1, 0, 0, -1, 0);
    other.append(ix.columns(), Uint32Array.of(0));
    expect(other.contentStart(0)).toBe(NO_SPAN);
    expect([2, 3, 6, 8].map((n) => [other.length(n + 1), other.stream(n + 1)])).toEqual([
      [70_000, 300],
      [5, 70_000],
      [5, 1],
      [1, 5],
    ]);
    expect([other.contentStart(3), other.contentTail(6), other.contentStart(9)]).toEqual([
      300,
      1000,
      NO_SPAN,
    ]);
  });
});
