/**
 * Field queries: `tail --where`, `open --where` and the dashboard's `=` filter, one grammar.
 *
 *   query      := or
 *   or         := and ("or" and)*
 *   and        := not ("and" not)*
 *   not        := "not" not | "(" or ")" | comparison
 *   comparison := FIELD OP VALUE
 *   OP         := "=" | "!=" | ">" | ">=" | "<" | "<=" | "~"
 *
 * - FIELD is a dotted path into a JSON line (`fields.service`), the key of a `key=value` line
 *   (./line-fields.ts), or `level`: the level the filters read (src/text/log-level.ts; a line
 *   stating none reads as info), compared in level order (`level >= warn`).
 * - VALUE is a number (`300`, `-1.5`, `2e3`), a quoted string (`"a b"`, `'a b'`, backslash
 *   escapes) or a bare word. A number compares as a number with a field whose value reads as
 *   one; `<`, `>` between strings compare them as text (RFC 3339 times sort so). `~` is a regex
 *   (src/text/pattern.ts: linear time, smart case) over the field's text.
 * - A line without the field does not match, and neither does its `not`: a comparison on a
 *   missing field is unknown, `not` of unknown is unknown (SQL's three-valued logic), and only a
 *   query that is true keeps the line.
 * - Keywords are any case. Parsing is one pass over at most MAX_QUERY characters, nesting at most
 *   MAX_DEPTH deep; a malformed query is one QueryError naming the token and its column.
 */
import { type LogLevel, levelNamed, levelRank } from "../text/log-level.js";
import { compilePattern, type Pattern } from "../text/pattern.js";
import type { FieldValue } from "./line-fields.js";

/** The longest query read. */
export const MAX_QUERY = 1000;
/** The deepest nesting of parentheses and `not`. */
export const MAX_DEPTH = 32;

/** Why a query cannot be used: one line naming the token and where it is (1-based column). */
export class QueryError extends Error {
  override name = "QueryError";
}

export type ComparisonOp = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~";

/** What a query reads of a line. */
export interface QueryLine {
  /** A field's value, or undefined when the line has none. */
  field(path: string): FieldValue | undefined;
  /** The level the filters read (info when the line states none). */
  level(): LogLevel;
}

type Node =
  | { kind: "and" | "or"; left: Node; right: Node }
  | { kind: "not"; inner: Node }
  | { kind: "compare"; field: string; op: ComparisonOp; value: Literal };

type Literal =
  | { kind: "number"; number: number; text: string }
  | { kind: "string"; text: string }
  | { kind: "level"; rank: number; text: string }
  | { kind: "regex"; pattern: Pattern; text: string };

/** Kleene's three values: true, false, unknown (a missing field). */
type Truth = 1 | 0 | -1;

/** A parsed query: what it was written as, and its verdict on a line. */
export class FieldQuery {
  private constructor(
    readonly source: string,
    private readonly root: Node,
  ) {}

  /** `source` parsed; throws QueryError. */
  static parse(source: string): FieldQuery {
    return new FieldQuery(source, new Parser(source).query());
  }

  /** Whether the query holds for the line (true only: false and unknown do not match). */
  matches(line: QueryLine): boolean {
    return evaluate(this.root, line) === 1;
  }
}

/** `source` parsed (./field-query.ts); throws QueryError. */
export function parseQuery(source: string): FieldQuery {
  return FieldQuery.parse(source);
}

