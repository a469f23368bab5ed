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
 */
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { formatRfc3339 } from "../../text/timestamp.js";
import { timestampSortKey } from "../log-line.js";
import { renderReplicaLabel } from "../stream-format.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What a JSON string holds: printable ASCII only (copied as is); printable ASCII and escapes
 * other than \u (unescaped byte by byte, controls written as sanitizeForTerminal writes them);
 * anything else (decoded, then sanitized).
 */
type StringKind = 0 | 1 | 2;
const PLAIN: StringKind = 0;
const ESCAPES: StringKind = 1;
const DECODE: StringKind = 2;

/** The literals of an entry as compactEntry reads it. */
const ENTRY_OPEN = Buffer.from('{"line":{"content":', "latin1");
const TS_OPEN = Buffer.from(',"ts":{"seconds":', "latin1");
const NANOS = Buffer.from(',"nanos":', "latin1");
const LABEL = Buffer.from('}},"replicaLabel":', "latin1");

/** Where a timestamp's digits lie in the body (for --timestamps). */
interface Digits {
  secondsAt: number;
  secondsDigits: number;
  nanosAt: number;
  nanosDigits: number;
}

/** The entries of a window as positions in the body, parallel arrays that grow by doubling. */
class EntryTable {
  count = 0;
  labelIds = new Int32Array(1024);
  contentFrom = new Int32Array(1024);
  contentTo = new Int32Array(1024);
  /** What each content holds (a StringKind). */
  kinds = new Uint8Array(1024);
  keys = new Float64Array(1024);
  /** Where the digits of each timestamp's seconds and nanos start, and how many there are. */
  secondsAt = new Int32Array(1024);
  secondsDigits = new Uint8Array(1024);
  nanosAt = new Int32Array(1024);
  nanosDigits = new Uint8Array(1024);

  add(labelId: number, from: number, to: number, kind: StringKind, key: number, ts: Digits): void {
    if (this.count === this.keys.length) this.grow();
    const i = this.count++;
    this.labelIds[i] = labelId;
    this.contentFrom[i] = from;
    this.contentTo[i] = to;
    this.kinds[i] = kind;
    this.keys[i] = key;
    this.secondsAt[i] = ts.secondsAt;
    this.secondsDigits[i] = ts.secondsDigits;
    this.nanosAt[i] = ts.nanosAt;
    this.nanosDigits[i] = ts.nanosDigits;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(
      a: T,
      make: (n: number) => T,
    ) => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.labelIds = grown(this.labelIds, (n) => new Int32Array(n));
    this.contentFrom = grown(this.contentFrom, (n) => new Int32Array(n));
    this.contentTo = grown(this.contentTo, (n) => new Int32Array(n));
    this.kinds = grown(this.kinds, (n) => new Uint8Array(n));
    this.keys = grown(this.keys, (n) => new Float64Array(n));
    this.secondsAt = grown(this.secondsAt, (n) => new Int32Array(n));
    this.secondsDigits = grown(this.secondsDigits, (n) => new Uint8Array(n));
    this.nanosAt = grown(this.nanosAt, (n) => new Int32Array(n));
    this.nanosDigits = grown(this.nanosDigits, (n) => new Uint8Array(n));
  }
}

/** `--timestamps`: each line starts with its time, RFC 3339 in UTC or the local zone. */
export interface TimeFormat {
  utc: boolean;
}

/** Room for one formatted time (RFC 3339 with nanoseconds and zone is under 48 characters). */
const TIME_ROOM = 48;

/** Declines the body: not the usual shape (the caller decodes it and follows as usual). */
class NotPlain extends Error {}
const DECLINE = new NotPlain();

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
  if (serverDate === undefined || !Number.isFinite(serverDate)) return undefined;
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
  if (buf.length >= 2 ** 31) return undefined;
  try {
    const parsed = new WindowScanner(buf, serverDate).scan();
    return write(buf, parsed.table, parsed.labels, times);
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

/** Reads the body's entries into an EntryTable; throws DECLINE at anything unusual. */
class WindowScanner {
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
function decodeJsonString(b: Buffer, from: number, to: number): string {
  try {
    return JSON.parse(b.toString("utf8", from - 1, to + 1)) as string;
  } catch {
    throw DECLINE; // an invalid escape: the follower's decoding names it
  }
}

/** The lines in the follower's order (timestamp, then the response's), as one buffer. */
function write(b: Buffer, t: EntryTable, labels: Buffer[], times: TimeFormat | undefined): Buffer {
  const n = t.count;
  const keys = t.keys;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = (keys[i - 1] as number) <= (keys[i] as number);
  let order: Uint32Array | undefined;
  if (!sorted) {
    order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // Stable: equal keys keep the response's order.
    order.sort((x, y) => (keys[x] as number) - (keys[y] as number) || x - y);
  }
  // Content that must be decoded (rare) first, so that the room needed is known in advance.
  const { labelIds, contentFrom, contentTo, kinds } = t;
  const decoded = new Map<number, Buffer>();
  let room = 0;
  for (let i = 0; i < n; i++) {
    const from = contentFrom[i] as number;
    const to = contentTo[i] as number;
    const kind = kinds[i];
    let size = to - from;
    if (kind === ESCAPES) size *= 2;
    else if (kind === DECODE) {
      const bytes = Buffer.from(sanitizeForTerminal(decodeJsonString(b, from, to)), "utf8");
      decoded.set(i, bytes);
      size = bytes.length;
    }
    room += (labels[labelIds[i] as number] as Buffer).length + size + 1;
  }
  // An RFC 3339 time with nanoseconds and a zone is under 48 characters, for any year.
  if (times) room += n * (TIME_ROOM + 1);
  const { secondsAt, secondsDigits, nanosAt, nanosDigits } = t;
  const out = Buffer.allocUnsafe(room);
  let o = 0;
  for (let j = 0; j < n; j++) {
    const i = order ? (order[j] as number) : j;
    if (times) {
      const at = secondsAt[i] as number;
      const nanos = nanosAt[i] as number;
      const time = formatRfc3339(
        b.toString("latin1", at, at + (secondsDigits[i] as number)),
        b.toString("latin1", nanos, nanos + (nanosDigits[i] as number)),
        times.utc,
      );
      if (time.length > TIME_ROOM) throw DECLINE;
      o += out.write(time, o, "latin1");
      out[o++] = 0x20;
    }
    const label = labels[labelIds[i] as number] as Buffer;
    for (let k = 0; k < label.length; k++) out[o++] = label[k] as number;
    const from = contentFrom[i] as number;
    const to = contentTo[i] as number;
    const kind = kinds[i];
    if (kind === PLAIN) o += b.copy(out, o, from, to);
    else if (kind === ESCAPES) o = unescapeInto(b, from, to, out, o);
    else o += (decoded.get(i) as Buffer).copy(out, o);
    out[o++] = 0x0a;
  }
  return out.subarray(0, o);
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
