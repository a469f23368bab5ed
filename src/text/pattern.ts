/**
 * The one matcher for every pattern the tool runs that came from outside: typed (`f`, `F`, `/`,
 * `tail --grep`, `--exclude`, `--highlight`) or read from a file (a saved view's header). Matched
 * by RE2 (re2js, RE2 ported to JavaScript), so a match takes time linear in the text whatever
 * the pattern: `^(a+)+$` over a near miss cannot stall the program as a backtracking engine
 * (JavaScript's own) would.
 *
 * The syntax is RE2's (https://github.com/google/re2/wiki/Syntax), which is JavaScript's for
 * everything a log filter is written with; JavaScript's `\uXXXX`, `\u{X…}` and `\cX` escapes are
 * read as the same characters. What needs backtracking is refused in one line naming it:
 * backreferences (`\1`, `\k<name>`), lookahead (`(?=`, `(?!`) and lookbehind (`(?<=`, `(?<!`).
 *
 * Smart case, as in less, ripgrep and vim: a pattern written all in lower case matches either
 * case; one with an upper-case letter matches exactly. `info` finds `"info"` and `INFO`; `INFO`
 * finds only `INFO`. Upper-case letters in escapes (`\S`, `\W`, `\D`, `\B`, `\pL`, `\p{Lu}`,
 * `\x{4A}`) are syntax, not letters to match, and do not count.
 */
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";

/**
 * re2js, read when the first pattern is compiled: most runs compile none (a plain `tail`, the
 * first screen of `open`, the worker indexing a file's pieces), and it is the largest module they
 * would load. Its CommonJS build, read synchronously (a flag's parser compiles as it reads).
 */
let re2: typeof RE2JS | undefined;
function re2js(): typeof RE2JS {
  re2 ??= (createRequire(import.meta.url)("re2js") as typeof import("re2js")).RE2JS;
  return re2;
}

/** Why a pattern cannot be used: one line, naming what to fix. */
export class PatternError extends Error {
  override name = "PatternError";
}

/** A compiled pattern: what it was written as, and its matches in a text. */
export class Pattern {
  /** The same pattern read the same way has the same key (caches are keyed by it). */
  readonly key: string;

  /**
   * A pattern that is printable ASCII without one character of syntax is a literal: a line that
   * cannot hold it (lower-cased, when either case matches) is passed over without RE2; one that
   * can is still tested by RE2, so what matches is what RE2 says (a reader of bytes passes over
   * lines the same way: src/logs/saved/byte-prefilter.ts).
   */
  readonly literal: string | undefined;

  private constructor(
    /** As written. */
    readonly source: string,
    /** Smart case found no upper-case letter: either case matches. */
    readonly ignoreCase: boolean,
    private readonly re: RE2JS,
  ) {
    this.key = `${ignoreCase ? "i" : "-"}/${source}`;
    this.literal = LITERAL.test(source) ? source : undefined;
  }

  /** `source` compiled, smart case. Throws PatternError, its message one line. */
  static compile(source: string): Pattern {
    const translated = translate(source);
    const ignoreCase = !hasUpperCase(source);
    // Read outside the try: an engine that cannot be loaded is not an invalid regex.
    const engine = re2js();
    try {
      return new Pattern(
        source,
        ignoreCase,
        engine.compile(translated, ignoreCase ? engine.CASE_INSENSITIVE : 0),
      );
    } catch (err) {
      throw new PatternError(`invalid regex: ${reasonOf(err, ignoreCase)}`);
    }
  }

  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean {
    const literal = this.literal;
    if (literal !== undefined && !mayHold(text, literal, this.ignoreCase)) return false;
    return this.re.test(text);
  }

  /** The non-empty matches in `text`, [start, end) in UTF-16 units, left to right, at most `max`. */
  matches(text: string, max = Number.POSITIVE_INFINITY): [number, number][] {
    const found: [number, number][] = [];
    if (max <= 0) return found;
    for (const m of this.re.matchAll(text)) {
      const at = m.index ?? 0;
      if (m[0].length === 0) continue;
      found.push([at, at + m[0].length]);
      if (found.length >= max) break;
    }
    return found;
  }
}

/** `source` compiled (./pattern.ts: linear time, smart case); throws PatternError. */
/** Printable ASCII without RE2's syntax characters: a pattern that matches itself only. */
const LITERAL = /^[^\\.+*?()|[\]{}^$\x00-\x1f\x7f-\u{10ffff}]+$/u;
/**
 * The characters that are not ASCII and fold to an ASCII letter (KELVIN SIGN to k, LATIN SMALL
 * LETTER LONG S to s): a text with one may match a case-blind literal that its lower case misses.
 */