/** Why `source` cannot be used as a query (one line), or undefined when it can. */
export function queryProblem(source: string): string | undefined {
  try {
    parseQuery(source);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function evaluate(node: Node, line: QueryLine): Truth {
  switch (node.kind) {
    case "and": {
      const l = evaluate(node.left, line);
      if (l === 0) return 0;
      const r = evaluate(node.right, line);
      return r === 0 ? 0 : l === 1 && r === 1 ? 1 : -1;
    }
    case "or": {
      const l = evaluate(node.left, line);
      if (l === 1) return 1;
      const r = evaluate(node.right, line);
      return r === 1 ? 1 : l === 0 && r === 0 ? 0 : -1;
    }
    case "not": {
      const v = evaluate(node.inner, line);
      return v === -1 ? -1 : v === 1 ? 0 : 1;
    }
    case "compare":
      return compare(node, line);
  }
}

function compare(node: Node & { kind: "compare" }, line: QueryLine): Truth {
  const { op, value } = node;
  if (value.kind === "level") return ordered(levelRank(line.level()) - value.rank, op);
  const field = line.field(node.field);
  if (field === undefined) return -1;
  const text = textOf(field);
  if (value.kind === "regex") return text === undefined ? -1 : value.pattern.test(text) ? 1 : 0;
  if (value.kind === "number") {
    const n = numberOf(field);
    if (n !== undefined) return ordered(n - value.number, op);
    // A field that is no number is not equal to one; it is not ordered against one either.
    if (op === "=" || op === "!=")
      return text === undefined ? -1 : truth((op === "=") === (text === value.text));
    return -1;
  }
  if (text === undefined) return -1;
  if (op === "=" || op === "!=") return truth((text === value.text) === (op === "="));
  return ordered(text < value.text ? -1 : text > value.text ? 1 : 0, op);
}

function truth(b: boolean): Truth {
  return b ? 1 : 0;
}

function ordered(diff: number, op: ComparisonOp): Truth {
  switch (op) {
    case "=":
      return truth(diff === 0);
    case "!=":
      return truth(diff !== 0);
    case ">":
      return truth(diff > 0);
    case ">=":
      return truth(diff >= 0);
    case "<":
      return truth(diff < 0);
    case "<=":
      return truth(diff <= 0);
    default:
      return -1;
  }
}

/** A field's text: strings as they are, numbers and booleans as written, objects as JSON. */
function textOf(v: FieldValue): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null) return "null";
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A field's number: a JSON number, or text that reads as one (`"312"`, a logfmt `312`). */
function numberOf(v: FieldValue): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.length <= 64 && NUMBER.test(v.trim())) return Number(v);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Parsing

type Token =
  | { kind: "word"; text: string; at: number; quoted: boolean }
  | { kind: "op"; text: ComparisonOp; at: number }
  | { kind: "open" | "close"; at: number }
  | { kind: "end"; at: number };

const OPS: readonly ComparisonOp[] = [">=", "<=", "!=", "=", ">", "<", "~"];
/** Characters that end a bare word. */
const DELIMITERS = new Set([" ", "\t", "(", ")", "=", "!", "<", ">", "~", '"', "'"]);
/** A field name: letters, digits, `_`, `@`, `$`, `-`, dotted. */
const FIELD = /^[A-Za-z_@$][\w@$-]*(?:\.[\w@$-]+)*$/;

function describe(t: Token): string {
  switch (t.kind) {
    case "end":
      return "the end of the query";
    case "open":
      return '"("';
    case "close":
      return '")"';
    default:
      return JSON.stringify(t.text.length > 40 ? `${t.text.slice(0, 39)}…` : t.text);
  }
}

class Parser {
  private readonly tokens: Token[];
  private next = 0;
  private depth = 0;

  constructor(source: string) {
    if (source.length > MAX_QUERY)
      throw new QueryError(`query too long: ${source.length} characters (at most ${MAX_QUERY})`);
    this.tokens = tokenize(source);
  }

  query(): Node {
    if (this.peek().kind === "end") throw new QueryError("empty query: expected FIELD OP VALUE");
    const node = this.or();
    const t = this.peek();
    if (t.kind !== "end") throw this.error(t, "expected and, or or the end");
    return node;
  }

