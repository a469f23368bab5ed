/**
 * What ./window-scanner.ts finds of each entry of a plain window (./plain-window.ts), as
 * positions in the answer's bytes, and the interface it hands each entry on through.
 */

/**
 * What a JSON string holds: printable ASCII only (copied as is); printable ASCII and escapes
 * other than \u (unescaped byte by byte, controls written as sanitizeForTerminal writes them);
 * anything else (decoded, then sanitized).
 */
export type StringKind = 0 | 1 | 2;
export const PLAIN: StringKind = 0;
export const ESCAPES: StringKind = 1;
export const DECODE: StringKind = 2;

/** Where a timestamp's digits lie in the body (for --timestamps). */
export interface Digits {
  secondsAt: number;
  secondsDigits: number;
  nanosAt: number;
  nanosDigits: number;
}

/**
 * Takes each entry as the scanner reads it, in the response's order: its replica label's id (an
 * index into the scanner's labels), where its content lies and what it holds, its sort key and
 * where its timestamp's digits lie (the object is reused: read it before returning).
 */
export interface EntrySink {
  add(labelId: number, from: number, to: number, kind: StringKind, key: number, ts: Digits): void;
  /**
   * Reads the content string whose text starts at `from` (after its quote), bytes before `end`
   * only, copying it where its line will be as it goes (one pass over the bytes that are most
   * of a window). Returns where its closing quote is, or one of the codes below.
   */
  copyContent(from: number, end: number): number;
  /** The positions given from now on are in these bytes (WindowScanner.moveTo). */
  moveTo(bytes: Buffer): void;
}

/** copyContent: the string holds a \u escape or a byte past ASCII (read it the usual way). */
export const NEEDS_DECODING = -1;
/** copyContent: the bytes end before the string does. */
export const SHORT = -2;
/** copyContent: a raw control character or an invalid escape (not the usual shape). */
export const INVALID = -3;
