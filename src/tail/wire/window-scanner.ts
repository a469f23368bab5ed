/**
 * Reads a debug-log answer's bytes for the plain window (./plain-window.ts), handing each entry
 * on to an EntrySink as it is read: `{"entries":[...]}` with the schema's keys and nothing more,
 * every line with a timestamp of plain digits. Anything else is declined (DECLINE), and the caller
 * hands the answer to the follower.
 *
 * The bytes may be read as they come: `read(end)` reads what the first `end` bytes hold and
 * stops before an entry they do not hold whole (read again from its start once more has come),
 * and `finish(length)` reads the rest and checks that the body ends there. No byte at or past
 * the end given is looked at. The reading can go on in other bytes (`moveTo`: the body's next
 * chunk), so that a body is read in the chunks it comes in.
 */

import { renderReplicaLabel } from "../../logs/formats/text-line.js";
import { timestampSortKey } from "../../logs/model/log-line.js";
import {
  DECODE,
  type Digits,
  type EntrySink,
  ESCAPES,
  INVALID,
  PLAIN,
  SHORT,
  type StringKind,
} from "./entry-table.js";
import { digitsValue, leadingDigits, wordsOf } from "./plain-word.js";

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

/** The literals of an entry as compactEntry reads it. */
const ENTRY_OPEN = Buffer.from('{"line":{"content":', "latin1");
const TS_OPEN = Buffer.from(',"ts":{"seconds":', "latin1");
const NANOS = Buffer.from(',"nanos":', "latin1");
const LABEL = Buffer.from('}},"replicaLabel":', "latin1");

/** compactEntry's literals with the quotes of the strings between them, as words (wordsOf). */
const OPEN = wordsOf(Buffer.from('{"line":{"content":"', "latin1"));
const OPEN_LENGTH = 20;
const SECONDS = wordsOf(Buffer.from('","ts":{"seconds":"', "latin1"));
const SECONDS_LENGTH = 19;
const NANOS_KEY = wordsOf(Buffer.from('","nanos":"', "latin1"));
const NANOS_LENGTH = 11;
const LABEL_KEY = wordsOf(Buffer.from('"}},"replicaLabel":"', "latin1"));
const LABEL_LENGTH = 20;
/** The bytes between two compact entries: the end of one, the comma, the start of the next. */
const ENTRY_GAP = Buffer.from('"},{"line":{"content":"', "latin1");

/** Whether the bytes at p (all there) are OPEN's, and so on for the others. */
function isOpen(v: DataView, p: number): boolean {
  return (
    v.getInt32(p, true) === OPEN[0] &&
    v.getInt32(p + 4, true) === OPEN[1] &&
    v.getInt32(p + 8, true) === OPEN[2] &&
    v.getInt32(p + 12, true) === OPEN[3] &&
    v.getInt32(p + 16, true) === OPEN[4]
  );
}

function isSeconds(v: DataView, p: number): boolean {
  return (
    v.getInt32(p, true) === SECONDS[0] &&
    v.getInt32(p + 4, true) === SECONDS[1] &&
    v.getInt32(p + 8, true) === SECONDS[2] &&
    v.getInt32(p + 12, true) === SECONDS[3] &&
    v.getInt32(p + 15, true) === SECONDS[4]
  );
}

function isNanos(v: DataView, p: number): boolean {
  return (
    v.getInt32(p, true) === NANOS_KEY[0] &&
    v.getInt32(p + 4, true) === NANOS_KEY[1] &&
    v.getInt32(p + 7, true) === NANOS_KEY[2]
  );
}

/** Whether the bytes at p (all there) are those of `words` (wordsOf) but for the last word. */
function wordsAt(v: DataView, p: number, words: Int32Array): boolean {
  const n = words.length - 1;
  for (let k = 0; k < n; k++) if (v.getInt32(p + 4 * k, true) !== words[k]) return false;
  return true;
}

/** Ten to the power of 0 to 4. */
const TEN_TO = [1, 10, 100, 1000, 10000];

function isLabel(v: DataView, p: number): boolean {
  return (
    v.getInt32(p, true) === LABEL_KEY[0] &&
    v.getInt32(p + 4, true) === LABEL_KEY[1] &&
    v.getInt32(p + 8, true) === LABEL_KEY[2] &&
    v.getInt32(p + 12, true) === LABEL_KEY[3] &&
    v.getInt32(p + 16, true) === LABEL_KEY[4]
  );
}

