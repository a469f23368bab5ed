/**
 * The byte-level walk of an NDJSON line as tail writes it: its top-level fields found in place
 * (where `replicaLabel`, `deploymentId`, `content`, `ts`, `level`, `time` are in the line's
 * bytes), without making strings of the rest, so that indexing a saved log reads each line once.
 * A walker holds the cursor of one line at a time; each reader of lines owns its own.
 */
import { LOG_LEVELS } from "../../text/log-level.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonLineWalker {
  /** The cursor over one line's bytes: at `i` in `b`, up to `end`. */
  private b: Buffer = Buffer.alloc(0);
  private i = 0;
  private end = 0;
  /** The last string walked: [strStart, strEnd) between its quotes; whether it holds an escape. */
  private strStart = 0;
  private strEnd = 0;
  private strEscaped = false;

  /** Where the fields of the line last walked are. */
  readonly at = {
    label: -1,
    labelEnd: 0,
    labelEscaped: false,
    deployment: -1,
    deploymentEnd: 0,
    deploymentEscaped: false,
    content: -1,
    contentEnd: 0,
    contentEscaped: false,
    seconds: Number.NaN,
    nanos: Number.NaN,
    /** ts was null (or absent): the line has no timestamp of its own. */
    tsNull: true,
    level: -1,
    levelEnd: 0,
    levelNull: false,
    time: -1,
    timeEnd: 0,
    /** A field that makes the line need a full read: event, tvcwatch, a ts not as tail writes it. */
    other: false,
  };

  /**
   * Walks the line in bytes [s, e) of `buffer` into `at`; false when it is not one JSON object.
   * `at.other`: a field that makes the line need a full read.
   */
  walk(buffer: Buffer, s: number, e: number): boolean {
    this.b = buffer;
    this.i = s;
    this.end = e;
    return this.walkJsonLine();
  }

  /** A string field the last walk found ([from, to) between its quotes, escaped), as text. */
  fieldString(from: number, to: number, escaped: boolean): string {
    this.strStart = from;
    this.strEnd = to;
    this.strEscaped = escaped;
    return this.stringValue();
  }

  /** The content field's value (the last walk found one). */
  contentString(): string {
    return this.fieldString(this.at.content, this.at.contentEnd, this.at.contentEscaped);
  }

  /** The bytes [s, e) of the line last walked as latin1 (an ASCII field: a time). */
  latin1(s: number, e: number): string {
    return this.b.toString("latin1", s, e);
  }

  private spaces(): void {
    while (this.i < this.end) {
      const c = this.b[this.i] as number;
      if (c === 0x20 || c === 0x09 || c === 0x0d) this.i++;
      else break;
    }
  }

  /** At a quote: walks past the closing one; false when the string does not end in the line. */
  private walkString(): boolean {
    let k = this.i + 1;
    this.strEscaped = false;
    while (k < this.end) {
      const c = this.b[k] as number;
      if (c === QUOTE) {
        this.strStart = this.i + 1;
        this.strEnd = k;
        this.i = k + 1;
        return true;
      }
      if (c === BACKSLASH) {
        this.strEscaped = true;
        k += 2;
      } else {
        k++;
      }
    }
    return false;
  }

  /** Walks past any value; false when the line ends (or is no JSON) first. */
  private walkValue(): boolean {
    const c = this.b[this.i];
    if (c === QUOTE) return this.walkString();
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      while (this.i < this.end) {
        const d = this.b[this.i] as number;
        if (d === QUOTE) {
          if (!this.walkString()) return false;
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
    const from = this.i;
    while (this.i < this.end) {
      const d = this.b[this.i] as number;
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0d) break;
      this.i++;
    }
    return this.i > from;
  }

  /** Whether the bytes [s, e) are `word` (ASCII). */
  private bytesAre(s: number, e: number, word: string): boolean {
    if (e - s !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (this.b[s + k] !== word.charCodeAt(k)) return false;
    return true;
  }

  /** A string's value: its bytes as they are, or JSON-decoded when it has escapes. */
  private stringValue(): string {
    return this.strEscaped
      ? (JSON.parse(this.b.toString("utf8", this.strStart - 1, this.strEnd + 1)) as string)
      : this.b.toString("utf8", this.strStart, this.strEnd);
  }

  /** Plain digits [s, e) as a number, or NaN. */
  private digits(s: number, e: number): number {
    if (e <= s || e - s > 20) return Number.NaN;
    let v = 0;
    for (let k = s; k < e; k++) {
      const d = (this.b[k] as number) - 48;
      if (d < 0 || d > 9) return Number.NaN;
      v = v * 10 + d;
    }
    return v;
  }

  /** ts as tail writes it: {"seconds":"digits","nanos":"digits"}; false otherwise. */
  private walkTs(): boolean {
    if (this.b[this.i] !== 0x7b) return false;
    this.i++;
    for (;;) {
      this.spaces();
      if (this.b[this.i] !== QUOTE || !this.walkString() || this.strEscaped) return false;
      const ks = this.strStart;
      const ke = this.strEnd;
      this.spaces();
      if (this.b[this.i] !== 0x3a) return false;
      this.i++;
      this.spaces();
      if (this.b[this.i] !== QUOTE || !this.walkString() || this.strEscaped) return false;
      if (this.bytesAre(ks, ke, "seconds"))
        this.at.seconds = this.digits(this.strStart, this.strEnd);
      else if (this.bytesAre(ks, ke, "nanos"))
        this.at.nanos = this.digits(this.strStart, this.strEnd);
      else return false;
      this.spaces();
      if (this.b[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      if (this.b[this.i] === 0x7d) {
        this.i++;
        return !Number.isNaN(this.at.seconds) && !Number.isNaN(this.at.nanos);
      }
      return false;
    }
  }

  /** Walks a line's top-level fields into `at`; false when it is not one JSON object. */
  private walkJsonLine(): boolean {
    this.at.label = -1;
    this.at.deployment = -1;
    this.at.content = -1;
    this.at.seconds = Number.NaN;
    this.at.nanos = Number.NaN;
    this.at.tsNull = true;
    this.at.level = -1;
    this.at.levelNull = false;
    this.at.time = -1;
    this.at.other = false;
    this.spaces();
    if (this.b[this.i] !== 0x7b) return false;
    this.i++;
    this.spaces();
    if (this.b[this.i] === 0x7d) {
      this.i++;
      this.spaces();
      return this.i === this.end;
    }
    for (;;) {
      this.spaces();
      if (this.b[this.i] !== QUOTE || !this.walkString()) return false;
      const ks = this.strStart;
      const ke = this.strEnd;
      const keyEscaped = this.strEscaped;
      this.spaces();
      if (this.b[this.i] !== 0x3a) return false;
      this.i++;
      this.spaces();
      const c = this.b[this.i];
      if (keyEscaped) {
        this.at.other = true;
        if (!this.walkValue()) return false;
      } else if (c === QUOTE && this.bytesAre(ks, ke, "content")) {
        if (!this.walkString()) return false;
        this.at.content = this.strStart;
        this.at.contentEnd = this.strEnd;
        this.at.contentEscaped = this.strEscaped;
      } else if (c === QUOTE && this.bytesAre(ks, ke, "replicaLabel")) {
        if (!this.walkString()) return false;
        this.at.label = this.strStart;
        this.at.labelEnd = this.strEnd;
        this.at.labelEscaped = this.strEscaped;
      } else if (c === QUOTE && this.bytesAre(ks, ke, "deploymentId")) {
        if (!this.walkString()) return false;
        this.at.deployment = this.strStart;
        this.at.deploymentEnd = this.strEnd;
        this.at.deploymentEscaped = this.strEscaped;
      } else if (this.bytesAre(ks, ke, "ts")) {
        if (c === 0x6e /* null */) {
          if (!this.walkValue()) return false;
        } else {
          const from = this.i;
          this.at.tsNull = false;
          if (!this.walkTs()) {
            this.at.other = true;
            this.i = from;
            if (!this.walkValue()) return false;
          }
        }
      } else if (this.bytesAre(ks, ke, "level")) {
        if (c === QUOTE) {
          if (!this.walkString()) return false;
          this.at.level = this.strStart;
          this.at.levelEnd = this.strEnd;
        } else {
          const from = this.i;
          if (!this.walkValue()) return false;
          this.at.levelNull = this.bytesAre(from, this.i, "null");
        }
      } else if (c === QUOTE && this.bytesAre(ks, ke, "time")) {
        if (!this.walkString()) return false;
        this.at.time = this.strStart;
        this.at.timeEnd = this.strEnd;
      } else if (this.bytesAre(ks, ke, "event") || this.bytesAre(ks, ke, "tvcwatch")) {
        this.at.other = true;
        if (!this.walkValue()) return false;
      } else if (!this.walkValue()) {
        return false;
      }
      this.spaces();
      if (this.b[this.i] === 0x2c) {
        this.i++;
        continue;
      }
      if (this.b[this.i] === 0x7d) {
        this.i++;
        this.spaces();
        return this.i === this.end;
      }
      return false;
    }
  }

  /** The level field's code, or -1 when it names no level tvcwatch writes. */
  levelFieldCode(): number {
    const len = this.at.levelEnd - this.at.level;
    for (let r = 0; r < LOG_LEVELS.length; r++) {
      const name = LOG_LEVELS[r] as string;
      if (name.length === len && this.bytesAre(this.at.level, this.at.levelEnd, name)) return r + 1;
    }
    return -1;
  }
}
