/**
 * RFC 3339 with nanoseconds, in the local zone (`2026-11-22T12:01:02.123456789+01:00`) or UTC
 * (`...Z`), from a proto timestamp's seconds and nanos (as text, or nanos as a number).
 */
export function formatRfc3339(seconds: string, nanos: string | number, utc: boolean): string {
  const [head, zone] = secondParts(seconds, utc);
  return head === undefined ? "invalid-timestamp" : `${head}.${nineDigits(nanos)}${zone}`;
}

/** The nanos field as nine digits: as received when it is digits already (the usual case). */
function nineDigits(value: string | number): string {
  const nanos = typeof value === "number" ? String(value) : value;
  const len = nanos.length;
  let digits = len > 0 && len <= 9;
  for (let i = 0; digits && i < len; i++) {
    const c = nanos.charCodeAt(i);
    digits = c >= 48 && c <= 57;
  }
  if (digits) return len === 9 ? nanos : nanos.padStart(9, "0");
  return String(Math.max(0, Math.min(999_999_999, Math.trunc(Number(nanos)) || 0))).padStart(
    9,
    "0",
  );
}

/** Lines come many to a second: the date part of the last second formatted is kept. */
const lastSecond = {
  utc: { key: "", parts: ["", ""] as [string | undefined, string] },
  local: { key: "", parts: ["", ""] as [string | undefined, string] },
};

function secondParts(seconds: string, utc: boolean): [string | undefined, string] {
  const cache = utc ? lastSecond.utc : lastSecond.local;
  if (cache.key === seconds) return cache.parts;
  const date = new Date(Number(seconds) * 1000);
  const parts: [string | undefined, string] = Number.isNaN(date.getTime())
    ? [undefined, ""]
    : utc
      ? [date.toISOString().slice(0, 19), "Z"]
      : [localDateTime(date, "T"), localZone(date)];
  cache.key = seconds;
  cache.parts = parts;
  return parts;
}

/** RFC 3339 of epoch milliseconds, to the millisecond. */
export function formatMsRfc3339(ms: number, utc: boolean): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "invalid-timestamp";
  if (utc) return date.toISOString();
  return `${localDateTime(date, "T")}.${padded(date.getMilliseconds(), 3)}${localZone(date)}`;
}

/** `n` with zeros before it to `digits` digits (its sign before them). */
function padded(n: number, digits: number): string {
  return `${n < 0 ? "-" : ""}${String(Math.abs(n)).padStart(digits, "0")}`;
}

/**
 * The date and time of a valid `date` in the local zone, `yyyy-MM-dd HH:mm:ss` with `separator`
 * between them, as date-fns' `format` writes it (a year before 1 is its era's: 1 BC is 0001);
 * by hand, so that the readers of saved lines (on every indexing thread) load no date-fns.
 */
export function localDateTime(date: Date, separator: string): string {
  const year = date.getFullYear();
  return `${padded(year > 0 ? year : 1 - year, 4)}-${padded(date.getMonth() + 1, 2)}-${padded(date.getDate(), 2)}${separator}${padded(date.getHours(), 2)}:${padded(date.getMinutes(), 2)}:${padded(date.getSeconds(), 2)}`;
}

/** The local zone's offset at `date` as `+01:00` (date-fns' `xxx`: `+00:00` for UTC, never Z). */
export function localZone(date: Date): string {
  const offset = date.getTimezoneOffset();
  const abs = Math.abs(offset);
  return `${offset > 0 ? "-" : "+"}${padded(Math.trunc(abs / 60), 2)}:${padded(abs % 60, 2)}`;
}

/** Seconds of 0000-01-01T00:00:00Z and of the second after 9999-12-31T23:59:59Z: RFC 3339's years. */
const FIRST_RFC3339_SECOND = -62_167_219_200;
const END_RFC3339_SECOND = 253_402_300_800;

