/**
 * `tvcwatch tail` without -f, as plain text (`[replica 2/3] content` per line, with or without
 * `--timestamps`; no filters, no colour): the window's lines written straight from the response's
 * bytes, without building the response's JSON tree, its strings, or the follower's events: a large
 * window is tens of megabytes (`npm run bench -- tail-e2e` times it against `curl | jq`).
 *
 * It renders exactly what the follower prints for the same window (a property test holds it to
 * that: test/tail/wire/plain-window.test.ts), and only for the usual shape of a response, where that is
 * simple to see: every entry has a timestamp of plain digits, none is stamped later than a second
 * after the response's `Date` (so the follower's merge puts them all in timestamp order, equal
 * timestamps in the response's order), and the JSON is the schema's and nothing more. For
 * anything else it says `undefined` and the caller hands the same response to the follower.
 *
 * Printable ASCII content is copied byte for byte (nothing in it needs escaping for a terminal);
 * content with JSON escapes other than \u is unescaped byte by byte, the controls they stand for
 * written as sanitizeForTerminal writes them; any other content is decoded and goes through
 * sanitizeForTerminal, as the follower's text does.
 *
 * The body is read as it arrives, in the chunks it comes in (PlainWindowReader, fed by the
 * client's onBodyChunk), never joined into one block: each entry's line is written as soon as the
 * entry is in, so that after the last byte only the end is checked (and, if some line came out of
 * timestamp order, the lines are moved).
 */
import type { BodyChunks } from "../../api/response-body.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { formatRfc3339 } from "../../text/timestamp.js";
import {
  DECODE,
  type Digits,
  type EntrySink,
  ESCAPES,
  INVALID,
  NEEDS_DECODING,
  PLAIN,
  SHORT,
  type StringKind,
} from "./entry-table.js";
import { leadingText, wordsOf } from "./plain-word.js";
import {
  BACKSLASH,
  DECLINE,
  decodeJsonString,
  END,
  ESCAPE,
  NOT_ASCII,
  NotPlain,
  QUOTE,
  STRING_BYTE,
  TEXT,
  WindowScanner,
} from "./window-scanner.js";

/** `--timestamps`: each line starts with its time, RFC 3339 in UTC or the local zone. */
export interface TimeFormat {
  utc: boolean;
}

/** The room first made for the lines of a body whose length was not said (grown as it comes). */
const UNDECLARED = 1 << 20;

/** Room for one formatted time (RFC 3339 with nanoseconds and zone is under 48 characters). */
const TIME_ROOM = 48;

/**
 * The follower's output for this window as bytes (each line and its newline), or undefined when
 * the body is not of the usual shape (see the header). `serverDate`: the response's Date header,
 * epoch ms.
 */
export function renderPlainWindow(
  body: Uint8Array,
  serverDate: number | undefined,
  times?: TimeFormat,
): Buffer | undefined {
  return new PlainWindowReader(times).finish(
    { chunks: [body], byteLength: body.length },
    serverDate,
  );
}

/** A block's bytes, to be read and written as 32-bit words. */
function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** A block of bytes as a Buffer over the same memory. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The bytes joined first to the end of a chunk not read (see readOn), unless the chunk is shorter. */
const JOINED = 1024;
/** Bytes left unread past which the reading waits for as many again (see readOn). */
const LONG = 1 << 16;

/**
 * renderPlainWindow, read as the body comes: `feed` is told of each chunk of the body as it
 * comes (the client's onBodyChunk), and reads the entries that have come whole where they are;
 * `finish` reads the rest once the body is in, so that little is left to do after its last byte.
 * A body whose chunks were not fed so is read whole by `finish`.
 */
export class PlainWindowReader {
  private scanner: WindowScanner | undefined;
  private writer: LineWriter | undefined;
  /** The bytes the reading is in: a chunk, or the end of one joined to the start of the next. */
  private bytes: Buffer = Buffer.alloc(0);
  private declined = false;
  /** A failure other than declining, met while feeding: finish throws it. */
  private failure: unknown;
  /** How many of the body's bytes have been fed, and the last chunk fed. */
  private received = 0;
  private last: Uint8Array | undefined;
  /** Chunks come after an entry longer than LONG, not read yet (see readOn), and their bytes. */
  private held: Buffer[] = [];
  private heldLength = 0;

  constructor(private readonly times: TimeFormat | undefined) {}

