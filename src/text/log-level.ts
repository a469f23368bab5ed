/**
 * The level of a log line, read from its text the way on-call reads it: a JSON line's `level`,
 * `severity` or `lvl` field (also under `fields` or `log`, and pino/bunyan's numbers), a logfmt
 * `level=error`, a glog/klog prefix (`E0123 12:34:56.789 …`), an upper-case word such as `WARN`
 * or `ERROR` near the start, a bracketed `[error]`, or a lower-case `error:` opening the line.
 *
 * Cheap enough to run on every line at thousands of lines a second: plain lines are looked at
 * only in their first PLAIN_PREFIX characters, JSON lines are walked key by key (string values
 * skipped with indexOf, never parsed) for at most JSON_SCAN_LIMIT characters.
 */
import { boundedPrefix } from "./bounded-prefix.js";

/** The six levels, least severe first. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A level found in a line. */
export interface DetectedLevel {
  level: LogLevel;
  /** OTLP SeverityNumber (1-24): TRACE 1, DEBUG 5, INFO 9, WARN 13, ERROR 17, FATAL 21, … */
  severityNumber: number;
  /** The level as the line wrote it (`WARNING`, `error`, `E`, `50`): OTLP's SeverityText. */
  text: string;
}

/** Position of a level in the ordering: trace 0 … fatal 5. */
export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

/** True when `level` is `min` or more severe. */
export function isAtLeast(level: LogLevel, min: LogLevel): boolean {
  return levelRank(level) >= levelRank(min);
}

/** The OTLP SeverityNumber of a level's plain name (the first of its four steps). */
export const SEVERITY_NUMBER: Readonly<Record<LogLevel, number>> = {
  trace: 1,
  debug: 5,
  info: 9,
  warn: 13,
  error: 17,
  fatal: 21,
};

/** The level a SeverityNumber (1-24) belongs to; undefined for 0 (unspecified) or out of range. */
export function levelOfSeverityNumber(n: number): LogLevel | undefined {
  if (!Number.isInteger(n) || n < 1 || n > 24) return undefined;
  return LOG_LEVELS[Math.floor((n - 1) / 4)];
}

/** Plain lines: how many leading characters are looked at. */
export const PLAIN_PREFIX = 256;
/** JSON lines: how many characters the key walk reads at most. */
export const JSON_SCAN_LIMIT = 16_384;

interface LevelName {
  level: LogLevel;
  severityNumber: number;
}

/** Every level name understood, lower-case, with its level and SeverityNumber. */
const NAMES: ReadonlyMap<string, LevelName> = new Map<string, LevelName>([
  ["trace", { level: "trace", severityNumber: 1 }],
  ["trc", { level: "trace", severityNumber: 1 }],
  ["debug", { level: "debug", severityNumber: 5 }],
  ["dbg", { level: "debug", severityNumber: 5 }],
  ["info", { level: "info", severityNumber: 9 }],
  ["inf", { level: "info", severityNumber: 9 }],
  ["information", { level: "info", severityNumber: 9 }],
  ["informational", { level: "info", severityNumber: 9 }],
  ["notice", { level: "info", severityNumber: 10 }],
  ["warn", { level: "warn", severityNumber: 13 }],
  ["warning", { level: "warn", severityNumber: 13 }],
  ["wrn", { level: "warn", severityNumber: 13 }],
  ["error", { level: "error", severityNumber: 17 }],
  ["err", { level: "error", severityNumber: 17 }],
  // syslog's critical sits between error and alert (OpenTelemetry's syslog and PSR mappings).
  ["critical", { level: "error", severityNumber: 18 }],
  ["crit", { level: "error", severityNumber: 18 }],
  ["fatal", { level: "fatal", severityNumber: 21 }],
  ["ftl", { level: "fatal", severityNumber: 21 }],
  ["alert", { level: "fatal", severityNumber: 21 }],
  ["panic", { level: "fatal", severityNumber: 22 }],
  ["pnc", { level: "fatal", severityNumber: 22 }],
  ["dpanic", { level: "fatal", severityNumber: 22 }],
  ["emerg", { level: "fatal", severityNumber: 23 }],
  ["emergency", { level: "fatal", severityNumber: 23 }],
]);

/** The level a name stands for (`warning`, `ERR`, `crit`), as lines are read; undefined: none. */
export function levelNamed(text: string): LogLevel | undefined {
  return NAMES.get(text.toLowerCase())?.level;
}

function named(text: string): DetectedLevel | undefined {
  const name = NAMES.get(text.toLowerCase());
  return name && { level: name.level, severityNumber: name.severityNumber, text };
}

