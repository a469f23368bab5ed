/**
 * What a saved log keeps of each of its lines, in columns of typed arrays rather than an object a
 * line: where it starts and how long it is (its bytes stay in the file), where its content is in
 * it (so that a search reads only that), its sort key, a byte of flags (level, whether the key is
 * its own time, gap, unreadable, late, content escaped) and its stream. 18 bytes a line: a start
 * takes four bytes until one is past 4 GiB (eight then), a length two until a line is longer than
 * 65,535 bytes (four then), a stream one until a log has more than 255 (two, then four past
 * 65,535), the bytes before and after the content one each until either is 255 or more (two
 * then); each column is widened when a value needs it. A line is decoded again only when it is
 * shown. Lines are numbered from the first one indexed; the oldest can be let go (a cap), and
 * numbers stay what they were.
 *
 * A large file's rest is indexed on two threads into one set of columns in shared memory
 * (`sharedColumns`, ./piece-protocol.ts says who fills which slots), so that no thread's lines are
 * held twice; they are then moved together in place.
 */

type Column = Float64Array | Uint32Array | Uint16Array | Uint8Array;
/** A column of whole numbers, as narrow as its values let it be. */
type Narrow = Uint32Array | Uint16Array | Uint8Array;
/** Where the content is in a line: one byte each, or two (NO_SPAN's width). */
type Span = Uint16Array | Uint8Array;

/**
 * `size` values of `from` from slot `start` written at slot `at` of `to` (moved, when one column;
 * converted, when `from` is narrower).
 */
function place(to: Column, from: Column, start: number, size: number, at: number): void {
  if (to === from) {
    if (at !== start) to.copyWithin(at, start, start + size);
  } else {
    to.set(from.subarray(start, start + size), at);
  }
}

/** The same values in a column of `make`'s width. */
function widened<T extends Column>(from: Column, make: (n: number) => T): T {
  const to = make(from.length);
  to.set(from);
  return to;
}

/** The value a span column holds for a span not known: its largest. */
function noSpan(c: Span): number {
  return c instanceof Uint8Array ? 0xff : NO_SPAN;
}

/** A span column of one byte as one of two, its slots of a span not known kept so. */
function wideSpan(c: Span): Uint16Array {
  if (c instanceof Uint16Array) return c;
  const wide = widened(c, (n) => new Uint16Array(n));
  for (let k = 0; k < wide.length; k++) if (wide[k] === 0xff) wide[k] = NO_SPAN;
  return wide;
}

/**
 * `size` spans of `from` from slot `start` written at slot `at` of `to` (as wide as `from` or
 * wider): a span not known stays one.
 */
function placeSpans(to: Span, from: Span, start: number, size: number, at: number): void {
  place(to, from, start, size, at);
  if (to instanceof Uint16Array && from instanceof Uint8Array) {
    for (let k = at; k < at + size; k++) if (to[k] === 0xff) to[k] = NO_SPAN;
  }
}

/** The widest value a column of whole numbers holds. */
function widest(c: Narrow): number {
  return c instanceof Uint8Array ? 0xff : c instanceof Uint16Array ? 0xffff : 0xffff_ffff;
}

/** A column of whole numbers widened to hold `value`. */
function toHold(c: Narrow, value: number): Narrow {
  if (value <= widest(c)) return c;
  return value <= 0xffff
    ? widened(c, (n) => new Uint16Array(n))
    : widened(c, (n) => new Uint32Array(n));
}

/** A column of `n` slots as wide as `c`. */
function like<T extends Column>(c: T, n: number): T {
  return new (c.constructor as new (n: number) => T)(n);
}

/** Whether two sets of columns are as wide as each other, column by column. */
export function sameWidths(a: LineColumns, b: LineColumns): boolean {
  return (
    a.starts.BYTES_PER_ELEMENT === b.starts.BYTES_PER_ELEMENT &&
    a.lengths.BYTES_PER_ELEMENT === b.lengths.BYTES_PER_ELEMENT &&
    a.streams.BYTES_PER_ELEMENT === b.streams.BYTES_PER_ELEMENT &&
    a.contentFrom.BYTES_PER_ELEMENT === b.contentFrom.BYTES_PER_ELEMENT &&
    a.contentAfter.BYTES_PER_ELEMENT === b.contentAfter.BYTES_PER_ELEMENT
  );
}

