/**
 * The formats a saved log comes in, one line at a time:
 *
 * - `ndjson`: as `tail -o json` prints it (`{deploymentId?, replicaLabel, ts, content, time?,
 *   level?}`, gap events), also the NDJSON the dashboard's `S` writes after its `{"tvcwatch": …}`
 *   header. Other fields are passed over, so later additions read too.
 * - `text`: as `tail` prints it, `[replica 2/3] content` or `[9463b1 replica 2/3] content`, with or
 *   without the RFC 3339 time of `--timestamps` (UTC or local; `-` and spaces for a line without
 *   one), its `--- gap: … ---` lines, grep's `--` between context groups, and `S`'s `# tvcwatch`
 *   header.
 * - `plain`: any other text, one stream without a replica; a line that starts with an RFC 3339
 *   time is placed at that time, its text kept whole.
 *
 * Indexing a file reads each line once with `scanLine`, which writes what the index keeps (the
 * line's time, level, stream, whether it could be read) into one reused object; an NDJSON line
 * is walked byte by byte without making strings of it when it has the shape tail writes
 * (./json-line-walker.ts). Showing a
 * line decodes it again, in full, with `decodeLine`. A line that cannot be read as its file's
 * format is kept as text, without a replica, and counted.
 */

import { LOG_LEVELS, type LogLevel, levelRank } from "../../text/log-level.js";
import { parseRfc3339 } from "../../text/timestamp.js";
import { GAP_LINE_PREFIX, readGapLine } from "../formats/gap-line.js";
import { filteredLevel, filteredText } from "../line-filter.js";
import type { GapMarker, LogLine } from "../model/log-line.js";
import { packNanos, timestampSortKey } from "../model/log-line.js";
import { JsonLineWalker } from "./json-line-walker.js";
import {
  isJsonHeader,
  readJsonHeader,
  readTextHeader,
  type SavedHeader,
  TEXT_HEADER_PREFIX,
} from "./saved-header.js";
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
export type SavedLine =
  | { kind: "line"; line: LogLine; level: LogLevel | undefined | null }
  | { kind: "gap"; gap: GapMarker }
  | { kind: "header"; header: SavedHeader }
  | { kind: "skip" };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function timeOfRfc3339(text: unknown): { seconds: number; nanos: number } | undefined {
  return typeof text === "string" ? parseRfc3339(text) : undefined;
}

function msOf(t: { seconds: number; nanos: number }): number {
  return timestampSortKey(t.seconds, t.nanos);
}

/** A line of text kept as it is, without a replica (any other text; a line not read). */
export function textLine(content: string): LogLine {
  const time = leadingTime(content);
  return {
    kind: "line",
    replicaLabel: "",
    seconds: time ? String(time.seconds) : undefined,
    nanos: time ? time.nanos : undefined,
    sortKey: time ? msOf(time) : 0,
    content,
    late: false,
  };
}

const LEADING_TIME =
  /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[Zz]|[+-]\d\d:\d\d))(?:[\s|,;\]]|$)/;

/** The RFC 3339 time a line of any other text starts with, if any. */
export function leadingTime(text: string): { seconds: number; nanos: number } | undefined {
  const c = text.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return undefined;
  const m = LEADING_TIME.exec(text.length > 40 ? text.slice(0, 40) : text);
  return m ? parseRfc3339(m[1] as string) : undefined;
}

/**
 * A parsed NDJSON value as tail writes it: a line, a gap or the header; undefined for anything
 * else (then the line is kept as text). `level` is the line's `level` field: a level, null when
 * it says none, undefined when it has none (or one tvcwatch does not write).
 */