  /**
   * The chunk of the body that starts `offset` bytes in has come (offset 0: a body starts, and
   * the reading starts over); `declared`: the body's length, when the response said it. Never
   * throws.
   */
  feed(chunk: Uint8Array, offset: number, declared?: number): void {
    if (offset === 0) this.start(declared);
    else if (offset !== this.received) this.declined = true;
    this.received = offset + chunk.length;
    this.last = chunk;
    // Positions are kept in 32 bits.
    if (this.received >= 2 ** 31) this.declined = true;
    if (this.declined || this.failure !== undefined) return;
    try {
      this.readOn(asBuffer(chunk));
    } catch (err) {
      if (err instanceof NotPlain) this.declined = true;
      else this.failure = err;
    }
  }

  /** The window of this body (the whole of it, read), or undefined: see renderPlainWindow. */
  finish(body: BodyChunks, serverDate: number | undefined): Buffer | undefined {
    if (serverDate === undefined || !Number.isFinite(serverDate)) return undefined;
    const fed =
      this.scanner !== undefined &&
      this.received === body.byteLength &&
      this.last === body.chunks.at(-1);
    if (!fed) {
      if (body.chunks.length === 0) this.start(0);
      let offset = 0;
      for (const chunk of body.chunks) {
        this.feed(chunk, offset, body.byteLength);
        offset += chunk.length;
      }
    }
    if (this.failure !== undefined) throw this.failure;
    if (this.declined || !this.scanner || !this.writer) return undefined;
    try {
      this.readHeld();
      this.scanner.finish(this.bytes.length);
      // The follower's merge sends a line stamped after the server's time (its upper bound: the
      // Date header + 1 s + the round trip) ahead of the others; one stamped up to here is not.
      if (!(this.scanner.newestKey <= serverDate + 999)) return undefined;
      return this.writer.inFollowerOrder();
    } catch (err) {
      if (err instanceof NotPlain) return undefined;
      throw err;
    }
  }

  /** Reading starts over, for a body of `declared` bytes if it is known. */
  private start(declared: number | undefined): void {
    this.declined = false;
    this.failure = undefined;
    this.received = 0;
    this.last = undefined;
    this.held = [];
    this.heldLength = 0;
    this.bytes = Buffer.alloc(0);
    const labels: Buffer[] = [];
    this.writer = new LineWriter(this.bytes, labels, this.times, declared);
    this.scanner = new WindowScanner(this.bytes, this.writer, labels);
  }

  /**
   * Reads on into `chunk`, the bytes that came next. What the bytes before left unread (an entry
   * cut by their end, or what follows the last entry) is read joined to as much of the chunk's
   * start as it takes to be read past, and the reading then goes on in the chunk where it is.
   */
  private readOn(chunk: Buffer): void {
    const scanner = this.scanner as WindowScanner;
    let rest = this.bytes.subarray(scanner.position);
    if (rest.length === 0) {
      this.readIn(chunk, 0);
      return;
    }
    // An entry longer than LONG is read again only once as many bytes again have come, so that
    // reading one entry of any length, in chunks of any size, is linear in its length.
    if (rest.length > LONG || this.held.length > 0) {
      this.held.push(chunk);
      this.heldLength += chunk.length;
      if (this.heldLength >= rest.length) this.readHeld();
      return;
    }
    for (let k = Math.min(chunk.length, Math.max(JOINED, 2 * rest.length)); ; ) {
      this.readIn(Buffer.concat([rest, chunk.subarray(0, k)]), 0);
      const at = scanner.position;
      if (at > rest.length) {
        this.readIn(chunk, at - rest.length);
        return;
      }
      // Not read past: all of the chunk is joined to it, in the end (the joined bytes are then
      // where the reading waits for more).
      if (k === chunk.length) return;
      rest = rest.subarray(at);
      k = Math.min(chunk.length, 4 * k);
    }
  }

  /** Reads the chunks held (see readOn) joined to what was left unread before them. */
  private readHeld(): void {
    if (this.held.length === 0) return;
    const rest = this.bytes.subarray((this.scanner as WindowScanner).position);
    const joined = Buffer.concat([rest, ...this.held]);
    this.held = [];
    this.heldLength = 0;
    this.readIn(joined, 0);
  }

  /** Reads what `bytes` hold from `at` on, where the reading goes on. */
  private readIn(bytes: Buffer, at: number): void {
    const scanner = this.scanner as WindowScanner;
    this.bytes = bytes;
    scanner.moveTo(bytes, at);
    scanner.read(bytes.length);
  }
}