  private or(): Node {
    let left = this.and();
    while (this.keyword("or")) left = { kind: "or", left, right: this.and() };
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.keyword("and")) left = { kind: "and", left, right: this.not() };
    return left;
  }

  private not(): Node {
    const t = this.peek();
    if (this.depth >= MAX_DEPTH) throw this.error(t, `nested more than ${MAX_DEPTH} deep`);
    if (this.keyword("not")) {
      this.depth++;
      const inner = this.not();
      this.depth--;
      return { kind: "not", inner };
    }
    if (t.kind === "open") {
      this.next++;
      this.depth++;
      const inner = this.or();
      this.depth--;
      const close = this.peek();
      if (close.kind !== "close") throw this.error(close, 'expected ")"');
      this.next++;
      return inner;
    }
    return this.comparison();
  }

  private comparison(): Node {
    const f = this.peek();
    if (f.kind !== "word" || f.quoted || !FIELD.test(f.text))
      throw this.error(f, "expected a field name");
    this.next++;
    const o = this.peek();
    if (o.kind !== "op") throw this.error(o, "expected = != > >= < <= or ~");
    this.next++;
    const v = this.peek();
    if (v.kind !== "word") throw this.error(v, "expected a value");
    this.next++;
    return { kind: "compare", field: f.text, op: o.text, value: this.literal(f.text, o.text, v) };
  }

  private literal(field: string, op: ComparisonOp, v: Token & { kind: "word" }): Literal {
    if (op === "~") {
      try {
        return { kind: "regex", pattern: compilePattern(v.text), text: v.text };
      } catch (err) {
        throw this.error(v, (err as Error).message);
      }
    }
    if (field === "level") {
      const level = levelNamed(v.text);
      if (level === undefined)
        throw this.error(v, "expected a level (trace, debug, info, warn, error, fatal)");
      return { kind: "level", rank: levelRank(level), text: v.text };
    }
    if (!v.quoted && NUMBER.test(v.text))
      return { kind: "number", number: Number(v.text), text: v.text };
    return { kind: "string", text: v.text };
  }

  private peek(): Token {
    return this.tokens[this.next] as Token;
  }

  /** Takes the bare word `word` (any case) when it is next. */
  private keyword(word: string): boolean {
    const t = this.peek();
    if (t.kind === "word" && !t.quoted && t.text.toLowerCase() === word) {
      this.next++;
      return true;
    }
    return false;
  }

  private error(t: Token, expected: string): QueryError {
    return new QueryError(`${expected}, found ${describe(t)} at column ${t.at + 1}`);
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  let i = 0;
  while (i < n) {
    const c = source[i] as string;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      tokens.push({ kind: c === "(" ? "open" : "close", at: i });
      i++;
      continue;
    }
    const op = OPS.find((o) => source.startsWith(o, i));
    if (op) {
      tokens.push({ kind: "op", text: op, at: i });
      i += op.length;
      continue;
    }
    if (c === '"' || c === "'") {
      let text = "";
      let j = i + 1;
      while (j < n && source[j] !== c) {
        // A backslash keeps the next character (a quote, a backslash) as it is; in a regex
        // value, `\d` and the like stay as written.
        if (source[j] === "\\" && j + 1 < n) {
          const next = source[j + 1] as string;
          text += next === c || next === "\\" ? next : `\\${next}`;
          j += 2;
          continue;
        }
        text += source[j];
        j++;
      }
      if (j >= n) throw new QueryError(`unclosed quote ${c} at column ${i + 1}`);
      tokens.push({ kind: "word", text, at: i, quoted: true });
      i = j + 1;
      continue;
    }
    if (c === "!") throw new QueryError(`unexpected "!" at column ${i + 1} (did you mean != ?)`);
    let j = i;
    while (j < n && !DELIMITERS.has(source[j] as string)) j++;
    tokens.push({ kind: "word", text: source.slice(i, j), at: i, quoted: false });
    i = j;
  }
  tokens.push({ kind: "end", at: n });
  return tokens;
}
