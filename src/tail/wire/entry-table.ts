/**
 * The entries of a plain window (./plain-window.ts) as positions in the answer's bytes, as
 * ./window-scanner.ts finds them and the printer writes them.
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

/** The entries of a window as positions in the body, parallel arrays that grow by doubling. */
export class EntryTable {
  count = 0;
  labelIds = new Int32Array(1024);
  contentFrom = new Int32Array(1024);
  contentTo = new Int32Array(1024);
  /** What each content holds (a StringKind). */
  kinds = new Uint8Array(1024);
  keys = new Float64Array(1024);
  /** Where the digits of each timestamp's seconds and nanos start, and how many there are. */
  secondsAt = new Int32Array(1024);
  secondsDigits = new Uint8Array(1024);
  nanosAt = new Int32Array(1024);
  nanosDigits = new Uint8Array(1024);

  add(labelId: number, from: number, to: number, kind: StringKind, key: number, ts: Digits): void {
    if (this.count === this.keys.length) this.grow();
    const i = this.count++;
    this.labelIds[i] = labelId;
    this.contentFrom[i] = from;
    this.contentTo[i] = to;
    this.kinds[i] = kind;
    this.keys[i] = key;
    this.secondsAt[i] = ts.secondsAt;
    this.secondsDigits[i] = ts.secondsDigits;
    this.nanosAt[i] = ts.nanosAt;
    this.nanosDigits[i] = ts.nanosDigits;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(
      a: T,
      make: (n: number) => T,
    ) => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.labelIds = grown(this.labelIds, (n) => new Int32Array(n));
    this.contentFrom = grown(this.contentFrom, (n) => new Int32Array(n));
    this.contentTo = grown(this.contentTo, (n) => new Int32Array(n));
    this.kinds = grown(this.kinds, (n) => new Uint8Array(n));
    this.keys = grown(this.keys, (n) => new Float64Array(n));
    this.secondsAt = grown(this.secondsAt, (n) => new Int32Array(n));
    this.secondsDigits = grown(this.secondsDigits, (n) => new Uint8Array(n));
    this.nanosAt = grown(this.nanosAt, (n) => new Int32Array(n));
    this.nanosDigits = grown(this.nanosDigits, (n) => new Uint8Array(n));
  }
}
