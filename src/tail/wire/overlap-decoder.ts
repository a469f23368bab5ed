/**
 * Decodes the successive answers of one deployment's debug-log poll, which overlap: each window
 * re-sends the lines of the one before that are still in it, byte for byte. Where an answer begins
 * with a run of entries whose text is exactly a run of the previous answer's, those entries are
 * taken from the previous decoding and only the rest of the text is parsed. The result is always
 * what decoding the whole text gives (`decodeBody`: the same entries, the same errors); when
 * anything is not plain to see, the whole text is decoded.
 *
 * Why it is the same: an answer is remembered (`index`) only when its entries can be found in
 * its text by the marker `{"line":`, which holds when it begins `{"entries":[`, has no other
 * key, and no object in it has a key beyond the schema's (entry: line, replicaLabel; line:
 * content, ts; ts: seconds, nanos). Then the only objects whose first key is "line" are entries,
 * and a string cannot hold the marker (its `"` would be escaped), so each marker is an entry's
 * first byte; with as many markers as entries, the i-th marker starts the i-th entry. The run
 * of text from entry j's start to entry m's start is entries j..m-1 with their separators, and a
 * JSON value's text parses to the same value wherever it stands. So when the new text has that
 * run right after `{"entries":[`, and what follows it up to the "]}" that ends the text parses
 * as a list of one or more values (in brackets: the run ends in a comma, and the list's brackets
 * must balance, so that "]" closes the array and the object has no other key), the text parses
 * as those entries followed by that list.
 */
import { decodeBody } from "../../api/client.js";
import type { DebugLogEntry } from "../../api/schemas.js";
import { DEBUG_LOG_FAST_PATH, DEBUG_LOGS, isDebugLogResponse } from "./guards.js";

type DebugLogsAnswer = { entries: DebugLogEntry[] };

const HEAD = '{"entries":[';
const MARKER = '{"line":';

/** An answer whose entries can be found in its text: entry i starts at `starts[i]`. */
interface Indexed {
  text: string;
  starts: Int32Array;
  entries: DebugLogEntry[];
  /**
   * Where the next answer's first entry is likely to be: as far in as its own new entries
   * begin (a window moves on by about as many lines as it brings).
   */
  hint: number;
}

function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** Whether entries[from..] have no key beyond the schema's (see the header). */
function schemaKeysOnly(entries: readonly DebugLogEntry[], from: number): boolean {
  for (let i = from; i < entries.length; i++) {
    const e = entries[i] as DebugLogEntry;
    if (keyCount(e) !== 2) return false;
    const line = e.line;
    const ts = line.ts;
    if (keyCount(line) !== (ts === undefined ? 1 : 2)) return false;
    if (ts !== undefined && keyCount(ts) !== 2) return false;
  }
  return true;
}

/** The position of the "]" of a text that ends in "]}" (and white space), or -1. */
function arrayEnd(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return i >= 1 && text.charCodeAt(i) === 0x7d && text.charCodeAt(i - 1) === 0x5d ? i - 1 : -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index of `value` in the ascending `starts`, or -1. */
function findStart(starts: Int32Array, value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = starts[mid] as number;
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Where the marker occurs in text[from..]. */
function markersFrom(text: string, from: number): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(MARKER, from); i !== -1; i = text.indexOf(MARKER, i + 1)) at.push(i);
  return at;
}

/**
 * Entries parsed at a time: a piece's text stays small enough to be made in the young
 * generation, where bracketing a whole answer would copy all of it once more.
 */
const PIECE = 256;

/**
 * text[marks[0]..end) as a list of entries, when it is the text of one or more values (with
 * white space) and every one is a valid entry; else undefined. It is parsed in pieces cut at
 * markers: each piece must parse as `[` + piece + `]`, and what lies between two pieces must
 * be one comma and white space. Then the whole parses as the pieces' lists one after another,
 * wherever the markers are. For a text that is `{"entries":[` + it + `]}`, this is its array,
 * and "entries" its only key.
 */
function parseEntries(
  text: string,
  marks: readonly number[],
  end: number,
  piece: number,
): DebugLogEntry[] | undefined {
  const entries: DebugLogEntry[] = [];
  for (let k = 0; k < marks.length; k += piece) {
    let to = end;
    const next = marks[k + piece];
    if (next !== undefined) {
      to = next - 1;
      while (isSpace(text.charCodeAt(to))) to--;
      if (text.charCodeAt(to) !== 0x2c) return undefined;
    }
    let list: unknown;
    try {
      list = JSON.parse(`[${text.slice(marks[k], to)}]`);
    } catch {
      return undefined;
    }
    if (!isDebugLogResponse({ entries: list })) return undefined;
    for (const entry of list as DebugLogEntry[]) entries.push(entry);
  }
  return entries;
}