/** Columns of `capacity` slots in shared memory: their untouched slots take no memory. */
export function sharedColumns(capacity: number): LineColumns {
  const shared = (bytes: number) => new SharedArrayBuffer(Math.max(1, capacity) * bytes);
  return {
    from: 0,
    size: 0,
    starts: new Uint32Array(shared(4)),
    lengths: new Uint16Array(shared(2)),
    keys: new Float64Array(shared(8)),
    flags: new Uint8Array(shared(1)),
    streams: new Uint8Array(shared(1)),
    contentFrom: new Uint8Array(shared(1)),
    contentAfter: new Uint8Array(shared(1)),
  };
}

/** The level: 0 none, 1 trace … 6 fatal. */
export const LEVEL_MASK = 0x07;
/** The key is the line's own time (else its predecessor's in the file, or its successor's). */
export const TIMED = 0x08;
export const IS_GAP = 0x10;
/** Not readable as its file's format: kept as text. */
export const UNREADABLE = 0x20;
/** Older than a line before it in the file (it arrived late). */
export const LATE = 0x40;
/** The content's bytes are a JSON string's, with escapes (decoded with JSON.parse). */
export const ESCAPED = 0x80;
/** Where the content is, not known (the line is read whole to find it); known spans are less. */
export const NO_SPAN = 0xffff;

/** An index's columns, as handed between threads (./piece-index.ts): `size` lines from `from`. */
export interface LineColumns {
  from: number;
  size: number;
  starts: Float64Array | Uint32Array;
  lengths: Uint16Array | Uint32Array;
  keys: Float64Array;
  flags: Uint8Array;
  streams: Narrow;
  /** The content's place: one byte each (255: not known), or two (NO_SPAN: not known). */
  contentFrom: Span;
  contentAfter: Span;
}

