/**
 * A line of a saved log, in the format its file comes in:
 *
 * - `ndjson`: as `tail -o json` prints it (../formats/ndjson-line.ts), also the NDJSON the
 *   dashboard's `S` writes after its `{"tvcwatch": …}` header (./saved-header.ts).
 * - `text`: as `tail` prints it (../formats/text-line.ts), and `S`'s `# tvcwatch` header.
 * - `plain`: any other text (../formats/plain-line.ts).
 *
 * Which format a file is in is told by ./format-vote.ts.
 *
 * Indexing a file reads each line once with `scanLine`, which writes what the index keeps (the
 * line's time, level, stream, whether it could be read) into one reused object; an NDJSON line
 * is walked byte by byte without making strings of it when it has the shape tail writes
 * (./json-line-walker.ts). Showing a
 * line decodes it again, in full, with `decodeLine`. A line that cannot be read as its file's
 * format is kept as text, without a replica, and counted.
 */

import { LOG_LEVELS, type LogLevel, levelRank } from "../../text/log-level.js";
import { levelCodeOfAscii, levelCodeOfText } from "../../text/log-level-bytes.js";
import { parseRfc3339, Rfc3339Bytes } from "../../text/timestamp.js";
import { isCleanUtf8 } from "../../text/utf8-bytes.js";
import type { LineRead } from "../formats/line-read.js";
import { readJsonLine } from "../formats/ndjson-line.js";
import { readPlainLine, textLine } from "../formats/plain-line.js";
import { DEPLOYMENT_LABEL, readTextLine } from "../formats/text-line.js";
import { filteredLevel, filteredText } from "../line-filter.js";
import type { LogLine } from "../model/log-line.js";
import { timestampSortKey } from "../model/log-line.js";
import { JsonLineWalker } from "./json-line-walker.js";
import { isJsonHeader, readJsonHeader, readTextHeader, type SavedHeader } from "./saved-header.js";
import { NO_STREAM, type StreamTable } from "./stream-table.js";

export type SavedFormat = "ndjson" | "text" | "plain";

/** What a line is to the index. */
export const LINE = 0;
export const GAP = 1;
/** The `tvcwatch` header: read once, not a line of the log. */
export const HEADER = 2;
/** A line that is no event: a blank line in NDJSON, grep's `--` in text. */
export const SKIP = 3;

/** What `scanLine` read of one line. */
export interface LineScan {
  what: number;
  /** False: the line could not be read as its file's format; it is kept as text and counted. */
  readable: boolean;
  /** Whether `key` is the line's own time (a gap's: where it sorts). */
  timed: boolean;
  /** Epoch ms (fractional), when timed. */
  key: number;
  /** 0 for none, else 1 + the level's rank (trace 1 … fatal 6). */
  level: number;
  stream: number;
  header: SavedHeader | undefined;
  /** Where the content is: bytes from the line's start to it, and from it to the line's end (-1: not known). */
  contentFrom: number;
  contentAfter: number;
  /** The content's bytes are a JSON string's, with escapes. */
  contentEscaped: boolean;
}

export function newLineScan(): LineScan {
  return {
    what: LINE,
    readable: true,
    timed: false,
    key: 0,
    level: 0,
    stream: NO_STREAM,
    header: undefined,
    contentFrom: -1,
    contentAfter: -1,
    contentEscaped: false,
  };
}

/** A level as the index keeps it. */
export function levelCode(level: LogLevel | undefined): number {
  return level === undefined ? 0 : levelRank(level) + 1;
}

export function levelOfCode(code: number): LogLevel | undefined {
  return code === 0 ? undefined : LOG_LEVELS[code - 1];
}

// ---------------------------------------------------------------------------------------------
// Reading one line, whatever its format, into events

/** A line of a saved log, read: a log line, a gap, the header, or nothing to show. */
export type SavedLine = LineRead | { kind: "header"; header: SavedHeader };

/** A parsed NDJSON value: the `{"tvcwatch": …}` header, or a line as tail writes it. */
export function readJsonValue(value: unknown): SavedLine | undefined {
  if (isJsonHeader(value)) return { kind: "header", header: readJsonHeader(value) };
  return readJsonLine(value);
}