/** Declines the body: not the usual shape (the caller decodes it and follows as usual). */
export class NotPlain extends Error {}
export const DECLINE = new NotPlain();

/** The bytes read so far end inside what is being read: read it again once more has come. */
const MORE = new Error("the body's bytes end here for now");

/** What a byte inside a JSON string is to string(): most are just text. */
export const TEXT = 0;
export const END = 1;
export const ESCAPE = 2;
const RAW_CONTROL = 3;
export const NOT_ASCII = 4;
export const STRING_BYTE = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_BYTE[c] = RAW_CONTROL;
STRING_BYTE[QUOTE] = END;
STRING_BYTE[BACKSLASH] = ESCAPE;
// DEL is ASCII, but sanitizeForTerminal escapes it: decoded with the rest.
for (let c = 0x7f; c < 256; c++) STRING_BYTE[c] = NOT_ASCII;

/** Where the reading is: before `{"entries":[`, before an entry, after one, after the `]`. */
const OPENING = 0;
const ENTRY = 1;
const AFTER_ENTRY = 2;
const CLOSING = 3;
type Place = typeof OPENING | typeof ENTRY | typeof AFTER_ENTRY | typeof CLOSING;

/** Reads the body's entries into an EntrySink; throws DECLINE at anything unusual. */
export class WindowScanner {
  private pos = 0;
  /** The bytes that may be looked at: [0, end). */
  private end = 0;
  /** Whether `end` is the body's end (nothing more comes). */
  private final = false;
  private place: Place = OPENING;
  /** The latest sort key read (NaN if one was not a number). */
  private newest = Number.NEGATIVE_INFINITY;
  /**
   * Each label met: its JSON text; that text with the `"}` after it as words (wordsOf), how many
   * bytes they are (-1 when under four) and their last word.
   */
  private labelText: Buffer[] = [];
  private labelWords: (Int32Array | undefined)[] = [];
  private labelSpan: number[] = [];
  private labelLastWord: number[] = [];
  /** The bytes, to be read as 32-bit words. */
  private view: DataView;