function plainInteger(text: string, maxLength: number): boolean {
  const len = text.length;
  if (len === 0 || len > maxLength) return false;
  for (let i = text.charCodeAt(0) === 45 /* - */ && len > 1 ? 1 : 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * A line's timestamp as RFC 3339 in UTC with nanoseconds (`2026-11-27T01:31:47.332009765Z`), what
 * jq, lnav and Loki read; undefined when its seconds or nanos are not plain integers (nanos
 * 0-999999999) or the time falls outside RFC 3339's years 0000-9999.
 */
export function utcRfc3339(seconds: string, nanos: string | number): string | undefined {
  if (!plainInteger(seconds, 20)) return undefined;
  const s = Number(seconds);
  if (!(s >= FIRST_RFC3339_SECOND && s < END_RFC3339_SECOND)) return undefined;
  if (typeof nanos === "number") {
    if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) return undefined;
  } else if (nanos.charCodeAt(0) === 45 || !plainInteger(nanos, 9)) {
    return undefined;
  }
  return formatRfc3339(seconds, nanos, true);
}

/** Epoch milliseconds (fractional) as RFC 3339 in UTC with nanoseconds; undefined out of range. */
export function msToUtcRfc3339(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6));
  return utcRfc3339(String(seconds), nanos);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digits of `text` from `at` to `at + n` as a number, or -1 when one is not a digit. */