/** Whether text[from..to) is white space only. */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * `answer`, decoded from `text` = `{"entries":[...]}` (parseEntries), as the next answer's
 * reference, or undefined when its entries cannot be found by marker (see the header). `known`
 * entries at its front were checked in an earlier answer, and their starts are given; `marks`
 * are the markers in the text after them.
 */
function index(
  text: string,
  answer: DebugLogsAnswer,
  known: Int32Array,
  marks: readonly number[],
): Indexed | undefined {
  const entries = answer.entries;
  if (known.length + marks.length !== entries.length) return undefined;
  if (!schemaKeysOnly(entries, known.length)) return undefined;
  const starts = new Int32Array(entries.length);
  starts.set(known);
  starts.set(marks, known.length);
  return { text, starts, entries, hint: Math.max(0, entries.length - known.length - 1) };
}

export class OverlapDecoder {
  private previous: Indexed | undefined;
  /** Entries taken from the previous answer, and entries parsed: for tests and benches. */
  readonly counts = { reused: 0, parsed: 0 };

  /** `piece`: entries parsed at a time (tests make it small). */
  constructor(private readonly piece = PIECE) {}

  /** One answer's text (the client's callForText), decoded as decodeBody decodes it. */
  async decode(text: string): Promise<DebugLogsAnswer> {
    const previous = this.previous;
    this.previous = undefined;
    const reused = previous ? this.withPrevious(text, previous) : undefined;
    if (reused) return reused;
    const end = text.startsWith(HEAD) ? arrayEnd(text) : -1;
    if (end >= HEAD.length) {
      // The first entry right after the head, or no entry at all.
      const marks = markersFrom(text, HEAD.length);
      const list = (marks.length > 0 ? marks[0] === HEAD.length : blank(text, HEAD.length, end))
        ? parseEntries(text, marks, end, this.piece)
        : undefined;
      if (list) {
        this.counts.parsed += list.length;
        const answer = { entries: list };
        this.previous = index(text, answer, new Int32Array(0), marks);
        return answer;
      }
    }
    // Any other layout, and every error, as the client decodes it.
    const answer = await decodeBody(DEBUG_LOGS, text, DEBUG_LOG_FAST_PATH);
    this.counts.parsed += answer.entries.length;
    return answer;
  }

  /** The answer, when it begins with a run of the previous one's entries (see the header). */
  private withPrevious(text: string, previous: Indexed): DebugLogsAnswer | undefined {
    const { starts } = previous;
    const n = starts.length;
    if (n < 2 || !text.startsWith(HEAD)) return undefined;
    // Find the previous answer's entry whose text (with its comma) is this one's first.
    const second = text.indexOf(MARKER, HEAD.length + 1);
    if (second === -1) return undefined;
    const first = text.slice(HEAD.length, second);
    let j = previous.hint;
    if (j >= n || !previous.text.startsWith(first, starts[j] as number))
      j = findStart(starts, previous.text.indexOf(first));
    if (j < 0 || j === n - 1) return undefined;
    const from = starts[j] as number;
    const runTo = (m: number) => {
      const length = (starts[m] as number) - from;
      return (
        HEAD.length + length <= text.length &&
        text.slice(HEAD.length, HEAD.length + length) === previous.text.slice(from, from + length)
      );
    };
    // The longest run: entries j..m-1 (the previous answer's last entry ends in "]", not ",").
    let m = n - 1;
    if (!runTo(m)) {
      let lo = j;
      let hi = n - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (runTo(mid)) lo = mid;
        else hi = mid - 1;
      }
      m = lo;
    }
    if (m === j) return undefined;
    // The rest, up to the "]}" that ends the text, must parse as a list of values, starting with
    // an entry right after the run's comma (so not empty): then the array opened by the head runs
    // to that "]" and is the object's only key.
    const restAt = HEAD.length + (starts[m] as number) - from;
    const end = arrayEnd(text);
    if (end < restAt || !text.startsWith(MARKER, restAt)) return undefined;
    const marks = markersFrom(text, restAt);
    const tail = parseEntries(text, marks, end, this.piece);
    if (!tail) return undefined;
    const answer: DebugLogsAnswer = { entries: previous.entries.slice(j, m).concat(tail) };
    this.counts.reused += m - j;
    this.counts.parsed += tail.length;
    const known = starts.subarray(j, m).map((s) => s - from + HEAD.length);
    this.previous = index(text, answer, known, marks);
    return answer;
  }
}
