/**
 * The level of a line read from its bytes, without making a string of it: the same reading as
 * ./log-level.ts's `levelOfContent` (a JSON object's level key, walked key by key; in any other
 * line a logfmt `level=…` first, then a glog/klog prefix, then the earliest of a level word
 * opening the line and ending with `:`, an upper-case level word standing alone, and a bracketed
 * `[error]`), for a line of ASCII bytes (a character a byte). Any other line (bytes beyond ASCII,
 * an SGR sequence where the text reading would take it out) is left to the string reading:
 * `levelCodeOfAscii` says -1.
 *
 * The words each form takes are ./log-level.ts's own, as its patterns list them
 * (test/text/log-level-bytes.test.ts checks the two readings agree); the level a word names is
 * `levelNamed`'s.
 */
import { JSON_SCAN_LIMIT, levelNamed, levelRank, PLAIN_PREFIX, READ_CHARS } from "./log-level.js";

/** A level as an index keeps it: 0 none, 1 trace … 6 fatal. */
function codeOf(word: string): number {
  const level = levelNamed(word);
  return level === undefined ? 0 : levelRank(level) + 1;
}

/** A word of at most 11 letters as a number: 5 bits a letter (lower-cased), 1-based. */
function wordKey(word: string): number {
  let k = 0;
  for (let i = 0; i < word.length; i++) k = k * 32 + ((word.charCodeAt(i) | 0x20) - 96);
  return k;
}

function table(words: readonly string[]): Map<number, number> {
  return new Map(words.map((w) => [wordKey(w), codeOf(w)]));
}

/** log-level.ts's LEADING_WORD (any case, then `:`). */
const LEADING = table([
  "trace",
  "debug",
  "info",
  "notice",
  "warn",
  "warning",
  "error",
  "err",
  "critical",
  "fatal",
  "panic",
]);
/** log-level.ts's UPPER_WORD (upper case only, standing alone). */
const UPPER = table([
  "TRACE",
  "TRC",
  "DEBUG",
  "DBG",
  "INFO",
  "INF",
  "NOTICE",
  "WARNING",
  "WARN",
  "WRN",
  "ERROR",
  "ERR",
  "CRITICAL",
  "CRIT",
  "FATAL",
  "FTL",
  "PANIC",
  "PNC",
]);
/** log-level.ts's BRACKETED (any case, between `[<(` and `]>)`). */
const BRACKETED = table([
  "trace",
  "debug",
  "info",
  "notice",
  "warn",
  "warning",
  "error",
  "err",
  "critical",
  "crit",
  "fatal",
  "panic",
  "alert",
  "emerg",
]);
/** The longest word of those three tables and of LOGFMT_KEYS. */
const LONGEST = 8;
/** log-level.ts's LOGFMT keys (any case, then `=`). */
const LOGFMT_KEYS = new Set(["level", "lvl", "severity", "loglevel"].map(wordKey));
const GLOG: Readonly<Record<number, number>> = {
  73: codeOf("info"), // I
  87: codeOf("warn"), // W
  69: codeOf("error"), // E
  70: codeOf("fatal"), // F
};

/** Each byte's classes, looked up once a byte in the scan. */
const LETTER = 1;
const UPPER_LETTER = 2;
const OTHER_WORD = 4;
/** Not for this reading: beyond ASCII, or an escape (ESC). */
const STOP = 8;
const CLASSES = Uint8Array.from({ length: 256 }, (_, c) => {
  if (c >= 0x80 || c === 0x1b) return STOP;
  if (c >= 65 && c <= 90) return LETTER | UPPER_LETTER;
  if (c >= 97 && c <= 122) return LETTER;
  return (c >= 48 && c <= 57) || c === 95 ? OTHER_WORD : 0;
});

/**
 * The classes when the bytes are UTF-8 text (levelCodeOfText): a byte beyond ASCII is a
 * character of no class (no pattern's letter, digit or word character), an escape still stops.
 */
