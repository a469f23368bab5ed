/**
 * The fields of a structured line, as field queries (./field-query.ts) read them: a JSON object
 * line's values by dotted path (`fields.service`, `items.0.id`; a key that itself holds dots,
 * `{"http.status": 200}`, is found whole first), or the `key=value` pairs of any other line
 * (logfmt: `key=value`, `key="quoted value"`, separated by spaces). A line is read once, up to
 * READ_CHARS, on the first field asked of it; JSON.parse and the pair scan are linear in it.
 */
import { readPart } from "../text/log-level.js";

/** A field's value: what JSON holds, or the text of a `key=value` pair. */
export type FieldValue = string | number | boolean | null | object;

/** The fields of one line, read on the first ask. */
export class LineFields {
  private json: Record<string, unknown> | undefined;
  private pairs: Map<string, string> | undefined;
  private read = false;

  constructor(private readonly content: string) {}

  /** The value at `path` (dotted), or undefined when the line has no such field. */
  get(path: string): FieldValue | undefined {
    if (!this.read) this.readLine();
    if (this.json) return valueAt(this.json, path);
    return this.pairs?.get(path);
  }

  /** Whether the line is a JSON object (else it is read as `key=value` pairs). */
  isJson(): boolean {
    if (!this.read) this.readLine();
    return this.json !== undefined;
  }

  private readLine(): void {
    this.read = true;
    const text = readPart(this.content);
    let i = 0;
    while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
    if (text[i] === "{") {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
          this.json = parsed as Record<string, unknown>;
          return;
        }
      } catch {
        // Not JSON after all: read as key=value.
      }
    }
    this.pairs = keyValuePairs(text);
  }
}

const own = Object.prototype.hasOwnProperty;

function valueAt(root: Record<string, unknown>, path: string): FieldValue | undefined {
  if (own.call(root, path)) return root[path] as FieldValue;
  let at: unknown = root;
  for (const step of path.split(".")) {
    if (at === null || typeof at !== "object" || !own.call(at, step)) return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at as FieldValue;
}

/** A key starts with a letter, `_`, `@` or `$` (char codes: no regex per character). */
function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 64 || c === 36;
}

/** Then word characters, dots, `@`, `$` and dashes. */
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

/**
 * The `key=value` pairs of a line, the first of a key kept: values end at a space, or are
 * double-quoted (backslash escapes the next character).
 */
export function keyValuePairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    // A key starts a word: at the start or after a space.
    if (!isKeyStart(text.charCodeAt(i)) || (i > 0 && !isSpace(text[i - 1] as string))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isKeyChar(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 61) {
      i = j;
      continue;
    }
    const key = text.slice(i, j);
    let k = j + 1;
    let value = "";
    if (text[k] === '"') {
      k++;
      while (k < n && text[k] !== '"') {
        if (text[k] === "\\" && k + 1 < n) k++;
        value += text[k];
        k++;
      }
      k++;
    } else {
      const start = k;
      while (k < n && !isSpace(text[k] as string)) k++;
      value = text.slice(start, k);
    }
    if (!pairs.has(key)) pairs.set(key, value);
    i = k;
  }
  return pairs;
}

function isSpace(c: string): boolean {
  return c === " " || c === "\t";
}
