import { describe, expect, it } from "vitest";
import { LineIndex } from "../../../src/logs/saved/line-index.js";

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
});