  constructor(
    private b: Buffer,
    private readonly sink: EntrySink,
    /** Each label's rendered `[label] `, by id, as the labels are met. */
    private readonly labels: Buffer[],
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.length);
  }

  /** Where the reading is in the bytes: what is before it is read. */
  get position(): number {
    return this.pos;
  }

  /**
   * The reading goes on in `bytes`, at `pos`: the bytes from there on are those that followed
   * where the reading was (the next chunk of the body, or the end of one joined to the start of
   * the next). The positions the sink is given are in `bytes` from now on.
   */
  moveTo(bytes: Buffer, pos: number): void {
    this.b = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.pos = pos;
    this.lastSecondsDigits = 0;
    this.lastGap = -1;
    this.searched = 0;
    this.sink.moveTo(bytes);
  }

  /** The latest sort key of the entries read. */
  get newestKey(): number {
    return this.newest;
  }

  /**
   * Reads what the first `end` bytes hold whole (more than before: the bytes before are as they
   * were), handing each entry to the sink in the response's order.
   */
  read(end: number): void {
    const bytes = Math.min(end, this.b.length);
    this.end = this.final ? bytes : this.wholeEntries(bytes);
    for (;;) {
      const start = this.pos;
      try {
        if (!this.step()) return;
      } catch (err) {
        if (err !== MORE) throw err;
        this.pos = start;
        return;
      }
    }
  }

  /**
   * Where, in the first `bytes`, the last compact entry there ends (ENTRY_GAP is after it), if it
   * ends after where the reading is; else `bytes`. Read up to there, the reading stops after an
   * entry rather than inside one, as it would at most chunks' ends: the entry cut there would be
   * read twice, and compactEntries would leave from the middle of an entry at a different place
   * each time (each a path the compiled code has not met, which sends it back to be compiled
   * again). ENTRY_GAP can be in no string (its second quote is not escaped), so in a body of
   * compact entries it is always after an entry; in any other, reading up to it is reading as if
   * less had come. Each search looks only at the bytes come since the last one.
   */
  private wholeEntries(bytes: number): number {
    const from = Math.max(this.pos, this.searched - ENTRY_GAP.length + 1);
    if (bytes - from >= ENTRY_GAP.length) {
      const gap = this.b.subarray(from, bytes).lastIndexOf(ENTRY_GAP);
      if (gap >= 0) this.lastGap = from + gap;
      this.searched = bytes;
    }
    return this.lastGap >= this.pos ? this.lastGap + 2 : bytes;
  }

  /** The last ENTRY_GAP wholeEntries found, and how far it has searched. */
  private lastGap = -1;
  private searched = 0;

  /** Reads the rest of a body of the first `length` bytes and checks that it ends there. */
  finish(length: number): void {
    if (length > this.b.length) throw DECLINE;
    this.final = true;
    this.read(length);
    if (this.place !== CLOSING || this.pos !== length) throw DECLINE;
  }

  /** One step of the reading; false once the bytes so far are read (or the body is). */
  private step(): boolean {
    switch (this.place) {
      case OPENING:
        this.ws();
        this.expect(0x7b); // {
        this.ws();
        if (!this.key("entries")) throw DECLINE;
        this.expect(0x5b); // [
        this.ws();
        if (this.peek() === 0x5d) {
          this.pos++;
          this.place = CLOSING;
        } else this.place = ENTRY;
        return true;
      case ENTRY: {
        // Most entries are read here; an entry not yet whole waits for more of the body. The
        // entries read are kept: a step that reads on from them is another step.
        const at = this.pos;
        if (this.compactEntries() && !this.final) return false;
        if (this.place !== ENTRY || this.pos !== at) return true;
        // The spaces before it may have come only now.
        this.ws();
        this.entry();
        this.place = AFTER_ENTRY;
        return true;
      }
      case AFTER_ENTRY: {
        this.ws();
        const c = this.next();
        if (c === 0x5d) this.place = CLOSING;
        else if (c === 0x2c) this.place = ENTRY;
        else throw DECLINE;
        return true;
      }
      default:
        // `}` and nothing after it but spaces: read once the body has ended.
        if (!this.final) return false;
        this.ws();
        this.expect(0x7d); // }
        this.ws();
        return false;
    }
  }

  /** Past the bytes there are: wait for more, or decline a body that ends there. */
  private short(): Error {
    return this.final ? DECLINE : MORE;
  }

  /**
   * One entry: as Turnkey's API and most servers write it (no spaces, keys in the schema's order:
   * compared as a few literals), else through the general reading below.
   */
  private entry(): void {
    const start = this.pos;
    if (this.compactEntry()) return;
    this.pos = start;
    this.anyEntry();
  }

  /**
   * Entries as compactEntry reads them, one after another, read as it reads them but with less
   * done per byte (literals compared four bytes at a time, no step between entries), for as long
   * as each is whole in the bytes there are and of exactly that shape with a plain label already
   * met. The reading is left after the last entry read: before the next one (ENTRY), or after an
   * entry not followed by a comma (AFTER_ENTRY). Returns whether the bytes there are ran out (else
   * what is next is for the rest of the reading to read: an entry of another shape, a label not
   * yet met, the end of the list).
   */
  private compactEntries(): boolean {
    const b = this.b;
    const view = this.view;
    const end = this.end;
    const ts = this.ts;
    const labels = this.labelWords;
    const spans = this.labelSpan;
    const lastWords = this.labelLastWord;
    let p = this.pos;
    // Where the reading stops (one way out, whatever the reason: see wholeEntries): before the
    // entry at p, for want of bytes unless said otherwise.
    let place: Place = ENTRY;
    let short = true;
    for (;;) {
      // An entry starts at p; its content's text after OPEN.
      const from = p + OPEN_LENGTH;
      if (from > end) break;
      if (!isOpen(view, p)) {
        short = false;
        break;
      }
      const quote = this.sink.copyContent(from, end);
      if (quote < 0) {
        short = quote === SHORT;
        break;
      }
      let q = quote + SECONDS_LENGTH;
      if (q > end) break;
      if (!isSeconds(view, quote)) {
        short = false;
        break;
      }
      // The seconds' digits and their quote: most often the bytes of the entry before's (lines
      // come many to a second; epoch seconds have ten digits from 2001 to 2286).
      const secondsAt = q;
      let seconds = this.lastSeconds;
      const last = this.lastSecondsAt;
      if (
        this.lastSecondsDigits === 10 &&
        q + 11 <= end &&
        view.getInt32(q, true) === view.getInt32(last, true) &&
        view.getInt32(q + 4, true) === view.getInt32(last + 4, true) &&
        view.getInt32(q + 7, true) === view.getInt32(last + 7, true)
      )
        q += 10;
      else {
        q = this.digitsFrom(q, end);
        if (q < 0) break;
        seconds = this.digitValue;
        const digits = q - secondsAt;
        if (digits === 0 || digits > 15) {
          short = false;
          break;
        }
        this.lastSeconds = seconds;
        this.lastSecondsAt = secondsAt;
        this.lastSecondsDigits = digits;
      }
      const secondsDigits = q - secondsAt;
      if (q + NANOS_LENGTH > end) break;
      if (!isNanos(view, q)) {
        short = false;
        break;
      }
      q += NANOS_LENGTH;
      const nanosAt = q;
      q = this.digitsFrom(q, end);
      if (q < 0 || q + LABEL_LENGTH > end) break;
      const nanos = this.digitValue;
      const nanosDigits = q - nanosAt;
      if (nanosDigits === 0 || nanosDigits > 9 || !isLabel(view, q)) {
        short = false;
        break;
      }
      // The label: one met before, its closing quote and the entry's brace after it.
      q += LABEL_LENGTH;
      let labelId = -1;
      let cut = false;
      for (let id = 0; id < labels.length; id++) {
        // Its last word first: labels differ most at their ends.
        const length = spans[id] as number;
        if (length < 0) continue;
        if (q + length > end) cut = true;
        else if (
          view.getInt32(q + length - 4, true) === lastWords[id] &&
          wordsAt(view, q, labels[id] as Int32Array)
        ) {
          labelId = id;
          q += length;
          break;
        }
      }
      if (labelId < 0) {
        short = cut;
        break;
      }
      ts.secondsAt = secondsAt;
      ts.secondsDigits = secondsDigits;
      ts.nanosAt = nanosAt;
      ts.nanosDigits = nanosDigits;
      this.sink.add(labelId, from, quote, ESCAPES, this.sortKey(seconds, nanos), ts);
      p = q;
      if (p >= end || b[p] !== 0x2c) {
        place = AFTER_ENTRY;
        short = p >= end;
        break;
      }
      p++;
    }
    this.pos = p;
    this.place = place;
    return short;
  }

  /**
   * The digits from q on, four at a time (leadingDigits), in the bytes before `end`: where they
   * end, their value left in digitValue; -1 if the bytes end first.
   */
  private digitsFrom(q: number, end: number): number {
    const view = this.view;
    let n = 0;
    for (; q + 4 <= end; q += 4) {
      const x = view.getInt32(q, true);
      const digits = leadingDigits(x);
      if (digits < 4) {
        this.digitValue =
          digits === 0 ? n : n * (TEN_TO[digits] as number) + digitsValue(x, digits);
        return q + digits;
      }
      n = n * 10000 + digitsValue(x, 4);
    }
    const b = this.b;
    for (; q < end; q++) {
      const c = b[q] as number;
      if (c < 0x30 || c > 0x39) {
        this.digitValue = n;
        return q;
      }
      n = n * 10 + (c - 0x30);
    }
    return -1;
  }

  /** The value of the digits digitsFrom read last. */
  private digitValue = 0;

  /** The seconds compactEntries read last: their value, where their digits are, how many. */
  private lastSeconds = 0;
  private lastSecondsAt = 0;
  private lastSecondsDigits = 0;

  /** `{"line":{"content":"…","ts":{"seconds":"…","nanos":"…"}},"replicaLabel":"…"}` exactly. */
  private compactEntry(): boolean {
    if (!this.literal(ENTRY_OPEN)) return false;
    this.content();
    const from = this.strFrom;
    const to = this.strTo;
    const kind = this.strKind;
    if (!this.literal(TS_OPEN)) return false;
    const ts = this.ts;
    const seconds = this.digits(15);
    ts.secondsAt = this.digitsAt;
    ts.secondsDigits = this.digitsCount;
    if (!this.literal(NANOS)) return false;
    const nanos = this.digits(9);
    ts.nanosAt = this.digitsAt;
    ts.nanosDigits = this.digitsCount;
    if (!this.literal(LABEL)) return false;
    const labelId = this.label();
    if (this.peek() !== 0x7d) return false;
    this.pos++;
    this.sink.add(labelId, from, to, kind, this.sortKey(seconds, nanos), ts);
    return true;
  }

  /** Whether these bytes are next; if so, reads past them. */
  private literal(bytes: Uint8Array): boolean {
    const b = this.b;
    const p = this.pos;
    const len = bytes.length;
    if (p + len > this.end) {
      if (!this.final) throw MORE;
      return false;
    }
    for (let i = 0; i < len; i++) if (b[p + i] !== bytes[i]) return false;
    this.pos = p + len;
    return true;
  }

  /**
   * An object of exactly two keys, in either order, spaces anywhere: each key's value is read by
   * its reader. A key twice, a third key, or a key missing is declined.
   */
  private pair(first: string, readFirst: () => void, second: string, readSecond: () => void): void {
    this.expect(0x7b);
    let seen = 0;
    for (let k = 0; k < 2; k++) {
      this.ws();
      if (k === 1) {
        this.expect(0x2c);
        this.ws();
      }
      if ((seen & 1) === 0 && this.key(first)) {
        seen |= 1;
        readFirst();
      } else if ((seen & 2) === 0 && this.key(second)) {
        seen |= 2;
        readSecond();
      } else throw DECLINE;
    }
    this.ws();
    this.expect(0x7d);
  }

  /** `{"line": {...}, "replicaLabel": "..."}`, the general way (see entry). */
  private anyEntry(): void {
    let labelId = -1;
    this.pair(
      "line",
      () => this.line(),
      "replicaLabel",
      () => {
        labelId = this.label();
      },
    );
    this.sink.add(
      labelId,
      this.contentFrom,
      this.contentTo,
      this.contentKind,
      this.lineKey,
      this.ts,
    );
  }

  /** The last line read: where its content lies, what it holds, and its sort key. */
  private contentFrom = 0;
  private contentTo = 0;
  private contentKind: StringKind = PLAIN;
  private lineKey = 0;

  /** `{"content": "...", "ts": {...}}`; a line without ts is declined. */
  private line(): void {
    this.pair(
      "content",
      () => {
        this.string();
        this.contentFrom = this.strFrom;
        this.contentTo = this.strTo;
        this.contentKind = this.strKind;
      },
      "ts",
      () => {
        this.lineKey = this.timestamp();
      },
    );
  }

  /** `{"seconds": "digits", "nanos": "digits"}`: the line's sort key. */
  private timestamp(): number {
    let seconds = 0;
    let nanos = 0;
    this.pair(
      "seconds",
      () => {
        seconds = this.digits(15);
        this.ts.secondsAt = this.digitsAt;
        this.ts.secondsDigits = this.digitsCount;
      },
      "nanos",
      () => {
        nanos = this.digits(9);
        this.ts.nanosAt = this.digitsAt;
        this.ts.nanosDigits = this.digitsCount;
      },
    );
    return this.sortKey(seconds, nanos);
  }

  /** The follower's sort key (the de-duplicator's formula); the latest one is kept. */
  private sortKey(seconds: number, nanos: number): number {
    const key = timestampSortKey(seconds, nanos);
    if (!(key <= this.newest)) this.newest = key;
    return key;
  }

  /** The last line's timestamp digits. */
  private readonly ts: Digits = { secondsAt: 0, secondsDigits: 0, nanosAt: 0, nanosDigits: 0 };
  /** The last digits read: where they start, how many. */
  private digitsAt = 0;
  private digitsCount = 0;

  /** A string of 1 to `max` ASCII digits, as a number. */
  private digits(max: number): number {
    this.expect(QUOTE);
    const b = this.b;
    const end = this.end;
    const from = this.pos;
    let p = from;
    let n = 0;
    let c = p < end ? (b[p] as number) : -1;
    while (c >= 0x30 && c <= 0x39) {
      n = n * 10 + (c - 0x30);
      c = ++p < end ? (b[p] as number) : -1;
    }
    if (c === -1) throw this.short();
    if (p === from || p - from > max || c !== QUOTE) throw DECLINE;
    this.pos = p + 1;
    this.digitsAt = from;
    this.digitsCount = p - from;
    return n;
  }

  /** A replica label: the id of its rendered `[label] ` (a few labels repeat: bytes compared). */
  private label(): number {
    this.string();
    const b = this.b;
    const from = this.strFrom;
    const to = this.strTo;
    const known = this.knownLabel(from, to);
    if (known >= 0) return known;
    if (this.labelText.length >= 64) throw DECLINE;
    const text =
      this.strKind === PLAIN ? b.toString("latin1", from, to) : decodeJsonString(b, from, to);
    const json = Buffer.from(b.subarray(from, to));
    const span = Buffer.concat([json, Buffer.from('"}', "latin1")]);
    const words = span.length >= 4 ? wordsOf(span) : undefined;
    this.labelText.push(json);
    this.labelWords.push(words);
    this.labelSpan.push(words ? span.length : -1);
    this.labelLastWord.push(words ? (words[words.length - 1] as number) : 0);
    this.labels.push(Buffer.from(`${renderReplicaLabel(text, false)} `, "utf8"));
    return this.labelText.length - 1;
  }

  /** The id of the label met before whose JSON text is the bytes [from, to), or -1. */
  private knownLabel(from: number, to: number): number {
    const b = this.b;
    const len = to - from;
    const seen = this.labelText;
    // Compared from the end: "replica 1/3" and "replica 2/3" differ there.
    for (let id = 0; id < seen.length; id += 1) {
      const text = seen[id] as Buffer;
      if (text.length !== len) continue;
      let i = len - 1;
      while (i >= 0 && b[from + i] === text[i]) i--;
      if (i < 0) return id;
    }
    return -1;
  }

  /** A line's content, copied into its line by the sink as it is read (else read as usual). */
  private content(): void {
    this.expect(QUOTE);
    const from = this.pos;
    const quote = this.sink.copyContent(from, this.end);
    if (quote >= 0) {
      this.pos = quote + 1;
      this.strFrom = from;
      this.strTo = quote;
      this.strKind = ESCAPES;
      return;
    }
    if (quote === SHORT) throw this.short();
    if (quote === INVALID) throw DECLINE;
    this.pos = from - 1;
    this.string();
  }

  /** The last string read: its text lies in [strFrom, strTo); what it holds (see StringKind). */
  private strFrom = 0;
  private strTo = 0;
  private strKind: StringKind = PLAIN;

  /** A JSON string (a raw control character, invalid JSON, is declined). */
  private string(): void {
    this.expect(QUOTE);
    const b = this.b;
    const end = this.end;
    const from = this.pos;
    let kind: StringKind = PLAIN;
    let i = from;
    for (;;) {
      if (i >= end) throw this.short();
      let what = STRING_BYTE[b[i] as number] as number;
      while (what === TEXT && ++i < end) what = STRING_BYTE[b[i] as number] as number;
      if (i >= end) throw this.short();
      if (what === END) break;
      if (what === RAW_CONTROL) throw DECLINE;
      if (what === ESCAPE) {
        if (i + 1 >= end) throw this.short();
        if (b[i + 1] === 0x75 /* u */) kind = DECODE;
        else if (kind === PLAIN) kind = ESCAPES;
        i += 2;
      } else {
        kind = DECODE;
        i++;
      }
    }
    this.pos = i + 1;
    this.strFrom = from;
    this.strTo = i;
    this.strKind = kind;
  }

  /** Whether `"name"` (spelled plainly) and a colon are next; if so, reads past them. */
  private key(name: string): boolean {
    const b = this.b;
    const p = this.pos;
    const len = name.length;
    if (p + len + 2 > this.end) {
      if (!this.final) throw MORE;
      return false;
    }
    if (b[p] !== QUOTE || b[p + len + 1] !== QUOTE) return false;
    for (let i = 0; i < len; i++) if (b[p + 1 + i] !== name.charCodeAt(i)) return false;
    this.pos = p + len + 2;
    this.ws();
    this.expect(0x3a); // :
    this.ws();
    return true;
  }

  /** Spaces, up to the bytes there are. */
  private ws(): void {
    const b = this.b;
    const end = this.end;
    let p = this.pos;
    while (p < end) {
      const c = b[p];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.pos = p;
  }

  private peek(): number {
    if (this.pos >= this.end) throw this.short();
    return this.b[this.pos] as number;
  }

  private next(): number {
    const c = this.peek();
    this.pos++;
    return c;
  }

  private expect(c: number): void {
    if (this.peek() !== c) throw DECLINE;
    this.pos++;
  }
}

/** The text of a JSON string whose bytes lie in [from, to) (escapes and UTF-8 decoded). */
export function decodeJsonString(b: Buffer, from: number, to: number): string {
  try {
    return JSON.parse(b.toString("utf8", from - 1, to + 1)) as string;
  } catch {
    throw DECLINE; // an invalid escape: the follower's decoding names it
  }
}