const TEXT_CLASSES = CLASSES.map((k, c) => (c >= 0x80 ? 0 : k));

/**
 * The codes of the names met as a value (a logfmt value, a JSON level string) of letters alone,
 * by their key (wordKey's): each read once with `codeOf`, kept when it names a level (there are
 * few such names, so this stays small).
 */
const NAME_CODES = new Map<number, number>();
/** The longest value whose key NAME_CODES keeps (5 bits a letter within 2^53). */
const KEYED = 10;

/** The code of the name in bytes [from, to) (ASCII), as `codeOf` reads it. */
function nameCode(b: Uint8Array, from: number, to: number): number {
  const n = to - from;
  let key = 0;
  if (n > 0 && n <= KEYED) {
    for (let i = from; i < to; i++) {
      const c = b[i] as number;
      if (((CLASSES[c] as number) & LETTER) === 0) {
        key = -1;
        break;
      }
      key = key * 32 + ((c | 0x20) - 96);
    }
    if (key > 0) {
      const known = NAME_CODES.get(key);
      if (known !== undefined) return known;
    }
  }
  let text = "";
  for (let i = from; i < to; i++) text += String.fromCharCode(b[i] as number);
  const code = codeOf(text);
  if (code > 0 && key > 0) NAME_CODES.set(key, code);
  return code;
}

function isLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 97 && l <= 122;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `[A-Za-z0-9_]`: what `\b` and the look-arounds count as a word character. */
function isWord(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95;
}

/** LEADING_WORD's class before the word: `[\d\s\-:.,+/TZ]`, case-blind (`\s` among ASCII). */
const LEADING_FILLER = Uint8Array.from({ length: 256 }, (_, c) =>
  isDigit(c) ||
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 45 ||
  c === 58 ||
  c === 46 ||
  c === 44 ||
  c === 43 ||
  c === 47 ||
  (c | 0x20) === 116 ||
  (c | 0x20) === 122
    ? 1
    : 0,
);

/** The letters from `at` (to `end` at most): how many. */
function lettersFrom(b: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && isLetter(b[i] as number)) i++;
  return i - at;
}

/** The key of the `n` letters at `at` (wordKey's), or -1 when longer than LONGEST. */
function keyAt(b: Uint8Array, at: number, n: number): number {
  if (n > LONGEST) return -1;
  let k = 0;
  for (let i = at; i < at + n; i++) k = k * 32 + (((b[i] as number) | 0x20) - 96);
  return k;
}

/**
 * LOGFMT's value after its `=` at `at` (`"?[A-Za-z]{3,13}\b`): the level it names, 0 when it names
 * none, -1 when there is no such value (the pattern is then looked for further on).
 */
function logfmtValue(b: Uint8Array, at: number, end: number): number {
  let v = at;
  if (v < end && b[v] === 34 /* " */) v++;
  const n = lettersFrom(b, v, end);
  const after = v + n;
  if (n < 3 || n > 13 || (after < end && isWord(b[after] as number))) return -1;
  return nameCode(b, v, after);
}

/** GLOG: `[IWEF]MMDD hh:mm:ss` opening the line; its code, or 0. */
function glog(b: Uint8Array, from: number, end: number): number {
  const c = b[from] as number;
  if (end - from < 14 || !(c === 73 || c === 87 || c === 69 || c === 70)) return 0;
  const code = GLOG[c] as number;
  const d = (k: number) => isDigit(b[from + k] as number);
  const m1 = b[from + 1] as number;
  const m2 = b[from + 2] as number;
  const d1 = b[from + 3] as number;
  const d2 = b[from + 4] as number;
  const month = (m1 === 48 && m2 >= 49 && m2 <= 57) || (m1 === 49 && m2 >= 48 && m2 <= 50);
  const day = (d1 >= 48 && d1 <= 50 && isDigit(d2)) || (d1 === 51 && (d2 === 48 || d2 === 49));
  const clock =
    b[from + 5] === 32 &&
    d(6) &&
    d(7) &&
    b[from + 8] === 58 &&
    d(9) &&
    d(10) &&
    b[from + 11] === 58 &&
    d(12) &&
    d(13);
  return month && day && clock ? code : 0;
}