/**
 * Writes each entry's line as the scanner reads it, in the response's order, and remembers
 * where each line starts and its sort key: the follower's order (timestamp, then the
 * response's) is that order unless some line came out of place, and then the lines are moved.
 */
class LineWriter implements EntrySink {
  private out: Buffer;
  private o = 0;
  private count = 0;
  private starts: Int32Array;
  private keys: Float64Array;
  private sorted = true;
  private lastKey = Number.NEGATIVE_INFINITY;
  private readonly time: TimeWriter | undefined;

  /** The body's bytes and the lines' as words (see leadingText). */
  private words: DataView;
  private outWords: DataView;

  constructor(
    private b: Buffer,
    private readonly labels: readonly Buffer[],
    times: TimeFormat | undefined,
    /** The body's length, when known. */
    declared: number | undefined,
  ) {
    // The lines take less room than the JSON they come in, but for escapes and times: grown
    // when an entry needs more.
    const body = declared ?? UNDECLARED;
    this.out = Buffer.allocUnsafe(body + 4096);
    this.words = viewOf(b);
    this.outWords = viewOf(this.out);
    // An entry of the usual size is over 128 bytes of JSON: room for every one, or grown.
    const entries = Math.max(1024, body >>> 7);
    this.starts = new Int32Array(entries);
    this.keys = new Float64Array(entries);
    this.time = times ? new TimeWriter(b, times.utc) : undefined;
  }

  moveTo(bytes: Buffer): void {
    this.b = bytes;
    this.words = viewOf(bytes);
    this.copiedFrom = -1;
    this.time?.moveTo(bytes);
  }

  /**
   * Where copyContent left the last content it read: the body's bytes [copiedFrom, copiedTo),
   * written at out[o + gap, copiedEnd), `gap` being the room left for the time and the label (as
   * much as the last line's took).
   */
  private copiedFrom = -1;
  private copiedTo = -1;
  private copiedEnd = 0;
  private gap = 0;

  copyContent(from: number, end: number): number {
    const b = this.b;
    const words = this.words;
    let w = this.o + this.gap;
    let i = from;
    for (;;) {
      const out = this.out;
      const outWords = this.outWords;
      // As far as the room surely holds (a byte is written as at most two, an escape's two as
      // four, and a word four bytes past w), and no further than the bytes there are: the loop
      // below grows nothing and calls nothing.
      const stop = Math.min(end, i + ((out.length - 8 - w) >> 1));
      const lastWord = stop - 4;
      while (i < stop) {
        // Text four bytes at a time, up to a byte that is not; that byte on its own below. The
        // word is written whole: its bytes past the text are past w, written over by what
        // follows (nothing past w is part of the lines).
        if (i <= lastWord) {
          const x = words.getInt32(i, true);
          outWords.setInt32(w, x, true);
          const text = leadingText(x);
          w += text;
          i += text;
          if (text === 4) continue;
        }
        const c = b[i] as number;
        // A quote escaped in the text (JSON in a line's content) the most often.
        if (c === BACKSLASH && i + 1 < end && b[i + 1] === QUOTE) {
          out[w++] = QUOTE;
          i += 2;
          continue;
        }
        const what = STRING_BYTE[c] as number;
        if (what === TEXT) {
          out[w++] = c;
          i++;
        } else if (what === END) {
          this.copiedFrom = from;
          this.copiedTo = i;
          this.copiedEnd = w;
          return i;
        } else if (what === ESCAPE) {
          if (i + 1 >= end) return SHORT;
          const e = b[i + 1] as number;
          i += 2;
          if (e === QUOTE || e === BACKSLASH || e === 0x2f /* / */) out[w++] = e;
          else if (e === 0x74 /* t */)
            out[w++] = 0x09; // a tab, kept
          else if (e === 0x75 /* u */) return NEEDS_DECODING;
          else {
            const control = CONTROL_OF[e] ?? 0;
            if (control === 0) return INVALID;
            out[w++] = BACKSLASH;
            out[w++] = 0x78; // x
            out[w++] = 0x30; // 0
            out[w++] = HEX[control] as number;
          }
        } else if (what === NOT_ASCII) return NEEDS_DECODING;
        else return INVALID; // a raw control character
      }
      if (i >= end) return SHORT;
      this.growOut(w - this.o + 1024, w);
    }
  }