/** pino and bunyan: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal (between: the lower). */
function numbered(value: number, text: string): DetectedLevel | undefined {
  if (!Number.isFinite(value) || value < 10) return undefined;
  const step = Math.min(Math.floor(value / 10), 6) - 1;
  const level = LOG_LEVELS[step] as LogLevel;
  return { level, severityNumber: SEVERITY_NUMBER[level], text };
}

/**
 * The level of one line, or undefined when it states none. A JSON object line is judged by its
 * fields only; other lines by their text.
 */
export function detectLevel(line: string): DetectedLevel | undefined {
  let start = 0;
  while (start < line.length && isSpace(line.charCodeAt(start))) start++;
  if (line.charCodeAt(start) === 0x7b /* { */) {
    const fromJson = jsonLevel(line, start);
    if (fromJson !== NOT_JSON) return fromJson;
  }
  return plainLevel(line);
}

/** Just the level, for filters. */
export function levelOf(line: string): LogLevel | undefined {
  return detectLevel(line)?.level;
}

// ---------------------------------------------------------------------------------------------
// Plain lines

/** Words, any case, wrapped in brackets: `[error]`, `<WARN>`, `(info)`. */
const BRACKETED =
  /[[<(](trace|debug|info|notice|warn|warning|error|err|critical|crit|fatal|panic|alert|emerg)[\]>)]/i;
/** Upper-case level words standing alone (not part of a longer word like `ERRORS` or `ERR_X`). */
const UPPER_WORD =
  /(?<![A-Za-z0-9_])(TRACE|TRC|DEBUG|DBG|INFO|INF|NOTICE|WARNING|WARN|WRN|ERROR|ERR|CRITICAL|CRIT|FATAL|FTL|PANIC|PNC)(?![A-Za-z0-9_])/;
/** A level word of any case opening the line (after a timestamp, if any) and ending with ':'. */
const LEADING_WORD =
  /^[\d\s\-:.,+/TZ]*(trace|debug|info|notice|warn|warning|error|err|critical|fatal|panic):/i;
/** logfmt: `level=error`, `lvl="warn"`, `severity=INFO`. */
const LOGFMT = /(?<![A-Za-z0-9_.])(?:level|lvl|severity|loglevel)="?([A-Za-z]{3,13})\b/i;
/** glog/klog: `E0123 12:34:56.789012 …` (I, W, E, F then month and day). */
const GLOG = /^([IWEF])(?:0[1-9]|1[0-2])(?:[0-2]\d|3[01]) \d\d:\d\d:\d\d/;
const GLOG_LEVEL: Readonly<Record<string, LogLevel>> = {
  I: "info",
  W: "warn",
  E: "error",
  F: "fatal",
};
/** SGR colour sequences some loggers put around the level word. */
const SGR = /\u001b\[[0-9;]*m/g;

function plainLevel(line: string): DetectedLevel | undefined {
  let head = line.length > PLAIN_PREFIX ? line.slice(0, PLAIN_PREFIX) : line;
  if (head.includes("\u001b")) head = head.replace(SGR, "");

  const logfmt = LOGFMT.exec(head);
  if (logfmt) {
    const found = named(logfmt[1] as string);
    if (found) return found;
  }
  const glog = GLOG.exec(head);
  if (glog) {
    const letter = glog[1] as string;
    const level = GLOG_LEVEL[letter] as LogLevel;
    return { level, severityNumber: SEVERITY_NUMBER[level], text: letter };
  }
  // The earliest of the remaining forms wins: `INFO retrying after ERROR` is info.
  let best: { index: number; text: string } | undefined;
  const consider = (index: number, text: string) => {
    if (best === undefined || index < best.index) best = { index, text };
  };
  const leading = LEADING_WORD.exec(head);
  if (leading)
    consider(leading[0].length - (leading[1] as string).length - 1, leading[1] as string);
  const upper = UPPER_WORD.exec(head);
  if (upper) consider(upper.index, upper[1] as string);
  const bracketed = BRACKETED.exec(head);
  if (bracketed) consider(bracketed.index, bracketed[1] as string);
  return best && named(best.text);
}

// ---------------------------------------------------------------------------------------------
// JSON lines

const NOT_JSON = Symbol("not json");
const LEVEL_KEYS = new Set(["level", "severity", "lvl", "levelname", "loglevel", "log.level"]);
/** Objects whose own level key is read when the top level has none. */
const NESTED_KEYS = new Set(["fields", "log"]);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** A small cursor over the line, bounded by JSON_SCAN_LIMIT. */
class Walk {
  i: number;
  readonly end: number;
  constructor(
    readonly s: string,
    start: number,
  ) {
    this.i = start;
    this.end = Math.min(s.length, start + JSON_SCAN_LIMIT);
  }
  spaces(): void {
    while (this.i < this.end && isSpace(this.s.charCodeAt(this.i))) this.i++;
  }
  peek(): number {
    return this.i < this.end ? this.s.charCodeAt(this.i) : -1;
  }
  /** At an opening quote: moves past the closing one; returns the raw text between, or undefined. */
  string(): string | undefined {
    const open = this.i;
    let j = open + 1;
    for (;;) {
      const q = this.s.indexOf('"', j);
      if (q < 0 || q >= this.end) return undefined;
      let backslashes = 0;
      while (this.s.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) {
        this.i = q + 1;
        return this.s.slice(open + 1, q);
      }
      j = q + 1;
    }
  }
  /** Skips any value; false when the line ends (or the limit is reached) first. */
  skipValue(): boolean {
    const c = this.peek();
    if (c === 0x22) return this.string() !== undefined;
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      while (this.i < this.end) {
        const d = this.s.charCodeAt(this.i);
        if (d === 0x22) {
          if (this.string() === undefined) return false;
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) {
          depth--;
          if (depth === 0) {
            this.i++;
            return true;
          }
        }
        this.i++;
      }
      return false;
    }
    // number, true, false, null
    while (this.i < this.end) {
      const d = this.s.charCodeAt(this.i);
      if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) return true;
      this.i++;
    }
    return false;
  }
  /** A level value: a string naming a level, or a pino/bunyan number. Moves past it. */
  levelValue(): DetectedLevel | undefined {
    const c = this.peek();
    if (c === 0x22) {
      const text = this.string();
      return text !== undefined && text.length <= 16 ? named(text) : undefined;
    }
    if (c >= 0x30 && c <= 0x39) {
      const from = this.i;
      if (!this.skipValue()) return undefined;
      const text = this.s.slice(from, this.i);
      return /^\d{1,6}$/.test(text) ? numbered(Number(text), text) : undefined;
    }
    this.skipValue();
    return undefined;
  }
}