export function readJsonValue(value: unknown): SavedLine | undefined {
  if (!isRecord(value)) return undefined;
  if (isJsonHeader(value)) return { kind: "header", header: readJsonHeader(value) };
  if (value.event === "gap") {
    const from = timeOfRfc3339(value.from);
    const to = timeOfRfc3339(value.to);
    if (!from || !to) return undefined;
    const at = timeOfRfc3339(value.time) ?? to;
    return {
      kind: "gap",
      gap: {
        kind: "gap",
        from: msOf(from),
        to: msOf(to),
        reason: typeof value.reason === "string" ? value.reason : "",
        sortKey: msOf(at),
      },
    };
  }
  const { replicaLabel, content, ts, deploymentId } = value;
  if (typeof replicaLabel !== "string" || typeof content !== "string") return undefined;
  let seconds: string | undefined;
  let nanos: number | string | undefined;
  let sortKey = Number.NaN;
  if (isRecord(ts) && (typeof ts.seconds === "string" || typeof ts.seconds === "number")) {
    const n = ts.nanos;
    if (typeof n === "string" || typeof n === "number") {
      seconds = String(ts.seconds);
      nanos = packNanos(String(n));
      sortKey = timestampSortKey(Number(seconds), Number(nanos));
    }
  }
  if (seconds === undefined) {
    const time = timeOfRfc3339(value.time);
    if (time) {
      seconds = String(time.seconds);
      nanos = time.nanos;
      sortKey = msOf(time);
    }
  }
  const level =
    value.level === null
      ? null
      : (LOG_LEVELS as readonly unknown[]).includes(value.level)
        ? (value.level as LogLevel)
        : undefined;
  const line: LogLine = {
    kind: "line",
    replicaLabel,
    seconds,
    nanos,
    sortKey: Number.isFinite(sortKey) ? sortKey : Number.NaN,
    content,
    late: false,
    ...(typeof deploymentId === "string" ? { deploymentId } : {}),
  };
  return { kind: "line", line, level };
}

/**
 * A label `tail` prefixed with a deployment's short id when following several, and its version
 * and role when known (`0c7e55 0.8.0 canary replica 2/3`).
 */
const DEPLOYMENT_LABEL = /^(\S+)(?: \S+){0,2} (replica \d+\s*\/\s*\d+)$/;

/** A line as `tail` prints it in text; undefined when it is not one. */
export function readTextLine(text: string): SavedLine | undefined {
  let at = 0;
  let time: { seconds: number; nanos: number } | undefined;
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const space = text.indexOf(" ");
    if (space < 0 || space > 40) return undefined;
    time = parseRfc3339(text.slice(0, space));
    if (!time) return undefined;
    at = space + 1;
  } else if (c === 45 /* - */) {
    if (text === "--") return { kind: "skip" };
    if (text.startsWith(GAP_LINE_PREFIX)) return readTextGap(text);
    at = 1;
    while (text.charCodeAt(at) === 32) at++;
    if (at < 2) return undefined;
  } else if (c === 35 /* # */) {
    const header = readTextHeader(text);
    return header ? { kind: "header", header } : undefined;
  }
  if (text.charCodeAt(at) !== 91 /* [ */) return undefined;
  let close = text.indexOf("] ", at + 1);
  if (close < 0) {
    if (text.charCodeAt(text.length - 1) !== 93 /* ] */) return undefined;
    close = text.length - 1;
  }
  const replicaLabel = text.slice(at + 1, close);
  const content = text.slice(close + 2);
  const prefixed = DEPLOYMENT_LABEL.exec(replicaLabel);
  const line: LogLine = {
    kind: "line",
    replicaLabel,
    seconds: time ? String(time.seconds) : undefined,
    nanos: time ? time.nanos : undefined,
    sortKey: time ? msOf(time) : Number.NaN,
    content,
    late: false,
    ...(prefixed ? { deploymentId: prefixed[1] as string } : {}),
  };
  return { kind: "line", line, level: undefined };
}

function readTextGap(text: string): SavedLine | undefined {
  const gap = readGapLine(text);
  return gap ? { kind: "gap", gap } : undefined;
}

/** Whether a text line reads as `tail` text (for telling the format): a replica label, a gap. */
function looksLikeTailText(text: string): boolean {
  const read = readTextLine(text);
  if (!read || read.kind === "header") return false;
  return read.kind !== "line" || /replica \d+\s*\/\s*\d+/.test(read.line.replicaLabel);
}

/** A line of any other text. */
export function readPlainLine(text: string): SavedLine {
  return { kind: "line", line: textLine(text), level: undefined };
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
  if (format === "text") return readTextLine(text) ?? readPlainLine(text);
  return readPlainLine(text);
}

// ---------------------------------------------------------------------------------------------
// Telling the format

/** How many lines of a file's start tell its format. */
export const SAMPLE_LINES = 64;

/**
 * The format of a file from its first lines (up to SAMPLE_LINES, blank ones passed over): a
 * header says it; else NDJSON or tail text when more than half of the lines read as one (the
 * others are then kept as text and counted). The lines are given one at a time, as they are met
 * (a stream's come as it brings them); a line longer than a line's cap is not given (it is cut,
 * kept as text whatever the format).
 */
export class FormatVote {
  private judged = 0;
  private json = 0;
  private text = 0;
  private header: SavedFormat | undefined;