export class LineIndex {
  /** Four bytes a line until a start needs more (then eight). */
  private starts: Float64Array | Uint32Array;
  /** Two bytes a line until a line is longer (then four). */
  private lengths: Uint16Array | Uint32Array;
  private keys: Float64Array;
  private flagBytes: Uint8Array;
  /** One byte a line until a stream number needs more (then two, then four). */
  private streamIds: Narrow;
  /** Bytes before the content, and after it, in the line (noSpan: not known). */
  private contentFrom: Span;
  private contentAfter: Span;
  /** Slots let go at the front of the arrays (compacted now and then). */
  private head = 0;
  private used = 0;
  /** The slot after the last this index may fill (the arrays' end, or its window's). */
  private limit: number;
  /** Asked for more slots once the window is full: the window's new end (none: columns of its own). */
  private more: ((end: number) => number) | undefined;
  /** Lines let go in all: the number of the first line held. */
  private firstNumber = 0;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.starts = new Uint32Array(n);
    this.lengths = new Uint16Array(n);
    this.keys = new Float64Array(n);
    this.flagBytes = new Uint8Array(n);
    this.streamIds = new Uint8Array(n);
    this.contentFrom = new Uint8Array(n);
    this.contentAfter = new Uint8Array(n);
    this.limit = this.starts.length;
  }

  /** An index over columns made elsewhere (another thread's): their `size` slots from `from`. */
  static adopt(c: LineColumns): LineIndex {
    const ix = new LineIndex(16);
    ix.starts = c.starts;
    ix.lengths = c.lengths;
    ix.keys = c.keys;
    ix.flagBytes = c.flags;
    ix.streamIds = c.streams;
    ix.contentFrom = c.contentFrom;
    ix.contentAfter = c.contentAfter;
    ix.head = c.from;
    ix.used = c.from + c.size;
    ix.limit = c.starts.length;
    return ix;
  }

  /**
   * An index that fills the slots of `c` from `from` (columns others fill other slots of) up to
   * the end `more` gives it, asked again each time it is full; once it gives no more, the lines
   * move to columns of their own.
   */
  static window(c: LineColumns, from: number, more: (end: number) => number): LineIndex {
    const ix = LineIndex.adopt({ ...c, from, size: 0 });
    ix.limit = Math.min(from, c.starts.length);
    ix.more = more;
    return ix;
  }

  /** The columns of the lines held (slot 0 the oldest), to hand to another thread. */
  columns(): LineColumns {
    if (this.head > 0) this.compact(this.starts.length);
    return {
      from: 0,
      size: this.used,
      starts: this.starts,
      lengths: this.lengths,
      keys: this.keys,
      flags: this.flagBytes,
      streams: this.streamIds,
      contentFrom: this.contentFrom,
      contentAfter: this.contentAfter,
    };
  }

  /**
   * Appends the lines of `c` as they are (their keys and flags already what they are to be), each
   * stream number `s` read as `streamOf[s]`; returns the number of the first line appended. Lines
   * in these very columns (further on in them) are moved, not copied through a buffer.
   */
  append(c: LineColumns, streamOf: Uint32Array): number {
    const first = this.next();
    if (!this.fits(c.size)) this.compact(this.size() + c.size);
    const at = this.used;
    let most = 0;
    for (let k = 0; k < streamOf.length; k++)
      if ((streamOf[k] as number) > most) most = streamOf[k] as number;
    this.streamIds = toHold(this.streamIds, Math.max(most, widest(c.streams)));
    if (c.starts instanceof Float64Array && this.starts instanceof Uint32Array) this.widenStarts();
    this.lengths = toHold(this.lengths, widest(c.lengths)) as Uint16Array | Uint32Array;
    if (c.contentFrom instanceof Uint16Array) this.contentFrom = wideSpan(this.contentFrom);
    if (c.contentAfter instanceof Uint16Array) this.contentAfter = wideSpan(this.contentAfter);
    place(this.starts, c.starts, c.from, c.size, at);
    place(this.lengths, c.lengths, c.from, c.size, at);
    place(this.keys, c.keys, c.from, c.size, at);
    place(this.flagBytes, c.flags, c.from, c.size, at);
    placeSpans(this.contentFrom, c.contentFrom, c.from, c.size, at);
    placeSpans(this.contentAfter, c.contentAfter, c.from, c.size, at);
    const ids = this.streamIds;
    const from = c.streams;
    // In the same column, moved towards its start: in order, each read before it is written over.
    if (ids !== from || at <= c.from) {
      for (let k = 0; k < c.size; k++) {
        const s = from[c.from + k] as number;
        ids[at + k] = s < streamOf.length ? (streamOf[s] as number) : s;
      }
    } else {
      for (let k = c.size - 1; k >= 0; k--) {
        const s = from[c.from + k] as number;
        ids[at + k] = s < streamOf.length ? (streamOf[s] as number) : s;
      }
    }
    this.used += c.size;
    return first;
  }

  setFlags(number: number, flags: number): void {
    this.flagBytes[this.head + number - this.firstNumber] = flags;
  }

  /** Lines held. */
  size(): number {
    return this.used - this.head;
  }

  /** The number of the oldest line held (lines let go before it). */
  first(): number {
    return this.firstNumber;
  }

  /** The number the next line gets. */
  next(): number {
    return this.firstNumber + this.size();
  }

  /** Bytes the arrays take. */
  bytes(): number {
    const c = [this.starts, this.lengths, this.keys, this.flagBytes, this.streamIds];
    const spans = [this.contentFrom, this.contentAfter];
    return [...c, ...spans].reduce((n, a) => n + a.byteLength, 0);
  }

  push(
    start: number,
    length: number,
    key: number,
    flags: number,
    stream: number,
    contentFrom: number,
    contentAfter: number,
  ): void {
    if (this.used === this.limit && !this.fits(1)) this.grow();
    if (stream > 0xff && stream > widest(this.streamIds))
      this.streamIds = toHold(this.streamIds, stream);
    if (start > 0xffffffff && this.starts instanceof Uint32Array) this.widenStarts();
    if (length > 0xffff && this.lengths instanceof Uint16Array)
      this.lengths = widened(this.lengths, (n) => new Uint32Array(n));
    const k = this.used++;
    this.starts[k] = start;
    this.lengths[k] = length;
    this.keys[k] = key;
    this.flagBytes[k] = flags;
    this.streamIds[k] = stream;
    const known =
      contentFrom >= 0 && contentFrom < NO_SPAN && contentAfter >= 0 && contentAfter < NO_SPAN;
    let from = this.contentFrom;
    let after = this.contentAfter;
    if (known && contentFrom >= 0xff && from instanceof Uint8Array)
      from = this.contentFrom = wideSpan(from);
    if (known && contentAfter >= 0xff && after instanceof Uint8Array)
      after = this.contentAfter = wideSpan(after);
    from[k] = known ? contentFrom : noSpan(from);
    after[k] = known ? contentAfter : noSpan(after);
  }

  /** A start past 4 GiB: the starts column takes eight bytes a line from now on. */
  private widenStarts(): void {
    const wide = new Float64Array(this.starts.length);
    wide.set(this.starts);
    this.starts = wide;
  }

  /** Whether `n` more lines fit in the slots it has, or (a window) the ones it is given. */
  private fits(n: number): boolean {
    while (this.more && this.used + n > this.limit) {
      const was = this.limit;
      this.limit = Math.min(this.starts.length, this.more(was));
      if (this.limit <= was) break;
    }
    return this.used + n <= this.limit;
  }

  private grow(): void {
    this.compact(Math.max(16, Math.ceil(this.size() * 1.5) + 16));
  }

  /** The lines held moved to the front of new columns of `capacity` slots. */
  private compact(capacity: number): void {
    const live = this.size();
    const move = <T extends Column>(from: T): T => {
      const to = like(from, capacity);
      to.set(from.subarray(this.head, this.used));
      return to;
    };
    this.starts = move(this.starts);
    this.lengths = move(this.lengths);
    this.keys = move(this.keys);
    this.flagBytes = move(this.flagBytes);
    this.streamIds = move(this.streamIds);
    this.contentFrom = move(this.contentFrom);
    this.contentAfter = move(this.contentAfter);
    this.used = live;
    this.head = 0;
    this.limit = this.starts.length;
    this.more = undefined;
  }

  /** Whether `c` are this index's own columns (as one thread sees them). */
  inColumns(c: LineColumns): boolean {
    return c.starts === this.starts;
  }

  /** The slot the next line goes in. */
  slotAfter(): number {
    return this.used;
  }

  /** The lines held moved to columns of their own, with room for `more` lines after them. */
  ownColumns(more: number): void {
    this.compact(this.size() + more);
  }

  /** Lets every line go, numbers starting again at 0; its columns kept for the next lines. */
  clear(): this {
    this.head = 0;
    this.used = 0;
    this.firstNumber = 0;
    return this;
  }

  /** Lets the `n` oldest lines go. */
  dropFront(n: number): void {
    const k = Math.min(n, this.size());
    this.head += k;
    this.firstNumber += k;
    if (this.size() === 0) {
      this.head = 0;
      this.used = 0;
    }
  }

  /** The slot of line `number`, or -1 when it is not held. */
  private slot(number: number): number {
    const k = number - this.firstNumber;
    return k >= 0 && k < this.size() ? this.head + k : -1;
  }

  has(number: number): boolean {
    return this.slot(number) >= 0;
  }

  start(number: number): number {
    return this.starts[this.head + number - this.firstNumber] as number;
  }

  length(number: number): number {
    return this.lengths[this.head + number - this.firstNumber] as number;
  }

  key(number: number): number {
    return this.keys[this.head + number - this.firstNumber] as number;
  }

  flags(number: number): number {
    return this.flagBytes[this.head + number - this.firstNumber] as number;
  }

  stream(number: number): number {
    return this.streamIds[this.head + number - this.firstNumber] as number;
  }

  /** Bytes before the content in the line (NO_SPAN: not known). */
  contentStart(number: number): number {
    const c = this.contentFrom;
    const v = c[this.head + number - this.firstNumber] as number;
    return v === noSpan(c) ? NO_SPAN : v;
  }

  /** Bytes after the content in the line (NO_SPAN: not known). */
  contentTail(number: number): number {
    const c = this.contentAfter;
    const v = c[this.head + number - this.firstNumber] as number;
    return v === noSpan(c) ? NO_SPAN : v;
  }

  /**
   * The keys, flags and streams of lines [number, number + count) into `keys`, `flags` and
   * `streams` from slot `at` (every line held).
   */
  copyRows(
    number: number,
    count: number,
    keys: Float64Array,
    flags: Uint8Array,
    streams: Uint32Array,
    at = 0,
  ): void {
    const k = this.head + number - this.firstNumber;
    keys.set(this.keys.subarray(k, k + count), at);
    flags.set(this.flagBytes.subarray(k, k + count), at);
    streams.set(this.streamIds.subarray(k, k + count), at);
  }

  setKey(number: number, key: number): void {
    this.keys[this.head + number - this.firstNumber] = key;
  }

  /** The number of the line starting at byte `offset`, or -1 (starts grow with the number). */
  numberAt(offset: number): number {
    let lo = this.head;
    let hi = this.used - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.starts[mid] as number;
      if (s === offset) return mid - this.head + this.firstNumber;
      if (s < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