/**
 * Walks an object's keys from its `{` to past its `}`. At the top level a level key ends the
 * walk at once; a level key inside `fields` or `log` is kept in case the top level has none.
 */
function walkObject(
  w: Walk,
  nested: boolean,
): { found?: DetectedLevel; inner?: DetectedLevel; ok: boolean } {
  let inner: DetectedLevel | undefined;
  w.i++; // {
  w.spaces();
  if (w.peek() === 0x7d) {
    w.i++;
    return { ok: true };
  }
  for (;;) {
    w.spaces();
    if (w.peek() !== 0x22) return { inner, ok: false };
    const key = w.string();
    if (key === undefined) return { inner, ok: false };
    w.spaces();
    if (w.peek() !== 0x3a) return { inner, ok: false };
    w.i++;
    w.spaces();
    if (LEVEL_KEYS.has(key.toLowerCase())) {
      const found = w.levelValue();
      if (found && !nested) return { found, ok: true };
      if (found && !inner) inner = found;
    } else if (!nested && NESTED_KEYS.has(key) && w.peek() === 0x7b) {
      const sub = walkObject(w, true);
      if (sub.inner && !inner) inner = sub.inner;
      if (!sub.ok) return { inner, ok: false };
    } else if (!w.skipValue()) {
      return { inner, ok: false };
    }
    w.spaces();
    const c = w.peek();
    if (c === 0x2c) {
      w.i++;
      continue;
    }
    if (c === 0x7d) {
      w.i++;
      return { inner, ok: true };
    }
    return { inner, ok: false };
  }
}

/** The level of a line that opens with `{`; NOT_JSON when it is not a JSON object after all. */
function jsonLevel(line: string, start: number): DetectedLevel | undefined | typeof NOT_JSON {
  const w = new Walk(line, start);
  const result = walkObject(w, false);
  if (result.found) return result.found;
  if (result.inner) return result.inner;
  // A line that merely starts with `{` but is not JSON (`{main} ERROR …`) is read as text. One
  // longer than the scan limit is taken for JSON: its text would only show words inside values.
  if (!result.ok && line.length <= w.end) return NOT_JSON;
  return undefined;
}

/** The most of one line that patterns and the level reading see (the dashboard renders as much). */
export const READ_CHARS = 64 * 1024;

/** What is read of a line's content: up to READ_CHARS, never cutting a surrogate pair. */
export function readPart(content: string): string {
  return content.length <= READ_CHARS ? content : boundedPrefix(content, READ_CHARS).text;
}

/** The level a line's content states, read from its first READ_CHARS (undefined: none). */
export function levelOfContent(content: string): LogLevel | undefined {
  return levelOf(readPart(content));
}
