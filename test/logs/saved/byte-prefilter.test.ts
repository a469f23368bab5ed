/**
 * The byte prefilter of a literal search: ASCII letters lower-cased four bytes at a time exactly
 * as one at a time (every byte value, at every alignment, every other byte left as it is), the
 * offsets it gives are where its needles start, the literal found (either case, by its shifts or
 * lower-cased) exactly where a byte-by-byte comparison finds it, and what proves a match.
 */
import fc from "fast-check";
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
    expect(blind?.literalHits(bytes)).toEqual([0, 10, 31]);
    expect(blind?.otherHits(bytes)).toEqual([]);
    const exact = BytePrefilter.of(compilePattern("TIMEOUT"), "text");
    expect(exact?.literalHits(bytes)).toEqual([31]);
    expect(exact?.otherHits(bytes)).toEqual([]);
    const json = BytePrefilter.of(compilePattern("timeout"), "ndjson");
    expect(json?.literalHits(bytes)).toEqual([0, 10, 31]);
    expect(json?.otherHits(bytes)).toEqual([18]);
    expect(BytePrefilter.of(compilePattern("time(out)?"), "text")).toBeUndefined();
  });

  it("finds the literal exactly where comparing byte by byte does, either case when case-blind", () => {
    // Bytes near the letters (one bit from them: @ [ ` {), letters of both cases, space, high bytes.
    const alphabet = [..."aAbBkKsS@[`{ ", "\u00ff"].map((c) => c.charCodeAt(0));
    const byte = fc.constantFrom(...alphabet);
    // The haystack: runs of those bytes, and copies of the literal, each byte's case flipped or
    // not, one byte now and then one of those bytes instead (near misses at every position).
    const part = fc.oneof(
      fc.array(byte, { maxLength: 12 }),
      fc.record({ flips: fc.nat(), at: fc.nat(), by: fc.option(byte, { freq: 2 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 40 }),
        fc.array(fc.constantFrom(..."abkAB s@".split("")), { minLength: 1, maxLength: 14 }),
        (parts, chars) => {
          const source = chars.join("");
          const values: number[] = [];
          for (const p of parts) {
            if (Array.isArray(p)) values.push(...p);
            else {
              const copy = [...Buffer.from(source, "latin1")].map((c, j) =>
                (p.flips >> (j % 30)) & 1 && /[a-z]/i.test(String.fromCharCode(c)) ? c ^ 0x20 : c,
              );
              if (p.by !== null) copy[p.at % copy.length] = p.by;
              values.push(...copy);
            }
          }
          const bytes = Buffer.from(values);
          const pattern = compilePattern(source);
          const prefilter = BytePrefilter.of(pattern, "text");
          if (!prefilter) throw new Error(`${source}: no prefilter`);
          const needle = Buffer.from(pattern.ignoreCase ? source.toLowerCase() : source, "latin1");
          const want: number[] = [];
          for (let at = 0; at + needle.length <= bytes.length; at++) {
            let same = true;
            for (let j = 0; j < needle.length && same; j++) {
              const b = bytes[at + j] as number;
              same = (pattern.ignoreCase ? oneByOne(b) : b) === needle[j];
            }
            if (same) want.push(at);
          }
          expect(prefilter.literalHits(bytes), `${source} in ${bytes.toString("latin1")}`).toEqual(
            want,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("finds a long literal whose letters repeat, at the end, overlapping itself, in a subarray", () => {
    const literal = `${"ab".repeat(200)}a`;
    const prefilter = BytePrefilter.of(compilePattern(literal), "text");
    const backing = Buffer.from(`xx${"AB".repeat(201)}aBa`, "latin1");
    const bytes = backing.subarray(2);
    const want: number[] = [];
    for (let at = 0; at + literal.length <= bytes.length; at++)
      if (bytes.toString("latin1", at, at + literal.length).toLowerCase() === literal)
        want.push(at);
    expect(want.length).toBeGreaterThan(2);
    expect(prefilter?.literalHits(bytes)).toEqual(want);
  });

  it("proves a match only for the literal whole inside a content no longer than what filters read", () => {
    const prefilter = BytePrefilter.of(compilePattern("timeout"), "text");
    if (!prefilter) throw new Error("no prefilter");
    expect(prefilter.proves(10, 10, 17)).toBe(true);
    expect(prefilter.proves(9, 10, 40)).toBe(false);
    expect(prefilter.proves(34, 10, 40)).toBe(false);
    expect(prefilter.proves(20, 10, 10 + 65_536)).toBe(true);
    expect(prefilter.proves(20, 10, 10 + 65_537)).toBe(false);
  });
});

describe("the byte prefilter over NDJSON", () => {
  it("counts a \\u escape only when it writes a character that matches one of the literal's", () => {
    const bytes = Buffer.from("\\u001b[0m \\u0074 \\u0054 \\u00e9 \\u212A \\u017f \\u00", "latin1");
    const blind = BytePrefilter.of(compilePattern("timeout"), "ndjson");
    expect(blind?.otherHits(bytes)).toEqual([10, 17, 45]);
    const keys = BytePrefilter.of(compilePattern("keys"), "ndjson");
    expect(keys?.otherHits(bytes)).toEqual([31, 38, 45]);
    const exact = BytePrefilter.of(compilePattern("Timeout"), "ndjson");
    expect(exact?.otherHits(bytes)).toEqual([10, 17, 45]);
    const upper = BytePrefilter.of(compilePattern("TIME"), "ndjson");
    expect(upper?.otherHits(bytes)).toEqual([17, 45]);
  });

  it("leaves out no line whose decoded content matches, however its characters are escaped", () => {
    // Characters of the literals and near them: both cases, the Kelvin sign and long s, a
    // letter beyond ASCII, control characters, a quote, a slash, a backslash.
    const chars = [...'upstreamTIMEOUTk/"\\ é', "\u212a", "\u017f", "\u001b", "\n"];
    const written = fc.record({
      char: fc.constantFrom(...chars),
      escape: fc.constantFrom("no", "lower", "upper"),
    });
    fc.assert(
      fc.property(
        fc.array(written, { maxLength: 30 }),
        fc.constantFrom("stream t", "am", "k/", 'a"u', "upstream timeout", "UP", "Tim"),
        (parts, source) => {
          const content = parts.map((p) => p.char).join("");
          const body = parts
            .map((p) => {
              if (p.escape === "no") return JSON.stringify(p.char).slice(1, -1);
              const hex = (p.char.codePointAt(0) as number).toString(16).padStart(4, "0");
              return `\\u${p.escape === "upper" ? hex.toUpperCase() : hex}`;
            })
            .join("");
          const line = Buffer.from(`{"content":"${body}"}`, "utf8");
          expect(JSON.parse(line.toString("utf8")).content).toBe(content);
          const pattern = compilePattern(source);
          const prefilter = BytePrefilter.of(pattern, "ndjson");
          if (!prefilter) throw new Error(`${source}: no prefilter`);
          if (!pattern.test(content)) return;
          const hits = prefilter.literalHits(line).length + prefilter.otherHits(line).length;
          expect(hits, `${source} in ${line.toString("utf8")}`).toBeGreaterThan(0);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
