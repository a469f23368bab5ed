/**
 * The one way to stderr. Every line any command writes there (its own messages, a server's
 * deployment ids, an OTel SDK error, a Node error, a simulator's stack trace, Commander's usage
 * errors) passes through `inertLines`: the configured API private key masked wherever it appears,
 * public keys, addresses and fingerprints left whole (./key-material.ts), then each
 * line escaped as `tail` escapes log lines (./sanitize.ts: no ESC, C1, BEL or other control, bidi
 * or zero-width character reaches the terminal), and cut at MAX_STDERR_LINE characters. Nothing
 * else in src/ touches process.stderr (test/text/stderr.test.ts keeps it so).
 */

import { grouped } from "./grouped-number.js";
import { maskKeyMaterial } from "./key-material.js";
import { sanitizeForTerminal } from "./sanitize.js";

/** The longest line written to stderr; the rest of a longer one is counted, not written. */
export const MAX_STDERR_LINE = 4096;

/** The program's name before each of its messages. */
export const PROGRAM = "tvcwatch";

function inertLine(line: string): string {
  const masked = maskKeyMaterial(line);
  if (masked.length <= MAX_STDERR_LINE) return sanitizeForTerminal(masked);
  let end = MAX_STDERR_LINE;
  const c = masked.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  const more = masked.length - end;
  return `${sanitizeForTerminal(masked.slice(0, end))}… (${grouped(more)} more characters)`;
}

/**
 * `text` as it may reach stderr: each line (split at LF or CRLF; a lone CR is escaped) masked and
 * escaped, joined by LF, without a final newline.
 */
export function inertLines(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, text.endsWith("\r\n") ? -2 : -1) : text;
  return body
    .split(/\r\n|\n/)
    .map(inertLine)
    .join("\n");
}

/** Writes `text` (one line or several) to stderr, inert, ending in one newline. */
export function writeStderr(text: string): void {
  process.stderr.write(`${inertLines(text)}\n`);
}

/** One message of the program on stderr: `tvcwatch: <line>`. */
export function sayOnStderr(line: string): void {
  writeStderr(`${PROGRAM}: ${line}`);
}

/** One message of a part of the program (`tvcwatch sim: <line>`). */
export function sayAs(part: string): (line: string) => void {
  return (line) => writeStderr(`${PROGRAM} ${part}: ${line}`);
}

/** Whether stderr is a terminal (a y/N question can be asked on it). */
export function stderrIsTerminal(): boolean {
  return process.stderr.isTTY === true;
}

/** How wide stderr is: its terminal's columns, or 80 when it is not a terminal. */
export function stderrColumns(): number {
  return process.stderr.columns || 80;
}

/**
 * The stream a y/N question is asked on, for readline alone: it draws the prompt and moves the
 * cursor with its own sequences. The question's text must come through `inertLines` first.
 */
export function promptStream(): NodeJS.WriteStream {
  return process.stderr;
}
