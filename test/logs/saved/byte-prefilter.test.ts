/**
 * The byte prefilter of a literal search: ASCII letters lower-cased four bytes at a time exactly
 * as one at a time (every byte value, at every alignment, every other byte left as it is), and
 * the offsets it gives are where its needles start.
 */
import { describe, expect, it } from "vitest";
import { BytePrefilter, lowerAsciiInPlace } from "../../../src/logs/saved/byte-prefilter.js";
import { compilePattern } from "../../../src/text/pattern.js";

const oneByOne = (b: number) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);

describe("the byte prefilter", () => {
  it("lower-cases A-Z and nothing else, whatever the bytes around and the alignment", () => {
    const values = Uint8Array.from({ length: 256 * 7 }, (_, i) => (i * 37 + (i >> 8)) & 0xff);
    for (let offset = 0; offset < 4; offset++) {
      for (const n of [0, 1, 3, 5, values.length - offset]) {
        const backing = new Uint8Array(values.length + 8);
        const bytes = backing.subarray(offset, offset + values.length);
        bytes.set(values);
        lowerAsciiInPlace(bytes, n);
        for (let i = 0; i < values.length; i++) {
          const v = values[i] as number;
          expect(bytes[i], `byte ${v} at ${i} (offset ${offset}, n ${n})`).toBe(
            i < n ? oneByOne(v) : v,
          );
        }
      }
    }
  });

  it("gives where the literal may start: either case when case-blind, and in NDJSON each escape", () => {
    const bytes = Buffer.from('TimeOut x timeout \\u0074imeout TIMEOUT \\"');
    const blind = BytePrefilter.of(compilePattern("timeout"), "text");
    expect(blind?.candidates(bytes)).toEqual([0, 10, 31]);
    const exact = BytePrefilter.of(compilePattern("TIMEOUT"), "text");
    expect(exact?.candidates(bytes)).toEqual([31]);
    const json = BytePrefilter.of(compilePattern("timeout"), "ndjson");
    expect(json?.candidates(bytes)).toEqual([0, 10, 18, 31]);
    expect(BytePrefilter.of(compilePattern("time(out)?"), "text")).toBeUndefined();
  });
});
