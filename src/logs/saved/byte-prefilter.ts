/**
 * Which lines of a run of a saved file's bytes a literal pattern (src/text/pattern.ts) may match,
 * found over the bytes at once (not a string a line): a search tests only those lines with the
 * pattern, and passes over the rest without decoding them. What matches is still what RE2 says of
 * a candidate's content; this only leaves out lines that cannot match.
 *
 * A line can match only when its bytes hold the literal (ASCII letters of either case when the
 * pattern is case-blind), or hold what decoding its content could turn into the literal's
 * characters:
 *
 * - case-blind, the two characters that are not ASCII and fold to an ASCII letter (KELVIN SIGN to
 *   k when the literal holds a k, LATIN SMALL LETTER LONG S to s when it holds an s), in UTF-8;
 * - in NDJSON, a JSON escape of one of the literal's characters: `\uXXXX` writing one of them (or
 *   the other case of a letter, or the sign or long s above, when case-blind), `\"` and `\/` when
 *   the literal holds `"` or `/` (the other escapes make control characters and `\`, which no
 *   literal holds). A decoded match whose every character was written as itself is the literal
 *   in the bytes; one with a character escaped holds an escape of that character.
 *
 * Text and plain lines are their content as written (a line's content is a part of it), so a
 * match is in their bytes. The literal itself is found exactly: with Buffer.indexOf; case-blind,
 * a long one by a Horspool search comparing ASCII letters of either case, its shifts read from the
 * two bytes at the window's end, over the bytes as they are (nothing copied or lower-cased), a
 * short one with Buffer.indexOf in a lower-cased copy. The other needles with Buffer.indexOf; a
 * `\u` found counts when the four hex digits after it write one of those characters (or are
 * not four hex digits in the bytes given: it then counts, as nothing is known of it).
 *
 * A literal found whole in a line's content read as its bytes are (not escaped, not cut to what
 * filters read) is a match as RE2 would say (`proves`): its bytes decode to the literal's
 * characters (ASCII bytes decode to themselves whatever surrounds them), and RE2 matches the
 * literal, or with either case of its ASCII letters when case-blind. Linear in the bytes (the
 * literal's length at most for each); nothing kept between runs but one scratch buffer and, for
 * a long case-blind literal, its table of shifts.
 */
import type { Pattern } from "../../text/pattern.js";
import { FILTERED_CHARS } from "../line-filter.js";
import type { SavedFormat } from "./saved-line.js";

/** KELVIN SIGN and LATIN SMALL LETTER LONG S, in UTF-8. */
const KELVIN = Buffer.from("\u212a", "utf8");
const LONG_S = Buffer.from("\u017f", "utf8");
/** What starts a JSON `\uXXXX` escape. */
const UNICODE_ESCAPE = Buffer.from("\\u", "latin1");

/**
 * A literal this long or longer, case-blind, is found by its shifts; a shorter one shifts too
 * little to pass over most bytes, and is found in a lower-cased copy with Buffer.indexOf.
 */
const MIN_SHIFTED = 8;

export class BytePrefilter {
  private scratch = new Uint8Array(0);
  /** Case-blind, a long literal: the shift after a window ending in bytes (a, b), at `a << 8 | b`. */
  private readonly shifts: { shifts: Uint16Array; after: number } | undefined;

  private constructor(
    /** The literal's bytes (lower-cased when `fold`). */
    private readonly literal: Buffer,
    /** What else a line that matches may hold instead (see the module comment). */
    private readonly others: readonly Buffer[],
    private readonly fold: boolean,
    /** In NDJSON, 1 at each code unit a `\uXXXX` escape counts for (see the module comment). */
    private readonly escaped: Uint8Array | undefined,
  ) {
    this.shifts = fold && literal.length >= MIN_SHIFTED ? pairShifts(literal) : undefined;
  }

  /** The prefilter of `pattern` over lines of `format`; undefined when it is no literal. */
  static of(pattern: Pattern, format: SavedFormat): BytePrefilter | undefined {
    const literal = pattern.literal;
    if (literal === undefined || literal === "") return undefined;
    const fold = pattern.ignoreCase;
    const others: Buffer[] = [];
    // The characters that match one of the literal's: the literal's own, and case-blind the
    // other case of each letter and the two beyond ASCII folding to k and s.
    const units = new Set<number>();
    for (const c of literal) {
      units.add(c.charCodeAt(0));
      if (!fold) continue;
      units.add(c.toLowerCase().charCodeAt(0));
      units.add(c.toUpperCase().charCodeAt(0));
    }
    if (fold && /k/i.test(literal)) {
      others.push(KELVIN);
      units.add(0x212a);
    }
    if (fold && /s/i.test(literal)) {
      others.push(LONG_S);
      units.add(0x017f);
    }
    let escaped: Uint8Array | undefined;
    if (format === "ndjson") {
      escaped = new Uint8Array(65536);
      for (const u of units) escaped[u] = 1;
      others.push(UNICODE_ESCAPE);
      if (literal.includes('"')) others.push(Buffer.from('\\"'));
      if (literal.includes("/")) others.push(Buffer.from("\\/"));
    }
    return new BytePrefilter(
      Buffer.from(fold ? literal.toLowerCase() : literal, "latin1"),
      others,
      fold,
      escaped,
    );
  }