const FOLDS_TO_ASCII = /[\u017f\u212a]/;

/**
 * Whether `text` may hold `literal`: false only when no match can be in it. Case-blind, an
 * ASCII literal's match is made of ASCII letters of either case (lower-cased one to one) or of
 * the two characters above.
 */
function mayHold(text: string, literal: string, ignoreCase: boolean): boolean {
  if (!ignoreCase) return text.includes(literal);
  return text.toLowerCase().includes(literal) || FOLDS_TO_ASCII.test(text);
}

export function compilePattern(source: string): Pattern {
  return Pattern.compile(source);
}

/** Why `source` cannot be used as a pattern (one line), or undefined when it can. */
export function patternProblem(source: string): string | undefined {
  try {
    compilePattern(source);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The most characters of a pattern quoted in a message. */
const QUOTED = 40;

/**
 * RE2's reason without its prefix ("error parsing regexp: missing closing ): `a(`"), nor the
 * `(?i)` re2js puts before a case-blind pattern it quotes.
 */
function reasonOf(err: unknown, ignoreCase: boolean): string {
  const message = err instanceof Error ? err.message : String(err);
  let reason = message.replace(/^error parsing regexp: /, "").replace(/\s+/g, " ");
  if (ignoreCase) reason = reason.replace("`(?i)", "`");
  return reason.length > 200 ? `${reason.slice(0, 199)}…` : reason;
}

function refused(feature: string, written: string): PatternError {
  const shown = written.length > QUOTED ? `${written.slice(0, QUOTED - 1)}…` : written;
  return new PatternError(
    `regex refused: ${feature} (${shown}) is JavaScript-only (patterns are RE2: linear time)`,
  );
}

const HEX4 = /^[0-9A-Fa-f]{4}/;
const HEX_BRACED = /^\{([0-9A-Fa-f]{1,6})\}/;

/**
 * The pattern in RE2's syntax: JavaScript's `\uXXXX`, `\u{X…}` and `\cX` as `\x{…}`; throws
 * PatternError for what RE2 cannot do in linear time (backreferences, lookaround).
 */
function translate(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined) return out + c;
      const rest = source.slice(i + 2);
      if (next >= "1" && next <= "9") throw refused("a backreference", `\\${next}`);
      if (next === "k" && rest.startsWith("<")) {
        throw refused("a named backreference", `\\k${rest.slice(0, rest.indexOf(">") + 1)}`);
      }
      if (next === "u") {
        const braced = HEX_BRACED.exec(rest);
        const plain = braced ? undefined : HEX4.exec(rest);
        if (braced || plain) {
          out += `\\x{${braced ? braced[1] : (plain as RegExpExecArray)[0]}}`;
          i += 1 + (braced ? braced[0].length : 4);
          continue;
        }
      }
      if (next === "c" && /^[A-Za-z]/.test(rest)) {
        out += `\\x{${((rest.charCodeAt(0) & 31) >>> 0).toString(16)}}`;
        i += 2;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
      // A `]` first in the class is one of its characters.
      if (source[i + 1] === "]" || (source[i + 1] === "^" && source[i + 2] === "]")) {
        const skip = source[i + 1] === "^" ? 2 : 1;
        out += source.slice(i, i + skip + 1);
        i += skip;
        continue;
      }
    } else if (c === "(" && source[i + 1] === "?") {
      const kind = source.slice(i + 2, i + 4);
      if (kind.startsWith("=") || kind.startsWith("!")) {
        throw refused("lookahead", `(?${kind[0]}`);
      }
      if (kind === "<=" || kind === "<!") throw refused("lookbehind", `(?${kind}`);
    }
    out += c;
  }
  return out;
}

/** Escapes whose letters are syntax: `\pL`, `\p{Lu}`, `\x{4A}`, `\x4A`, `\uXXXX`, `\cA`, `\S`. */
const ESCAPES =
  /\\[pPx]\{[^}]*\}|\\[pP][A-Za-z]|\\x[0-9A-Fa-f]{0,2}|\\u[0-9A-Fa-f]{0,4}|\\c[A-Za-z]|\\./g;

/** Whether the pattern has an upper-case letter to match (escapes aside). */
function hasUpperCase(source: string): boolean {
  return /\p{Lu}/u.test(source.replace(ESCAPES, ""));
}