/** leading: the filler goes on with a space beyond ASCII. */
const NOT_FOR_BYTES = -2;
/** What the pattern's `\s` takes, at the start of a text (the character a sequence decodes to). */
const SPACE_FIRST = /^\s/;
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * LEADING_WORD: a word opening the line after filler, then `:`, the longest filler first (as the
 * pattern tries them): where the word starts (from `from`) times 8, plus its code; -1 when none,
 * NOT_FOR_BYTES when the filler goes on with a space beyond ASCII.
 */
function leading(b: Uint8Array, from: number, end: number): number {
  let filler = 0;
  while (from + filler < end && LEADING_FILLER[b[from + filler] as number] === 1) filler++;
  // A character beyond ASCII may be a space the pattern takes as filler: not for this reading.
  if (from + filler < end && (b[from + filler] as number) >= 0x80) {
    const at = from + filler;
    if (SPACE_FIRST.test(UTF8.decode(b.subarray(at, Math.min(end, at + 4))))) return NOT_FOR_BYTES;
  }
  for (let q = filler; q >= 0; q--) {
    const at = from + q;
    // Most of the filler is no letter: no word starts there.
    if (at >= end || !isLetter(b[at] as number)) continue;
    const n = lettersFrom(b, at, end);
    if (n === 0 || at + n >= end || b[at + n] !== 58 /* : */) continue;
    const code = LEADING.get(keyAt(b, at, n));
    if (code !== undefined) return q * 8 + code;
  }
  return -1;
}

/** log-level.ts's spaces before a JSON line's `{`, and between its tokens. */
function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** log-level.ts's LEVEL_KEYS, lower case, as bytes. */
const JSON_LEVEL_KEYS = ["level", "severity", "lvl", "levelname", "loglevel", "log.level"].map(
  (k) => Uint8Array.from(k, (c) => c.charCodeAt(0)),
);
/** log-level.ts's NESTED_KEYS (their case as it is), as bytes. */
const JSON_NESTED_KEYS = ["fields", "log"].map((k) => Uint8Array.from(k, (c) => c.charCodeAt(0)));
/** An object's walk ended at a token it cannot read (or the end of what is read). */
const NOT_OK = -1;
/** An object's walk ended at its `}`, without a level of its own. */
const OK = 0;

/**
 * log-level.ts's walk over a JSON line's keys (its Walk and walkObject) on ASCII bytes, up to
 * `end`: strings skipped raw (not unescaped), a level key's value read as a name or a pino number.
 */
class JsonWalk {
  i = 0;
  /** The level found in a `fields` or `log` object, for when the top level has none. */
  inner = 0;
  private b: Uint8Array = NO_BYTES;
  end = 0;

  /** A walk of `b` from `start` to `end` (one walk reused, line after line). */
  reset(b: Uint8Array, start: number, end: number): this {
    this.b = b;
    this.i = start;
    this.end = end;
    this.inner = 0;
    return this;
  }

  /** Lets the bytes walked go. */
  done(): void {
    this.b = NO_BYTES;
  }

  private spaces(): void {
    while (this.i < this.end && isJsonSpace(this.b[this.i] as number)) this.i++;
  }

  private peek(): number {
    return this.i < this.end ? (this.b[this.i] as number) : -1;
  }

  /** At an opening quote: past the closing one; the first byte between, or -1 (none before end). */
  private string(): number {
    const open = this.i;
    for (let q = open + 1; q < this.end; q++) {
      if (this.b[q] !== 34) continue;
      let backslashes = 0;
      while (this.b[q - 1 - backslashes] === 0x5c) backslashes++;
      if (backslashes % 2 === 0) {
        this.i = q + 1;
        return open + 1;
      }
    }
    return -1;
  }