function digitsAt(text: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * An RFC 3339 time with seconds (`2026-11-27T01:31:47.332009765Z`, `…+01:00`; `t`, `z` and a
 * space for `T` too; up to nine digits of fraction) as epoch seconds and nanoseconds, exactly:
 * nothing is lost to a double's precision. Undefined when `text` is not one.
 */
export function parseRfc3339(text: string): { seconds: number; nanos: number } | undefined {
  if (text.length < 20 || text.length > 35) return undefined;
  // Lines come many to a second: the date and time of the last one read are kept.
  const base = text.startsWith(lastParsed.prefix)
    ? lastParsed.seconds
    : civilSeconds(text.slice(0, 19));
  if (base === undefined) return undefined;
  let at = 19;
  let nanos = 0;
  if (text.charCodeAt(at) === 46 /* . */) {
    at++;
    let digits = 0;
    while (digits < 10) {
      const c = text.charCodeAt(at) - 48;
      if (!(c >= 0 && c <= 9)) break;
      nanos = nanos * 10 + c;
      digits++;
      at++;
    }
    if (digits === 0 || digits > 9) return undefined;
    for (let k = digits; k < 9; k++) nanos *= 10;
  }
  let offset = 0;
  const z = text.charCodeAt(at);
  if (z === 90 || z === 122) {
    at++;
  } else if (z === 43 || z === 45) {
    const oh = digitsAt(text, at + 1, 2);
    const om = digitsAt(text, at + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59 || text.charCodeAt(at + 3) !== 58) return undefined;
    offset = (z === 45 ? -1 : 1) * (oh * 3600 + om * 60);
    at += 6;
  } else {
    return undefined;
  }
  if (at !== text.length) return undefined;
  return { seconds: base - offset, nanos };
}

/** The last date and time (to the second) parseRfc3339 read, and its seconds as if in UTC. */
const lastParsed = { prefix: "\u0000", seconds: 0 };

/** `YYYY-MM-DDTHH:MM:SS` as epoch seconds as if in UTC; undefined when it is not a valid one. */
function civilSeconds(text: string): number | undefined {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const t = text.charCodeAt(10);
  if (
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > (DAYS_IN_MONTH[month - 1] as number) ||
    (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 60 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    !(t === 84 || t === 116 || t === 32) ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  ) {
    return undefined;
  }
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  lastParsed.prefix = text;
  lastParsed.seconds = seconds;
  return seconds;
}

/** Two digits of `b` at `at` as a number, or -1 when one is not a digit. */
function twoDigitsAt(b: Uint8Array, at: number): number {
  const h = (b[at] as number) - 48;
  const l = (b[at + 1] as number) - 48;
  return h >= 0 && h <= 9 && l >= 0 && l <= 9 ? h * 10 + l : -1;
}

/** Whether the four bytes of `w` (read little-endian) are all ASCII digits. */
function fourDigits(w: number): boolean {
  return (w & 0xf0f0f0f0) === 0x30303030 && ((w + 0x06060606) & 0xf0f0f0f0) === 0x30303030;
}

/** The number four ASCII digits (read little-endian into `w`, the first lowest) write. */
function digitsValue(w: number): number {
  const d = w - 0x30303030;
  return (
    (d & 0xff) * 1000 + ((d >> 8) & 0xff) * 100 + ((d >> 16) & 0xff) * 10 + ((d >>> 24) & 0xff)
  );
}

/**
 * `parseRfc3339` of bytes, read a byte a character (Latin-1), without making a string of them:
 * what a line's time is to an index reading its bytes. The date and time to the second are kept
 * from the last time read (lines come many to a second), by their bytes. `read` says whether the
 * bytes hold one; `seconds` and `nanos` are then what parseRfc3339 gives for their text.
 */
export class Rfc3339Bytes {
  seconds = 0;
  nanos = 0;
  private readonly prefix = new Uint8Array(20);
  private readonly prefixData = new DataView(this.prefix.buffer);
  private prefixSeconds: number | undefined;
  /** The prefix as the usual shape's reading compares it: five numbers of four bytes (the last three). */
  private p0 = 0;
  private p1 = 0;
  private p2 = 0;
  private p3 = 0;
  private p4 = 0;
  /** The bytes last read the usual way, and a view of them four bytes at a time. */
  private view: Uint8Array | undefined;
  private data: DataView | undefined;

  read(b: Buffer, s: number, e: number): boolean {
    const len = e - s;
    if (len === 30 && b[s + 19] === 46 && b[s + 29] === 90) return this.readUsual(b, s);
    if (len < 20 || len > 35) return false;
    let base = this.prefixSeconds;
    if (base !== undefined) {
      const prefix = this.prefix;
      for (let k = 0; k < 19; k++) {
        if (b[s + k] !== prefix[k]) {
          base = undefined;
          break;
        }
      }
    }
    if (base === undefined) {
      base = civilSeconds(b.toString("latin1", s, s + 19));
      if (base === undefined) return false;
      this.keepPrefix(b, s, base);
    }
    let at = s + 19;
    let nanos = 0;
    if (b[at] === 46 /* . */) {
      at++;
      let digits = 0;
      while (digits < 10 && at < e) {
        const c = (b[at] as number) - 48;
        if (!(c >= 0 && c <= 9)) break;
        nanos = nanos * 10 + c;
        digits++;
        at++;
      }
      if (digits === 0 || digits > 9) return false;
      for (let k = digits; k < 9; k++) nanos *= 10;
    }
    let offset = 0;
    const z = at < e ? (b[at] as number) : -1;
    if (z === 90 || z === 122) {
      at++;
    } else if (z === 43 || z === 45) {
      if (at + 6 > e) return false;
      const oh = twoDigitsAt(b, at + 1);
      const om = twoDigitsAt(b, at + 4);
      if (oh < 0 || oh > 23 || om < 0 || om > 59 || b[at + 3] !== 58) return false;
      offset = (z === 45 ? -1 : 1) * (oh * 3600 + om * 60);
      at += 6;
    } else {
      return false;
    }
    if (at !== e) return false;
    this.seconds = base - offset;
    this.nanos = nanos;
    return true;
  }

  /**
   * The usual shape (to the nanosecond, in UTC: nine digits, then `Z`) read four bytes at a time:
   * what the general reading gives for it.
   */
  private readUsual(b: Buffer, s: number): boolean {
    if (b !== this.view) {
      this.view = b;
      this.data = new DataView(b.buffer, b.byteOffset, b.byteLength);
    }
    const d = this.data as DataView;
    let base = this.prefixSeconds;
    if (
      base === undefined ||
      d.getInt32(s, true) !== this.p0 ||
      d.getInt32(s + 4, true) !== this.p1 ||
      d.getInt32(s + 8, true) !== this.p2 ||
      d.getInt32(s + 12, true) !== this.p3 ||
      (d.getUint16(s + 16, true) | ((b[s + 18] as number) << 16)) !== this.p4
    ) {
      base = civilSeconds(b.toString("latin1", s, s + 19));
      if (base === undefined) return false;
      this.keepPrefix(b, s, base);
    }
    const high = d.getInt32(s + 20, true);
    const low = d.getInt32(s + 24, true);
    const last = (b[s + 28] as number) - 48;
    if (!fourDigits(high) || !fourDigits(low) || !(last >= 0 && last <= 9)) return false;
    this.seconds = base;
    this.nanos = digitsValue(high) * 100_000 + digitsValue(low) * 10 + last;
    return true;
  }

  /** The date and time to the second in bytes [s, s + 19), kept with their seconds. */
  private keepPrefix(b: Buffer, s: number, seconds: number): void {
    this.prefix.set(b.subarray(s, s + 19));
    this.prefixSeconds = seconds;
    const d = this.prefixData;
    this.p0 = d.getInt32(0, true);
    this.p1 = d.getInt32(4, true);
    this.p2 = d.getInt32(8, true);
    this.p3 = d.getInt32(12, true);
    this.p4 = d.getUint16(16, true) | ((this.prefix[18] as number) << 16);
  }
}
