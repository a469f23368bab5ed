/**
 * Reads a debug-log answer's bytes into an EntryTable for the plain window (./plain-window.ts):
 * `{"entries":[...]}` with the schema's keys and nothing more, every line with a timestamp of
 * plain digits and none sent ahead of the others by the follower's merge. Anything else is
 * declined (DECLINE), and the caller hands the answer to the follower.
 */
import { timestampSortKey } from "../log-line.js";
import { renderReplicaLabel } from "../stream-format.js";
import { DECODE, type Digits, EntryTable, ESCAPES, PLAIN, type StringKind } from "./entry-table.js";

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

/** The literals of an entry as compactEntry reads it. */
const ENTRY_OPEN = Buffer.from('{"line":{"content":', "latin1");
const TS_OPEN = Buffer.from(',"ts":{"seconds":', "latin1");
const NANOS = Buffer.from(',"nanos":', "latin1");
const LABEL = Buffer.from('}},"replicaLabel":', "latin1");

/** Declines the body: not the usual shape (the caller decodes it and follows as usual). */
export class NotPlain extends Error {}
export const DECLINE = new NotPlain();

/** Reads the body's entries into an EntryTable; throws DECLINE at anything unusual. */
export class WindowScanner {
  private pos = 0;
  readonly table = new EntryTable();
  /** Each label met: where its JSON text first lay, how long it is, and its rendered `[label] `. */
  private labelAt: number[] = [];
  private labelLength: number[] = [];
  readonly labels: Buffer[] = [];

  /**
   * The follower's merge sends a line stamped after the server's time (its upper bound: the Date
   * header + 1 s + the round trip) ahead of the others; a line stamped up to here is not.
   */
  private readonly notAhead: number;

  constructor(
    private readonly b: Buffer,
    serverDate: number,
  ) {
    this.notAhead = serverDate + 999;
  }

  scan(): { table: EntryTable; labels: Buffer[] } {
    this.ws();
    this.expect(0x7b); // {
    this.ws();
    if (!this.key("entries")) throw DECLINE;
    this.expect(0x5b); // [
    this.ws();
    if (this.peek() === 0x5d) this.pos++;
    else {
      for (;;) {
        this.entry();
        this.ws();
        const c = this.next();
        if (c === 0x5d) break;
        if (c !== 0x2c) throw DECLINE;
        this.ws();
      }
    }
    this.ws();
    this.expect(0x7d); // }
    this.ws();
    if (this.pos !== this.b.length) throw DECLINE;
    return { table: this.table, labels: this.labels };
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

  /** `{"line":{"content":"…","ts":{"seconds":"…","nanos":"…"}},"replicaLabel":"…"}` exactly. */
  private compactEntry(): boolean {
    if (!this.literal(ENTRY_OPEN)) return false;
    this.string();
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
    if (this.b[this.pos] !== 0x7d) return false;
    this.pos++;
    this.table.add(labelId, from, to, kind, this.sortKey(seconds, nanos), ts);
    return true;
  }

  /** Whether these bytes are next; if so, reads past them. */
  private literal(bytes: Uint8Array): boolean {
    const b = this.b;
    const p = this.pos;
    const len = bytes.length;
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
    this.table.add(
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

  /** The follower's sort key (the de-duplicator's formula); declined when sent ahead. */
  private sortKey(seconds: number, nanos: number): number {
    const key = timestampSortKey(seconds, nanos);
    if (!(key <= this.notAhead)) throw DECLINE;
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
    const from = this.pos;
    let p = from;
    let n = 0;
    let c = b[p] ?? -1;
    while (c >= 0x30 && c <= 0x39) {
      n = n * 10 + (c - 0x30);
      c = b[++p] ?? -1;
    }
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
    const len = this.strTo - from;
    const seen = this.labelAt;
    // Compared from the end: "replica 1/3" and "replica 2/3" differ there.
    for (let id = 0; id < seen.length; id += 1) {
      if ((this.labelLength[id] as number) !== len) continue;
      const at = (seen[id] as number) - from;
      let i = this.strTo - 1;
      while (i >= from && b[at + i] === b[i]) i--;
      if (i < from) return id;
    }
    if (seen.length >= 64) throw DECLINE;
    const text =
      this.strKind === PLAIN
        ? b.toString("latin1", from, this.strTo)
        : decodeJsonString(b, from, this.strTo);
    seen.push(from);
    this.labelLength.push(len);
    this.labels.push(Buffer.from(`${renderReplicaLabel(text, false)} `, "utf8"));
    return seen.length - 1;
  }

  /** The last string read: its text lies in [strFrom, strTo); what it holds (see StringKind). */
  private strFrom = 0;
  private strTo = 0;
  private strKind: StringKind = PLAIN;

  /** A JSON string (a raw control character, invalid JSON, is declined). */
  private string(): void {
    this.expect(QUOTE);
    const b = this.b;
    const end = b.length;
    const from = this.pos;
    let kind: StringKind = PLAIN;
    let i = from;
    for (;;) {
      if (i >= end) throw DECLINE;
      const c = b[i] as number;
      if (c === QUOTE) break;
      if (c < 0x20) throw DECLINE;
      if (c === BACKSLASH) {
        if (b[i + 1] === 0x75 /* u */) kind = DECODE;
        else if (kind === PLAIN) kind = ESCAPES;
        i++;
      } else if (c >= 0x7f) kind = DECODE;
      i++;
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
    if (b[p] !== QUOTE || b[p + len + 1] !== QUOTE) return false;
    for (let i = 0; i < len; i++) if (b[p + 1 + i] !== name.charCodeAt(i)) return false;
    this.pos = p + len + 2;
    this.ws();
    this.expect(0x3a); // :
    this.ws();
    return true;
  }

  private ws(): void {
    const b = this.b;
    let c = b[this.pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.pos];
  }

  private peek(): number {
    return this.b[this.pos] ?? -1;
  }

  private next(): number {
    return this.b[this.pos++] ?? -1;
  }

  private expect(c: number): void {
    if (this.b[this.pos] !== c) throw DECLINE;
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