/** A line of tail text, or `S`'s `# tvcwatch` header; undefined when it is neither. */
function readSavedText(text: string): SavedLine | undefined {
  if (text.charCodeAt(0) === 35 /* # */) {
    const header = readTextHeader(text);
    return header ? { kind: "header", header } : undefined;
  }
  return readTextLine(text);
}

/**
 * A line in full, as its file's format reads it; a line that does not read is kept as text.
 * `unreadable` is what indexing found (the line is then text whatever it looks like).
 */
export function decodeLine(text: string, format: SavedFormat, unreadable: boolean): SavedLine {
  if (unreadable) return readPlainLine(text);
  if (format === "ndjson") {
    if (text.trim() === "") return { kind: "skip" };
    try {
      return readJsonValue(JSON.parse(text)) ?? readPlainLine(text);
    } catch {
      return readPlainLine(text);
    }
  }
  if (format === "text") return readSavedText(text) ?? readPlainLine(text);
  return readPlainLine(text);
}

// ---------------------------------------------------------------------------------------------
// Indexing: one line read into a LineScan

function scanJson(
  walker: JsonLineWalker,
  buffer: Buffer,
  s: number,
  e: number,
  streams: StreamTable,
  out: LineScan,
): void {
  const at = walker.at;
  if (!walker.walk(buffer, s, e) || at.other || at.label < 0 || at.content < 0) {
    const text = buffer.toString("utf8", s, e);
    let value: unknown;
    try {
      value = text.trim() === "" ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (text.trim() === "") {
      out.what = SKIP;
      return;
    }
    fromSavedLine(value === undefined ? undefined : readJsonValue(value), text, streams, out);
    return;
  }
  const label = walker.fieldString(at.label, at.labelEnd, at.labelEscaped);
  const deployment =
    at.deployment >= 0
      ? walker.fieldString(at.deployment, at.deploymentEnd, at.deploymentEscaped)
      : undefined;
  out.stream = streams.id(deployment, label);
  out.contentFrom = at.content - s;
  out.contentAfter = e - at.contentEnd;
  out.contentEscaped = at.contentEscaped;
  if (!at.tsNull) {
    out.timed = true;
    out.key = timestampSortKey(at.seconds, at.nanos);
  } else {
    // No ts: a time alone (another program's NDJSON) places the line.
    const time = at.time >= 0 ? parseRfc3339(walker.latin1(at.time, at.timeEnd)) : undefined;
    out.timed = time !== undefined;
    out.key = time ? timestampSortKey(time.seconds, time.nanos) : 0;
  }
  const code = at.level >= 0 ? walker.levelFieldCode() : at.levelNull ? 0 : -1;
  out.level = code >= 0 ? code : levelCode(levelOfContent(walker.contentString()));
}

/** The level the filters read in a line's content. */
function levelOfContent(content: string): LogLevel | undefined {
  return filteredLevel({ content } as LogLine);
}

/** A line read whole (not the fast walk) into the scan; undefined: kept as text. */
function fromSavedLine(
  read: SavedLine | undefined,
  text: string,
  streams: StreamTable,
  out: LineScan,
): void {
  if (read === undefined) {
    out.readable = false;
    const line = textLine(text);
    out.stream = NO_STREAM;
    out.timed = line.seconds !== undefined;
    out.key = line.sortKey;
    out.level = levelCode(levelOfContent(text));
    return;
  }
  if (read.kind === "skip") {
    out.what = SKIP;
    return;
  }
  if (read.kind === "header") {
    out.what = HEADER;
    out.header = read.header;
    return;
  }
  if (read.kind === "gap") {
    out.what = GAP;
    out.timed = true;
    out.key = read.gap.sortKey;
    out.stream = NO_STREAM;
    return;
  }
  const line = read.line;
  out.stream =
    line.replicaLabel === "" ? NO_STREAM : streams.id(line.deploymentId, line.replicaLabel);
  out.timed = Number.isFinite(line.sortKey) && line.seconds !== undefined;
  out.key = out.timed ? line.sortKey : 0;
  out.level =
    read.level === null
      ? 0
      : read.level !== undefined
        ? levelCode(read.level)
        : levelCode(levelOfContent(line.content));
}

/**
 * What a reader of tail text keeps from line to line: the last labels met, by their bytes (their
 * stream and deployment), and the last time's date and second.
 */
export class TextReadCache {
  readonly bytes: Buffer[] = [];
  readonly ids: number[] = [];
  /** Where the next label met goes (the cache is a ring). */
  next = 0;
  readonly time = new Rfc3339Bytes();
}

const LABELS_KEPT = 16;

/**
 * A line of tail text in the shape tail writes it, read from its bytes (the time, the label's
 * stream, where the content starts): what readTextLine and fromSavedLine make of it, without
 * decoding the whole line. False for any other shape (a line without `] `, a gap, a header,
 * grep's `--`, a time that does not read, bytes that are not UTF-8): read the long way.
 */
function scanTailText(
  buffer: Buffer,
  s: number,
  e: number,
  streams: StreamTable,
  out: LineScan,
  cache: TextReadCache,
): boolean {
  let at = s;
  const c = buffer[s] as number;
  let timed = false;
  if (c >= 48 && c <= 57) {
    // The usual time first: 30 bytes (to the nanosecond, in UTC), then the line's first space (a
    // time read holds none, but for one between its date and its clock: not taken here).
    if (
      s + 30 < e &&
      buffer[s + 30] === 32 &&
      buffer[s + 10] !== 32 &&
      cache.time.read(buffer, s, s + 30)
    ) {
      at = s + 31;
    } else {
      const space = buffer.indexOf(32, s);
      if (space < 0 || space - s > 40 || space >= e) return false;
      if (!cache.time.read(buffer, s, space)) return false;
      at = space + 1;
    }
    timed = true;
  } else if (c === 45 /* - */) {
    at = s + 1;
    while (at < e && buffer[at] === 32) at++;
    if (at < s + 2) return false;
  } else if (c !== 91) {
    return false;
  }
  if (buffer[at] !== 91 /* [ */) return false;
  // A label met lately, then `] `: that `] ` is the first (a label holds none), so the label.
  let close = -1;
  let stream = -1;
  for (let k = 0; k < cache.bytes.length; k++) {
    const b = cache.bytes[k] as Buffer;
    const end = at + 1 + b.length;
    if (end + 1 >= e || buffer[end] !== 93 || buffer[end + 1] !== 32) continue;
    // From the end: labels differ there (`replica 1/3`, `replica 2/3`), so a miss is found soon.
    let i = b.length - 1;
    while (i >= 0 && b[i] === buffer[at + 1 + i]) i--;
    if (i < 0) {
      close = end;
      stream = cache.ids[k] as number;
      break;
    }
  }
  if (close < 0) {
    // `] ` after the label: bytes no UTF-8 sequence holds, so found among the bytes as in the text.
    close = at + 1;
    for (;;) {
      close = buffer.indexOf(93, close);
      if (close < 0 || close + 1 >= e) return false;
      if (buffer[close + 1] === 32) break;
      close++;
    }
    stream = newLabel(buffer, at + 1, close, streams, cache);
    if (stream < 0) return false;
  }
  // ASCII content (the usual line) is read from its bytes; other content too when its bytes are
  // UTF-8 as written (the long way takes those that are not), else as UTF-8 text.
  let level = levelCodeOfAscii(buffer, close + 2, e);
  if (level < 0) {
    if (!isCleanUtf8(buffer, close + 2, e)) return false;
    level = levelCodeOfText(buffer, close + 2, e);
    if (level < 0) level = levelCode(levelOfContent(buffer.toString("utf8", close + 2, e)));
  }
  out.stream = stream;
  out.timed = timed;
  out.key = timed ? timestampSortKey(cache.time.seconds, cache.time.nanos) : 0;
  out.level = level;
  out.contentFrom = close + 2 - s;
  out.contentAfter = 0;
  return true;
}

/**
 * The stream of the label in bytes [from, to), one not among those met lately, as readTextLine
 * reads it (kept with them from now on); -1: not UTF-8.
 */
function newLabel(
  buffer: Buffer,
  from: number,
  to: number,
  streams: StreamTable,
  cache: TextReadCache,
): number {
  const label = buffer.toString("utf8", from, to);
  if (label.includes("\ufffd")) return -1;
  const prefixed = DEPLOYMENT_LABEL.exec(label);
  const id = label === "" ? NO_STREAM : streams.id(prefixed ? prefixed[1] : undefined, label);
  const slot = cache.next;
  cache.bytes[slot] = Buffer.from(buffer.subarray(from, to));
  cache.ids[slot] = id;
  cache.next = (slot + 1) % LABELS_KEPT;
  return id;
}

/**
 * Reads the line in bytes [s, e) of `buffer` (without its newline; a trailing CR is dropped) as
 * `format` into `out`. Labels met are numbered in `streams`. `walker` and `cache`: the
 * reader's own (an index reads every line of a file with one of each).
 */
export function scanLine(
  buffer: Buffer,
  s: number,
  e: number,
  format: SavedFormat,
  streams: StreamTable,
  out: LineScan,
  walker: JsonLineWalker = new JsonLineWalker(),
  cache: TextReadCache = new TextReadCache(),
): void {
  if (e > s && buffer[e - 1] === 0x0d) e--;
  out.what = LINE;
  out.readable = true;
  out.timed = false;
  out.key = 0;
  out.level = 0;
  out.stream = NO_STREAM;
  out.header = undefined;
  out.contentFrom = -1;
  out.contentAfter = -1;
  out.contentEscaped = false;
  if (format === "ndjson") {
    scanJson(walker, buffer, s, e, streams, out);
  } else if (format === "text" && scanTailText(buffer, s, e, streams, out, cache)) {
    // Read from its bytes: the shape tail writes.
  } else {
    const text = buffer.toString("utf8", s, e);
    const read = format === "text" ? readSavedText(text) : readPlainLine(text);
    fromSavedLine(read, text, streams, out);
    if (
      out.what === LINE &&
      format === "text" &&
      out.readable &&
      read?.kind === "line" &&
      !text.includes("\ufffd")
    ) {
      // The content is the line's end: the bytes before it are the time and the label.
      const content = read.line.content;
      out.contentAfter = 0;
      out.contentFrom = e - s - Buffer.byteLength(content);
    }
  }
  if (out.what === LINE && (!out.readable || format === "plain")) {
    out.contentFrom = 0;
    out.contentAfter = 0;
    out.contentEscaped = false;
  }
}

/**
 * The content of a line whose place in its bytes [s, e) the index keeps (`from` bytes after its
 * start, `after` bytes before its end), as filters and search see it.
 */
export function spanContent(
  buffer: Buffer,
  s: number,
  e: number,
  from: number,
  after: number,
  escaped: boolean,
): string {
  const content = escaped
    ? (JSON.parse(buffer.toString("utf8", s + from - 1, e - after + 1)) as string)
    : buffer.toString("utf8", s + from, e - after);
  return filteredText({ content } as LogLine);
}

/**
 * The content of the line in bytes [s, e), as filters and search see it (at most FILTERED_CHARS),
 * without reading the rest of the line; undefined for a gap or a line that is no event.
 */
export function lineContent(
  buffer: Buffer,
  s: number,
  e: number,
  format: SavedFormat,
  unreadable: boolean,
  walker: JsonLineWalker = new JsonLineWalker(),
): string | undefined {
  if (e > s && buffer[e - 1] === 0x0d) e--;
  let content: string | undefined;
  if (unreadable || format === "plain") {
    content = buffer.toString("utf8", s, e);
  } else if (format === "ndjson") {
    const at = walker.at;
    if (walker.walk(buffer, s, e) && !at.other && at.content >= 0) content = walker.contentString();
    else {
      const read = decodeLine(buffer.toString("utf8", s, e), format, false);
      content = read.kind === "line" ? read.line.content : undefined;
    }
  } else {
    const read = decodeLine(buffer.toString("utf8", s, e), format, false);
    content = read.kind === "line" ? read.line.content : undefined;
  }
  return content === undefined ? undefined : filteredText({ content } as LogLine);
}