  add(labelId: number, from: number, to: number, kind: StringKind, key: number, ts: Digits): void {
    if (this.count === this.keys.length) this.growEntries();
    const i = this.count++;
    this.starts[i] = this.o;
    this.keys[i] = key;
    if (key < this.lastKey) this.sorted = false;
    else this.lastKey = key;
    const label = this.labels[labelId] as Buffer;
    const head = (this.time ? this.time.prepare(ts) : 0) + label.length;
    while (this.labelWords.length < this.labels.length) {
      const met = this.labels[this.labelWords.length] as Buffer;
      this.labelWords.push(met.length >= 4 ? wordsOf(met) : undefined);
    }
    if (from === this.copiedFrom && to === this.copiedTo)
      this.placeCopied(labelId, label, head, ts);
    else this.write(label, head, from, to, kind, ts);
    this.copiedFrom = -1;
    this.gap = head;
  }

  /** The line of the content copyContent copied: its time and label before it, then a newline. */
  private placeCopied(labelId: number, label: Buffer, head: number, ts: Digits): void {
    const o = this.o;
    const contentAt = o + this.gap;
    let end = this.copiedEnd;
    if (head !== this.gap) {
      // The room left was not this line's: the content moves.
      if (end + (head - this.gap) + 1 > this.out.length) this.growOut(end - o + head + 1, end);
      this.out.copyWithin(o + head, contentAt, end);
      end += head - this.gap;
    } else if (end + 1 > this.out.length) this.growOut(end - o + 1, end);
    const out = this.out;
    let w = o;
    if (this.time) w = this.time.write(ts, out, w);
    const words = this.labelWords[labelId];
    if (words !== undefined) {
      // Four bytes at a time, the last word ending where the label does.
      const outWords = this.outWords;
      const last = words.length - 1;
      for (let k = 0; k < last; k++) outWords.setInt32(w + 4 * k, words[k] as number, true);
      outWords.setInt32(w + label.length - 4, words[last] as number, true);
    } else for (let k = 0; k < label.length; k++) out[w + k] = label[k] as number;
    out[end++] = 0x0a;
    this.o = end;
  }

  /** Each label's `[label] ` as words (wordsOf), by id, when four bytes or more. */
  private labelWords: (Int32Array | undefined)[] = [];

  /** The line of an entry whose content was read the usual way. */
  private write(
    label: Buffer,
    head: number,
    from: number,
    to: number,
    kind: StringKind,
    ts: Digits,
  ): void {
    const b = this.b;
    let decoded: Buffer | undefined;
    let size = to - from;
    // An escape of two bytes becomes at most four (`\n` is written `\x0a`).
    if (kind === ESCAPES) size *= 2;
    else if (kind === DECODE) {
      decoded = Buffer.from(sanitizeForTerminal(decodeJsonString(b, from, to)), "utf8");
      size = decoded.length;
    }
    const room = head + size + 1;
    if (this.o + room > this.out.length) this.growOut(room, this.o);
    const out = this.out;
    let o = this.o;
    if (this.time) o = this.time.write(ts, out, o);
    for (let k = 0; k < label.length; k++) out[o++] = label[k] as number;
    if (kind === PLAIN) o += b.copy(out, o, from, to);
    else if (kind === ESCAPES) o = unescapeInto(b, from, to, out, o);
    else o += (decoded as Buffer).copy(out, o);
    out[o++] = 0x0a;
    this.o = o;
  }

  /** The lines written, in the follower's order. */
  inFollowerOrder(): Buffer {
    const n = this.count;
    const written = this.out.subarray(0, this.o);
    if (this.sorted) return written;
    const { keys, starts } = this;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // Stable: equal keys keep the response's order.
    order.sort((x, y) => (keys[x] as number) - (keys[y] as number) || x - y);
    const moved = Buffer.allocUnsafe(this.o);
    let o = 0;
    for (let j = 0; j < n; j++) {
      const i = order[j] as number;
      const end = i + 1 < n ? (starts[i + 1] as number) : this.o;
      o += written.copy(moved, o, starts[i] as number, end);
    }
    return moved;
  }

  /** Room for `room` bytes after the line at `o`, keeping what is written before `written`. */
  private growOut(room: number, written: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.o + room));
    this.out.copy(grown, 0, 0, written);
    this.out = grown;
    this.outWords = viewOf(grown);
  }

  private growEntries(): void {
    const size = this.keys.length * 2;
    const starts = new Int32Array(size);
    starts.set(this.starts);
    this.starts = starts;
    const keys = new Float64Array(size);
    keys.set(this.keys);
    this.keys = keys;
  }
}