  /**
   * Where the literal starts in `bytes` (either case of its letters when case-blind), ascending.
   * With otherHits: a line holding none of their offsets cannot match.
   */
  literalHits(bytes: Uint8Array): number[] {
    const found: number[] = [];
    const needle = this.literal;
    if (this.shifts) {
      shiftedSearch(bytes, needle, this.shifts, found);
      return found;
    }
    const haystack = this.fold ? this.lowered(bytes) : toBuffer(bytes);
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1))
      found.push(at);
    return found;
  }

  /** Where the other needles start in `bytes`, ascending (an offset once). */
  otherHits(bytes: Uint8Array): number[] {
    const found: number[] = [];
    if (this.others.length === 0) return found;
    const haystack = toBuffer(bytes);
    for (const needle of this.others) {
      const units = needle === UNICODE_ESCAPE ? this.escaped : undefined;
      for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
        if (units) {
          const unit = hexUnit(bytes, at + 2);
          if (unit >= 0 && units[unit] === 0) continue;
        }
        found.push(at);
      }
    }
    if (this.others.length > 1) {
      found.sort((a, b) => a - b);
      let w = 0;
      for (let r = 0; r < found.length; r++)
        if (r === 0 || found[r] !== found[w - 1]) found[w++] = found[r] as number;
      found.length = w;
    }
    return found;
  }

  /**
   * Whether the literal found at `at` (one of literalHits') proves a match of a content read as
   * its bytes [from, to) are (not escaped): it lies whole in them, and they are no more than
   * FILTERED_CHARS (so that none is cut from what the pattern is tested on).
   */
  proves(at: number, from: number, to: number): boolean {
    return at >= from && at + this.literal.length <= to && to - from <= FILTERED_CHARS;
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

/** Each byte, its ASCII upper-case letters lower-cased. */
const LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));

/** The bytes a lower-cased literal's byte `c` stands for, case-blind. */
function eitherCase(c: number): number[] {
  return c >= 0x61 && c <= 0x7a ? [c, c - 0x20] : [c];
}

/**
 * A Horspool search's shifts for a lower-cased `needle` (at least three bytes), case-blind, read
 * from the window's last two bytes (a, b): the least d > 0 such that an occurrence could end d
 * bytes further on, at most the needle's length. An occurrence ending d further has b at its byte
 * m-1-d and a just before it (for d < m-1), or b as its first byte (d = m-1). The needle's own
 * last two bytes shift 0 (the window is compared then); `after` is their shift once it was.
 */
function pairShifts(needle: Uint8Array): { shifts: Uint16Array; after: number } {
  const m = needle.length;
  const shifts = new Uint16Array(65536).fill(Math.min(m, 0xffff));
  for (const b of eitherCase(needle[0] as number))
    for (let a = 0; a < 256; a++) shifts[(a << 8) | b] = Math.min(m - 1, 0xffff);
  // Later bytes of the needle give the smaller shifts, written over the larger.
  for (let q = 1; q <= m - 2; q++) {
    const d = Math.min(m - 1 - q, 0xffff);
    for (const a of eitherCase(needle[q - 1] as number))
      for (const b of eitherCase(needle[q] as number)) shifts[(a << 8) | b] = d;
  }
  const y = needle[m - 2] as number;
  const z = needle[m - 1] as number;
  const after = shifts[(y << 8) | z] as number;
  for (const a of eitherCase(y)) for (const b of eitherCase(z)) shifts[(a << 8) | b] = 0;
  return { shifts, after };
}

/** Adds to `found` where `needle` (lower-cased) starts in `bytes`, case-blind, ascending. */
function shiftedSearch(
  bytes: Uint8Array,
  needle: Uint8Array,
  table: { shifts: Uint16Array; after: number },
  found: number[],
): void {
  const n = bytes.length;
  const m = needle.length;
  const { shifts, after } = table;
  for (let i = m - 1; i < n; ) {
    const d = shifts[((bytes[i - 1] as number) << 8) | (bytes[i] as number)] as number;
    if (d !== 0) {
      i += d;
      continue;
    }
    // The window ends in the needle's last two bytes: the rest compared.
    const start = i - m + 1;
    let j = m - 3;
    while (j >= 0 && LOWER[bytes[start + j] as number] === needle[j]) j--;
    if (j < 0) found.push(start);
    i += after;
  }
}

/** Each byte's value as a hex digit (either case), -1 for a byte that is none. */
const HEX = Int8Array.from({ length: 256 }, (_, b) =>
  b >= 0x30 && b <= 0x39
    ? b - 0x30
    : b >= 0x61 && b <= 0x66
      ? b - 0x57
      : b >= 0x41 && b <= 0x46
        ? b - 0x37
        : -1,
);

/** The code unit the four hex digits at `bytes[at]` write; -1 when they are not four hex digits there. */
function hexUnit(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) return -1;
  const a = HEX[bytes[at] as number] as number;
  const b = HEX[bytes[at + 1] as number] as number;
  const c = HEX[bytes[at + 2] as number] as number;
  const d = HEX[bytes[at + 3] as number] as number;
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
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
  for (let i = words * 4; i < n; i++) bytes[i] = LOWER[bytes[i] as number] as number;
}