  /** Whether SAMPLE_LINES lines were judged: the verdict is then final. */
  get full(): boolean {
    return this.judged >= SAMPLE_LINES;
  }

  /** Lines judged so far. */
  get lines(): number {
    return this.judged;
  }

  add(line: string): void {
    if (this.full || line.trim() === "") return;
    if (this.judged === 0 && line.startsWith(TEXT_HEADER_PREFIX)) this.header = "text";
    this.judged++;
    if (line.charCodeAt(0) === 123 /* { */) {
      try {
        if (readJsonValue(JSON.parse(line))) this.json++;
      } catch {
        // Not JSON: counts for neither.
      }
    } else if (looksLikeTailText(line.endsWith("\r") ? line.slice(0, -1) : line)) {
      this.text++;
    }
  }

  verdict(): SavedFormat {
    if (this.header) return this.header;
    if (this.json * 2 > this.judged) return "ndjson";
    if (this.text * 2 > this.judged) return "text";
    return "plain";
  }
}

/** The format of these first lines (see FormatVote). */
export function detectFormat(lines: readonly string[]): SavedFormat {
  const vote = new FormatVote();
  for (const l of lines) vote.add(l);
  return vote.verdict();
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
    out.key = time ? msOf(time) : 0;
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

/** The last labels a reader met in tail text, by their bytes: their stream and deployment. */
export class LabelCache {
  readonly bytes: Buffer[] = [];
  readonly ids: number[] = [];
  /** Where the next label met goes (the cache is a ring). */
  next = 0;
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
  labels: LabelCache,
): boolean {
  let at = s;
  const c = buffer[s] as number;
  let time: { seconds: number; nanos: number } | undefined;
  if (c >= 48 && c <= 57) {
    const space = buffer.indexOf(32, s);
    if (space < 0 || space - s > 40 || space >= e) return false;
    time = parseRfc3339(buffer.toString("latin1", s, space));
    if (!time) return false;
    at = space + 1;
  } else if (c === 45 /* - */) {
    at = s + 1;
    while (at < e && buffer[at] === 32) at++;
    if (at < s + 2) return false;
  } else if (c !== 91) {
    return false;
  }
  if (buffer[at] !== 91 /* [ */) return false;
  // `] ` after the label: bytes no UTF-8 sequence holds, so found among the bytes as in the text.
  let close = at + 1;
  for (;;) {
    close = buffer.indexOf(93, close);
    if (close < 0 || close + 1 >= e) return false;
    if (buffer[close + 1] === 32) break;
    close++;
  }
  const stream = labelStream(buffer, at + 1, close, streams, labels);
  if (stream < 0) return false;
  const content = buffer.toString("utf8", close + 2, e);
  if (content.includes("\ufffd")) return false;
  out.stream = stream;
  out.timed = time !== undefined;
  out.key = time ? msOf(time) : 0;
  out.level = levelCode(levelOfContent(content));
  out.contentFrom = close + 2 - s;
  out.contentAfter = 0;
  return true;
}

/** The stream of the label in bytes [from, to), as readTextLine reads it; -1: not UTF-8. */
function labelStream(
  buffer: Buffer,
  from: number,
  to: number,
  streams: StreamTable,
  labels: LabelCache,
): number {
  const length = to - from;
  for (let k = 0; k < labels.bytes.length; k++) {
    const b = labels.bytes[k] as Buffer;
    if (b.length !== length) continue;
    let i = 0;
    while (i < length && b[i] === buffer[from + i]) i++;
    if (i === length) return labels.ids[k] as number;
  }
  const label = buffer.toString("utf8", from, to);
  if (label.includes("\ufffd")) return -1;
  const prefixed = DEPLOYMENT_LABEL.exec(label);
  const id = label === "" ? NO_STREAM : streams.id(prefixed ? prefixed[1] : undefined, label);
  const slot = labels.next;
  labels.bytes[slot] = Buffer.from(buffer.subarray(from, to));
  labels.ids[slot] = id;
  labels.next = (slot + 1) % LABELS_KEPT;
  return id;
}

/**
 * Reads the line in bytes [s, e) of `buffer` (without its newline; a trailing CR is dropped) as
 * `format` into `out`. Labels met are numbered in `streams`. `walker` and `labels`: the
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
  labels: LabelCache = new LabelCache(),
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
  } else if (format === "text" && scanTailText(buffer, s, e, streams, out, labels)) {
    // Read from its bytes: the shape tail writes.
  } else {
    const text = buffer.toString("utf8", s, e);
    const read = format === "text" ? readTextLine(text) : readPlainLine(text);
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