/**
 * `--timestamps`: each line's time as formatRfc3339 writes it. Lines come many to a second: the
 * text before the nanoseconds and the zone after them are made once per second, and the
 * nanoseconds' digits are copied from the body (padded to nine, as formatRfc3339 pads them).
 */
class TimeWriter {
  /** Where the last second's digits lay in the body, and how many there were. */
  private secondsAt = -1;
  private secondsDigits = 0;
  /** Its time up to the nanoseconds (`2026-11-27T01:31:47.`), and the zone after them. */
  private head: Buffer = Buffer.alloc(0);
  private zone: Buffer = Buffer.alloc(0);
  /** The second is no time RFC 3339 can write: the time is formatRfc3339's word for that. */
  private invalid = false;

  constructor(
    private b: Buffer,
    private readonly utc: boolean,
  ) {}

  /** The digits are in these bytes from now on (the last second's are not). */
  moveTo(bytes: Buffer): void {
    this.b = bytes;
    this.secondsAt = -1;
    this.secondsDigits = 0;
  }

  /** How many bytes the time of `ts` and its space take (the second's text made if new). */
  prepare(ts: Digits): number {
    const b = this.b;
    const at = ts.secondsAt;
    const digits = ts.secondsDigits;
    let same = digits === this.secondsDigits;
    for (let k = 0; same && k < digits; k++) same = b[at + k] === b[this.secondsAt + k];
    if (!same) this.second(at, digits);
    return this.head.length + (this.invalid ? 0 : 9 + this.zone.length) + 1;
  }

  /** The time of `ts` (prepared) and a space, into `out` at `o`; returns where it ended. */
  write(ts: Digits, out: Buffer, o: number): number {
    const b = this.b;
    const head = this.head;
    for (let k = 0; k < head.length; k++) out[o++] = head[k] as number;
    if (!this.invalid) {
      const nanosAt = ts.nanosAt;
      const nanos = ts.nanosDigits;
      for (let k = nanos; k < 9; k++) out[o++] = 0x30;
      for (let k = 0; k < nanos; k++) out[o++] = b[nanosAt + k] as number;
      const zone = this.zone;
      for (let k = 0; k < zone.length; k++) out[o++] = zone[k] as number;
    }
    out[o++] = 0x20;
    return o;
  }

  /** A new second: its head and zone as formatRfc3339 writes them. */
  private second(at: number, digits: number): void {
    const seconds = this.b.toString("latin1", at, at + digits);
    const time = formatRfc3339(seconds, "000000000", this.utc);
    if (time.length > TIME_ROOM) throw DECLINE;
    const dot = time.indexOf(".");
    this.invalid = dot < 0;
    this.head = Buffer.from(this.invalid ? time : time.slice(0, dot + 1), "latin1");
    this.zone = Buffer.from(this.invalid ? "" : time.slice(dot + 10), "latin1");
    this.secondsAt = at;
    this.secondsDigits = digits;
  }
}

/**
 * Printable ASCII with JSON escapes other than \u, unescaped into `out` at `o` (room for twice
 * its length): the controls they stand for written as sanitizeForTerminal escapes them (`\x0a`),
 * a tab kept. Returns where it ended; declines an invalid escape.
 */
function unescapeInto(b: Buffer, from: number, to: number, out: Buffer, o: number): number {
  let w = o;
  for (let i = from; i < to; i++) {
    const c = b[i] as number;
    if (c !== BACKSLASH) {
      out[w++] = c;
      continue;
    }
    const e = b[++i] as number;
    if (e === QUOTE || e === BACKSLASH || e === 0x2f /* / */) {
      out[w++] = e;
      continue;
    }
    if (e === 0x74 /* t */) {
      out[w++] = 0x09; // a tab, kept
      continue;
    }
    const control = CONTROL_OF[e] ?? 0;
    if (control === 0) throw DECLINE;
    out[w++] = BACKSLASH;
    out[w++] = 0x78; // x
    out[w++] = 0x30; // 0
    out[w++] = HEX[control] as number;
  }
  return w;
}

/** The control that a JSON escape's letter stands for (\n, \r, \b, \f), else 0. */
const CONTROL_OF = new Uint8Array(128);
CONTROL_OF[0x6e] = 0x0a;
CONTROL_OF[0x72] = 0x0d;
CONTROL_OF[0x62] = 0x08;
CONTROL_OF[0x66] = 0x0c;

/** The hex digit of 0-15, as sanitizeForTerminal writes it (lower case). */
const HEX = Buffer.from("0123456789abcdef", "latin1");