  private skipValue(): boolean {
    const c = this.peek();
    if (c === 34) return this.string() >= 0;
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      while (this.i < this.end) {
        const d = this.b[this.i] as number;
        if (d === 34) {
          if (this.string() < 0) return false;
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
    while (this.i < this.end) {
      const d = this.b[this.i] as number;
      if (d === 0x2c || d === 0x7d || d === 0x5d || isJsonSpace(d)) return true;
      this.i++;
    }
    return false;
  }

  /** A level key's value: the level a name or a pino/bunyan number says, else 0. */
  private levelValue(): number {
    const c = this.peek();
    if (c === 34) {
      const from = this.string();
      const length = this.i - 1 - from;
      if (from < 0 || length > 16) return 0;
      return nameCode(this.b, from, from + length);
    }
    if (c >= 0x30 && c <= 0x39) {
      const from = this.i;
      if (!this.skipValue()) return 0;
      const length = this.i - from;
      if (length > 6) return 0;
      let value = 0;
      for (let k = from; k < this.i; k++) {
        const d = (this.b[k] as number) - 48;
        if (d < 0 || d > 9) return 0;
        value = value * 10 + d;
      }
      if (value < 10) return 0;
      return Math.min(Math.floor(value / 10), 6);
    }
    this.skipValue();
    return 0;
  }

  /** Whether the key in bytes [from, from + length) is one of `keys` (lower-cased first, `fold`). */
  private isKey(from: number, length: number, keys: readonly Uint8Array[], fold: boolean): boolean {
    for (const key of keys) {
      if (key.length !== length) continue;
      let k = 0;
      while (k < length) {
        let c = this.b[from + k] as number;
        if (fold && c >= 65 && c <= 90) c += 32;
        if (c !== key[k]) break;
        k++;
      }
      if (k === length) return true;
    }
    return false;
  }

  /**
   * From an object's `{` to past its `}`: the top level's level (a code, at once), OK, or NOT_OK;
   * a level inside `fields` or `log` is kept in `inner`.
   */
  object(nested: boolean): number {
    this.i++;
    this.spaces();
    if (this.peek() === 0x7d) {
      this.i++;
      return OK;
    }
    for (;;) {
      this.spaces();
      if (this.peek() !== 34) return NOT_OK;
      const key = this.string();
      if (key < 0) return NOT_OK;
      const keyLength = this.i - 1 - key;
      this.spaces();
      if (this.peek() !== 0x3a) return NOT_OK;
      this.i++;
      this.spaces();
      if (this.isKey(key, keyLength, JSON_LEVEL_KEYS, true)) {
        const found = this.levelValue();
        if (found > 0 && !nested) return found;
        if (found > 0 && this.inner === 0) this.inner = found;
      } else if (
        !nested &&
        this.isKey(key, keyLength, JSON_NESTED_KEYS, false) &&
        this.peek() === 0x7b
      ) {
        if (this.object(true) === NOT_OK) return NOT_OK;
      } else if (!this.skipValue()) {
        return NOT_OK;
      }
      this.spaces();
      const c = this.peek();
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return OK;
      }
      return NOT_OK;
    }
  }
}

const NO_BYTES = new Uint8Array(0);
/** The walk every JSON line's reading uses (a reading runs to its end before the next). */
const WALK = new JsonWalk();

/**
 * The level code (0 none, 1 trace … 6 fatal) of the line in bytes [from, to) as
 * `levelOfContent` reads the same text, or -1 when it is not for this reading: a byte beyond
 * ASCII anywhere in it, an escape in its first PLAIN_PREFIX bytes when it is read as text.
 */
export function levelCodeOfAscii(b: Uint8Array, from: number, to: number): number {
  // What the string reading reads of a line: its first READ_CHARS.
  const line = Math.min(to, from + READ_CHARS);
  let start = from;
  while (start < line && isJsonSpace(b[start] as number)) start++;
  if (start < line && b[start] === 123 /* { */) {
    if (!ascii(b, from, to)) return -1;
    const walk = WALK.reset(b, start, Math.min(line, start + JSON_SCAN_LIMIT));
    const result = walk.object(false);
    walk.done();
    if (result > 0) return result;
    if (walk.inner > 0) return walk.inner;
    // Not a JSON object after all (`{main} ERROR …`): read as text.
    if (result === NOT_OK && line <= walk.end) return plainCode(b, from, to, false);
    return 0;
  }
  // The plain reading looks at every byte of its first PLAIN_PREFIX: it tells those beyond ASCII.
  return plainCode(b, from, to, false);
}

/**
 * The level code of the line in bytes [from, to) taken as UTF-8 text (bytes beyond ASCII
 * included), as `levelOfContent` reads its text, or -1 when it is not for this reading: an escape
 * in it, more than PLAIN_PREFIX bytes read as plain text or JSON_SCAN_LIMIT read as JSON (the
 * string reading counts characters, not bytes), a space beyond ASCII where the leading word's
 * filler would end (the pattern takes it as filler). What the patterns see of such a character:
 * neither a letter, a digit nor a word character, in any case (`i` without `u` folds none of
 * them to ASCII), as of every byte of its sequence, and a malformed sequence's U+FFFD likewise.
 */
export function levelCodeOfText(b: Uint8Array, from: number, to: number): number {
  let start = from;
  while (start < to && isJsonSpace(b[start] as number)) start++;
  if (start < to && b[start] === 123 /* { */) {
    if (to - start > JSON_SCAN_LIMIT) return -1;
    const walk = WALK.reset(b, start, to);
    const result = walk.object(false);
    walk.done();
    if (result > 0) return result;
    if (walk.inner > 0) return walk.inner;
    if (result === NOT_OK) return plainCode(b, from, to, true);
    return 0;
  }
  return plainCode(b, from, to, true);
}

/** Whether bytes [from, to) are all ASCII. */
function ascii(b: Uint8Array, from: number, to: number): boolean {
  let i = from;
  const v = to - from >= WORDS_FROM ? wordsOf(b) : undefined;
  if (v) {
    const off = wordsOffset;
    for (; ((i + off) & 3) !== 0; i++) if ((b[i] as number) >= 0x80) return false;
    const last = (to + off) >> 2;
    let any = 0;
    for (let w = (i + off) >> 2; w < last; w++) any |= v[w] as number;
    if ((any & 0x80808080) !== 0) return false;
    i = (last << 2) - off;
  }
  for (; i < to; i++) if ((b[i] as number) >= 0x80) return false;
  return true;
}

/**
 * Where the first byte in [at, end) is that is beyond ASCII, an escape or a `=` (`end`: none);
 * what restCode stops at.
 */
function nextMark(b: Uint8Array, at: number, end: number): number {
  let x = at;
  const v = end - at >= WORDS_FROM ? wordsOf(b) : undefined;
  if (v) {
    const off = wordsOffset;
    for (; ((x + off) & 3) !== 0; x++) if (isMark(b[x] as number)) return x;
    const last = (end + off) >> 2;
    let w = (x + off) >> 2;
    for (; w < last; w++) {
      // Four bytes at once: a high bit, or a byte equal to ESC or `=` (a zero byte once xor-ed).
      const y = v[w] as number;
      const esc = y ^ 0x1b1b1b1b;
      const eq = y ^ 0x3d3d3d3d;
      if (((y | ((esc - 0x01010101) & ~esc) | ((eq - 0x01010101) & ~eq)) & 0x80808080) !== 0) {
        break;
      }
    }
    x = (w << 2) - off;
  }
  for (; x < end; x++) if (isMark(b[x] as number)) return x;
  return end;
}

function isMark(c: number): boolean {
  return c >= 0x80 || c === 0x1b || c === 61;
}

/** Whether this machine keeps a word's first byte lowest (four-byte reads' offsets are then right). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
/** Ranges shorter than this are read a byte at a time. */
const WORDS_FROM = 16;
let wordsView: Uint8Array | undefined;
let words: Int32Array<ArrayBufferLike> = new Int32Array(0);
/** Where that view's bytes start in their memory. */
let wordsOffset = 0;

/**
 * The memory under `b` four bytes at a time (the view of the last bytes read kept for the next
 * line: a saved log's reader reads line after line of one read); undefined on a big-endian
 * machine.
 */
function wordsOf(b: Uint8Array): Int32Array<ArrayBufferLike> | undefined {
  if (b !== wordsView) {
    if (!LITTLE_ENDIAN) return undefined;
    wordsView = b;
    words = new Int32Array(b.buffer, 0, b.buffer.byteLength >> 2);
    wordsOffset = b.byteOffset;
  }
  return words;
}

/**
 * The plain reading of a line; -1 when a byte of it is beyond ASCII, or an escape is in its first
 * PLAIN_PREFIX bytes.
 */
function plainCode(b: Uint8Array, from: number, to: number, text: boolean): number {
  // As text, every character is read, so that no byte count stands for a character count.
  if (text) return to - from > PLAIN_PREFIX ? -1 : plainPrefixCode(b, from, to, true);
  const code = plainPrefixCode(b, from, to, false);
  const end = Math.min(to, from + PLAIN_PREFIX);
  // The bytes past those the prefix's reading looked at (all of them when it found a level in
  // logfmt, before its end) are ASCII too.
  return code < 0 || (to > end && !ascii(b, end, to)) ? -1 : code;
}

/**
 * Whether bytes [from, to) after a logfmt match hold no escape and no byte beyond ASCII (what
 * the match's level depends on once it is read).
 */
function plainTail(b: Uint8Array, from: number, to: number, text: boolean): boolean {
  return !b.subarray(from, to).includes(0x1b) && (text || ascii(b, from, to));
}

/** restCode: the bytes it read change nothing. */
const NOTHING_MORE = -2;

/**
 * The bytes [at, end) of a line's plain reading (from `from`) after its earliest upper-case or
 * bracketed level word: -1 for an escape or a byte beyond ASCII, the level of a logfmt match
 * naming one (while `logfmtSeen` is false: no match met yet), else NOTHING_MORE. `at` is where a
 * run of word characters ended (a byte of none, or `end`): a match's key is a run after it.
 */
function restCode(
  b: Uint8Array,
  from: number,
  at: number,
  end: number,
  logfmtSeen: boolean,
  text: boolean,
): number {
  const classes = text ? TEXT_CLASSES : CLASSES;
  for (let x = nextMark(b, at, end); x < end; x = nextMark(b, x + 1, end)) {
    const c = b[x] as number;
    if (c >= 0x80 && text) continue;
    if (c !== 61 /* = */) return -1;
    if (logfmtSeen) continue;
    // The run of word characters before the `=`: a logfmt key when letters only, and short.
    let ws = x;
    let letters = true;
    while (ws > at && (classes[b[ws - 1] as number] as number) !== 0) {
      if (((classes[b[ws - 1] as number] as number) & OTHER_WORD) !== 0) letters = false;
      ws--;
    }
    const n = x - ws;
    if (n === 0 || !letters || n > LONGEST) continue;
    const before = ws > from ? (b[ws - 1] as number) : -1;
    if (before === 46 || !LOGFMT_KEYS.has(keyAt(b, ws, n))) continue;
    const code = logfmtValue(b, x + 1, end);
    if (code > 0) return plainTail(b, x, end, text) ? code : -1;
    // The first match names no level: the other forms say.
    if (code === 0) logfmtSeen = true;
  }
  return NOTHING_MORE;
}

/**
 * The plain reading of a line's first PLAIN_PREFIX bytes; -1 when a byte of them is an escape, or
 * beyond ASCII unless `text` (the bytes taken as UTF-8 text: levelCodeOfText). Every byte of them
 * is looked at.
 */
function plainPrefixCode(b: Uint8Array, from: number, to: number, text: boolean): number {
  const classes = text ? TEXT_CLASSES : CLASSES;
  const end = Math.min(to, from + PLAIN_PREFIX);
  // One pass over the runs of word characters: the first logfmt match (whose value, when it names
  // a level, decides), the first upper-case level word, the first bracketed one; and over the
  // bytes between them, where an escape would be.
  let upperAt = -1;
  let upperCode = 0;
  let bracketAt = -1;
  let bracketCode = 0;
  let logfmtSeen = false;
  let i = from;
  while (i < end) {
    const kind = classes[b[i] as number] as number;
    if (kind === 0) {
      i++;
      continue;
    }
    if (kind === STOP) return -1;
    // The run of word characters (a STOP byte ends it, and the reading once met): the classes
    // every byte of it has, and any has.
    let all = kind;
    let any = kind;
    let j = i + 1;
    while (j < end) {
      const k = classes[b[j] as number] as number;
      if ((k & ~STOP) === 0) break;
      all &= k;
      any |= k;
      j++;
    }
    const n = j - i;
    if ((any & OTHER_WORD) === 0 && n <= LONGEST) {
      const before = i > from ? (b[i - 1] as number) : -1;
      const after = j < end ? (b[j] as number) : -1;
      if (!logfmtSeen && after === 61 /* = */ && before !== 46 && LOGFMT_KEYS.has(keyAt(b, i, n))) {
        const code = logfmtValue(b, j + 1, end);
        if (code > 0) return plainTail(b, j, end, text) ? code : -1;
        // The first match names no level: the other forms say.
        if (code === 0) logfmtSeen = true;
      }
      if (upperAt < 0 && (all & UPPER_LETTER) !== 0 && n >= 3) {
        const code = UPPER.get(keyAt(b, i, n));
        if (code !== undefined) {
          upperAt = i - from;
          upperCode = code;
        }
      }
      if (
        bracketAt < 0 &&
        (before === 91 || before === 60 || before === 40) &&
        (after === 93 || after === 62 || after === 41)
      ) {
        const code = BRACKETED.get(keyAt(b, i, n));
        if (code !== undefined) {
          bracketAt = i - 1 - from;
          bracketCode = code;
        }
      }
    }
    i = j;
    if (upperAt >= 0 || bracketAt >= 0) {
      // The earliest word of those two forms is found: of the bytes after it, only a logfmt match
      // (while none was met), an escape or a byte beyond ASCII can change what is read.
      const rest = restCode(b, from, i, end, logfmtSeen, text);
      if (rest !== NOTHING_MORE) return rest;
      break;
    }
  }
  // A word of those two forms opening the line: no glog prefix is there, and a leading word
  // there is the same word (the same level); none is earlier.
  if (upperAt === 0) return upperCode;
  if (bracketAt === 0) return bracketCode;
  const fromGlog = glog(b, from, end);
  if (fromGlog > 0) return fromGlog;
  // The earliest of the rest wins (ties: leading word, upper-case word, bracketed).
  const lead = leading(b, from, end);
  if (lead === NOT_FOR_BYTES) return -1;
  let best = lead < 0 ? -1 : lead >> 3;
  let code = lead < 0 ? 0 : lead & 7;
  if (upperAt >= 0 && (best < 0 || upperAt < best)) {
    best = upperAt;
    code = upperCode;
  }
  if (bracketAt >= 0 && (best < 0 || bracketAt < best)) code = bracketCode;
  return code;
}
