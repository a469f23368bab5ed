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
import { DECODE, type EntryTable, ESCAPES, PLAIN } from "./entry-table.js";
import {
  BACKSLASH,
  DECLINE,
  decodeJsonString,
  NotPlain,
  QUOTE,
  WindowScanner,
} from "./window-scanner.js";

/** `--timestamps`: each line starts with its time, RFC 3339 in UTC or the local zone. */
export interface TimeFormat {
  utc: boolean;
}

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
