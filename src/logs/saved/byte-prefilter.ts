/**
 * Which lines of a run of a saved file's bytes a literal pattern (src/text/pattern.ts) may match,
 * found over the bytes at once (Buffer.indexOf over the run, not a string a line): a search tests
 * only those lines with the pattern, and passes over the rest without decoding them. What matches
 * is still what RE2 says of a candidate's content; this only leaves out lines that cannot match.
 *
 * A line can match only when its bytes hold the literal (ASCII letters of either case when the
 * pattern is case-blind), or hold what decoding its content could turn into the literal's
 * characters:
 *
 * - case-blind, the two characters that are not ASCII and fold to an ASCII letter (KELVIN SIGN to
 *   k, LATIN SMALL LETTER LONG S to s), in UTF-8;
 * - in NDJSON, a JSON escape: `\u` (any character), `\"` and `\/` when the literal holds `"` or
 *   `/` (the other escapes make control characters and `\`, which no literal holds).
 *
 * Text and plain lines are their content as written (a line's content is a part of it), so a
 * match is in their bytes. Linear in the bytes; nothing kept between runs but one scratch buffer.
 */
import type { Pattern } from "../../text/pattern.js";
import type { SavedFormat } from "./saved-line.js";

/** KELVIN SIGN and LATIN SMALL LETTER LONG S, in UTF-8. */
const KELVIN = Buffer.from("\u212a", "utf8");
const LONG_S = Buffer.from("\u017f", "utf8");

export class BytePrefilter {
  private scratch = new Uint8Array(0);

  private constructor(
    /** What is looked for in the bytes (lower-cased first when `fold`). */
    private readonly needles: readonly Buffer[],
    private readonly fold: boolean,
  ) {}

  /** The prefilter of `pattern` over lines of `format`; undefined when it is no literal. */
  static of(pattern: Pattern, format: SavedFormat): BytePrefilter | undefined {
    const literal = pattern.literal;
    if (literal === undefined || literal === "") return undefined;
    const fold = pattern.ignoreCase;
    const needles = [Buffer.from(fold ? literal.toLowerCase() : literal, "latin1")];
    if (fold && /[ks]/i.test(literal)) needles.push(KELVIN, LONG_S);
    if (format === "ndjson") {
      needles.push(Buffer.from("\\u"));
      if (literal.includes('"')) needles.push(Buffer.from('\\"'));
      if (literal.includes("/")) needles.push(Buffer.from("\\/"));
    }
    return new BytePrefilter(needles, fold);
  }

  /**
   * The offsets in `bytes` where a needle starts, ascending (an offset once): a line holding
   * none of them cannot match.
   */
  candidates(bytes: Uint8Array): number[] {
    const haystack = this.fold ? this.lowered(bytes) : toBuffer(bytes);
    const found: number[] = [];
    for (const needle of this.needles) {
      for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1))
        found.push(at);
    }
    if (this.needles.length > 1) {
      found.sort((a, b) => a - b);
      let w = 0;
      for (let r = 0; r < found.length; r++)
        if (r === 0 || found[r] !== found[w - 1]) found[w++] = found[r] as number;
      found.length = w;
    }
    return found;
  }

  /** `bytes` with ASCII upper-case letters lower-cased (other bytes as they are), in scratch. */
  private lowered(bytes: Uint8Array): Buffer {
    const n = bytes.length;
    if (this.scratch.length < n) this.scratch = new Uint8Array(Math.max(n, 1024) + 3);
    const out = this.scratch;
    out.set(bytes);
    lowerAsciiInPlace(out, n);
    return Buffer.from(out.buffer, out.byteOffset, n);
  }
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/**
 * Lower-cases the ASCII letters of `bytes[0, n)` in place, four bytes at a time (a word's bytes
 * in A-Z found at once: each byte's low 7 bits plus a bias carries into its high bit exactly
 * when it is at least the bias's bound, and never into the next byte).
 */
export function lowerAsciiInPlace(bytes: Uint8Array, n: number): void {
  const words = bytes.byteOffset % 4 === 0 ? n >>> 2 : 0;
  if (words > 0) {
    const w32 = new Int32Array(bytes.buffer, bytes.byteOffset, words);
    for (let i = 0; i < words; i++) {
      const w = w32[i] as number;
      const low = w & 0x7f7f7f7f;
      // High bit of each byte: at least "A" (0x41), and at least "[" (0x5b, one past "Z").
      const atLeastA = low + 0x3f3f3f3f;
      const pastZ = low + 0x25252525;
      const upper = atLeastA & ~pastZ & ~w & 0x80808080;
      w32[i] = w | (upper >>> 2);
    }
  }
  for (let i = words * 4; i < n; i++) {
    const c = bytes[i] as number;
    if (c >= 0x41 && c <= 0x5a) bytes[i] = c | 0x20;
  }
}
