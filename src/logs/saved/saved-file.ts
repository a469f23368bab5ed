/**
 * One saved log being read: its bytes (a file read by position, or a stream's bytes held), its
 * format (told from its first lines), the `tvcwatch` header if it has one, and the index of its
 * lines (./line-index.ts).
 *
 * A large file shows its end first: `startFile` indexes only its last TAIL_BYTES (the newest
 * screen and more), and `indexRest` indexes everything before them in pieces, letting the caller
 * breathe between pieces, then puts the tail back behind it. A file still being written, or a
 * stream, is read further with `readMore` and `push`; a partial last line waits for its newline.
 *
 * Keys: a line's own time, or (a line without one) the key of the line before it in the file, so
 * that it keeps its place; lines before the first timed one take that one's. Lines older than one
 * before them are marked late, and the file is then not sorted (its reader sorts it).
 */

import type { ByteSource, FileBytes, HeldBytes } from "./byte-source.js";
import {
  ESCAPED,
  IS_GAP,
  LATE,
  LEVEL_MASK,
  LineIndex,
  NO_SPAN,
  TIMED,
  UNREADABLE,
} from "./line-index.js";
import type { SavedHeader } from "./saved-header.js";
import {
  detectFormat,
  GAP,
  HEADER,
  type LineScan,
  newLineScan,
  type SavedFormat,
  SKIP,
  scanLine,
} from "./saved-line.js";
import { NO_STREAM, type StreamTable } from "./stream-table.js";

export interface SavedLimits {
  /** Lines a file keeps at most; the oldest go first. */
  maxLines: number;
  /** Bytes a stream's source holds at most; the oldest lines go first. */
  maxHeldBytes: number;
}

export const DEFAULT_LIMITS: SavedLimits = {
  maxLines: 10_000_000,
  maxHeldBytes: 512 * 1024 * 1024,
};

/** A longer line is kept as its first MAX_LINE_BYTES, as text, and counted as unreadable. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** How much of a large file is indexed first: its newest lines. */
export const TAIL_BYTES = 1024 * 1024;
/** How much of a file's start tells its format. */
const SAMPLE_BYTES = 64 * 1024;
/** What one piece of indexing reads. */
const PIECE_BYTES = 4 * 1024 * 1024;

/** Indexes lines in file order into one LineIndex: keys, late lines, the header, counts. */
class Indexer {
  readonly index: LineIndex;
  header: SavedHeader | undefined;
  unreadable = 0;
  sorted = true;
  /** Counts the times keys of lines already indexed changed (the first timed line's came). */
  revision = 0;
  /** The oldest and newest time of a line. */
  minTime = Number.POSITIVE_INFINITY;
  maxTime = Number.NEGATIVE_INFINITY;
  private prevKey = 0;
  private hasKey = false;
  private maxKey = Number.NEGATIVE_INFINITY;
  /** Lines at the start without a time, waiting for the first timed line's key. */
  private pending = 0;
  private readonly scan: LineScan = newLineScan();

  constructor(
    private readonly format: SavedFormat,
    private readonly streams: StreamTable,
    private readonly maxLines: number,
    capacity: number,
  ) {
    this.index = new LineIndex(capacity);
  }

  /** The line in bytes [s, e) of `buffer`, starting at byte `offset` of the file. */
  line(buffer: Buffer, s: number, e: number, offset: number): void {
    if (e > s && buffer[e - 1] === 0x0d) e--;
    const scan = this.scan;
    scanLine(buffer, s, e, this.format, this.streams, scan);
    if (scan.what === SKIP) return;
    if (scan.what === HEADER) {
      this.header ??= scan.header;
      return;
    }
    this.add(
      offset,
      e - s,
      scan.what === GAP,
      scan.timed,
      scan.key,
      scan.level | (scan.readable ? 0 : UNREADABLE) | (scan.contentEscaped ? ESCAPED : 0),
      scan.stream,
      scan.contentFrom,
      scan.contentAfter,
    );
  }

  /** A line longer than MAX_LINE_BYTES: its start, as text. */
  cut(offset: number): void {
    this.add(offset, MAX_LINE_BYTES, false, false, 0, UNREADABLE, NO_STREAM, 0, 0);
  }

  /**
   * A line: `flags` holds its level, UNREADABLE and ESCAPED; the rest (timed, gap, late) is
   * worked out here.
   */
  add(
    start: number,
    length: number,
    gap: boolean,
    timed: boolean,
    key: number,
    flags: number,
    stream: number,
    contentFrom: number,
    contentAfter: number,
  ): void {
    const readable = (flags & UNREADABLE) === 0;
    flags = flags & (LEVEL_MASK | UNREADABLE | ESCAPED);
    if (gap) flags |= IS_GAP;
    if (timed) {
      flags |= TIMED;
      if (key < this.maxKey) {
        this.sorted = false;
        if (!gap) flags |= LATE;
      } else {
        this.maxKey = key;
      }
      if (!gap) {
        if (key < this.minTime) this.minTime = key;
        if (key > this.maxTime) this.maxTime = key;
      }
      if (this.pending > 0) {
        const next = this.index.next();
        for (let n = Math.max(this.index.first(), next - this.pending); n < next; n++)
          this.index.setKey(n, key);
        this.pending = 0;
        this.revision++;
      }
      this.prevKey = key;
      this.hasKey = true;
    } else if (this.hasKey) {
      key = this.prevKey;
    } else {
      key = 0;
      this.pending++;
    }
    if (!readable) this.unreadable++;
    this.index.push(start, length, key, flags, stream, contentFrom, contentAfter);
    if (this.index.size() > this.maxLines) {
      this.index.dropFront(this.index.size() - this.maxLines + Math.ceil(this.maxLines / 16));
    }
  }

  /** Adds the lines of another index (the tail indexed first) after these, as if read now. */
  replay(other: LineIndex): void {
    for (let n = other.first(); n < other.next(); n++) {
      const f = other.flags(n);
      const timed = (f & TIMED) !== 0;
      const from = other.contentStart(n);
      const after = other.contentTail(n);
      this.add(
        other.start(n),
        other.length(n),
        (f & IS_GAP) !== 0,
        timed,
        timed ? other.key(n) : 0,
        f,
        other.stream(n),
        from === NO_SPAN ? -1 : from,
        after === NO_SPAN ? -1 : after,
      );
    }
  }
}

export type SavedFileState = "tail" | "complete";

export class SavedFile {
  format: SavedFormat | undefined;
  /** Said about this file: its lines cut short, its end reached, lines let go. */
  readonly notes: string[] = [];
  /** The other names it was given (the same device and inode): it is read once. */
  aliases: readonly string[] = [];
  private indexer: Indexer | undefined;
  /** Where the tail indexed first starts, while the rest is not indexed. */
  private tailFrom: number | undefined;
  /** The next byte to index. */
  private next = 0;
  /** After a line cut at MAX_LINE_BYTES: its rest is passed over up to the newline. */
  private skipping = false;
  private ended = false;
  /** Bytes before the tail indexed so far (while `state` is "tail"). */
  private restIndexed = 0;

  private constructor(
    readonly name: string,
    readonly source: ByteSource,
    private readonly held: HeldBytes | undefined,
    private readonly streams: StreamTable,
    private readonly limits: SavedLimits,
  ) {}

  /** A regular file, read by position. */
  static ofFile(
    name: string,
    source: FileBytes,
    streams: StreamTable,
    limits = DEFAULT_LIMITS,
  ): SavedFile {
    return new SavedFile(name, source, undefined, streams, limits);
  }

  /** A stream (standard input, a FIFO, a decompressed file): its bytes held as they come. */
  static ofStream(
    name: string,
    held: HeldBytes,
    streams: StreamTable,
    limits = DEFAULT_LIMITS,
  ): SavedFile {
    return new SavedFile(name, held, held, streams, limits);
  }

  /** The lines indexed (only the tail's while `state` is "tail"). */
  get index(): LineIndex {
    return (this.indexer as Indexer | undefined)?.index ?? EMPTY;
  }

  get header(): SavedHeader | undefined {
    return this.indexer?.header;
  }

  get unreadable(): number {
    return this.indexer?.unreadable ?? 0;
  }

  /** Whether every line's key is at least the one's before it. */
  get sorted(): boolean {
    return this.indexer?.sorted ?? true;
  }

  /** Counts the changes to keys already indexed (the order is then made again). */
  get revision(): number {
    return this.indexer?.revision ?? 0;
  }

  /** The oldest and newest time of a line, when any line has one. */
  timeRange(): { from: number; to: number } | undefined {
    const ix = this.indexer;
    return ix && ix.minTime <= ix.maxTime ? { from: ix.minTime, to: ix.maxTime } : undefined;
  }

  get state(): SavedFileState {
    return this.tailFrom === undefined ? "complete" : "tail";
  }

  /** Bytes indexed so far, and the source's end. */
  progress(): { indexed: number; total: number } {
    const total = this.source.end();
    return {
      indexed: this.tailFrom === undefined ? this.next : total - this.tailFrom + this.restIndexed,
      total,
    };
  }

  /** Whether the stream has ended (or the file is read to its end without following). */
  get done(): boolean {
    return this.ended;
  }

  private newIndexer(format: SavedFormat, capacity: number): Indexer {
    const max = this.limits.maxLines;
    return new Indexer(format, this.streams, max, Math.min(capacity, max + max / 16 + 16));
  }

  /**
   * A regular file: its format from its first bytes; then all of it when small, or its last
   * TAIL_BYTES (from the first line starting in them) when large: `indexRest` does the rest.
   */
  startFile(): void {
    const size = this.source.end();
    const sample = this.source.read(0, Math.min(size, SAMPLE_BYTES)).toString("utf8");
    const sampleLines = sample.split("\n");
    if (sample.length === SAMPLE_BYTES && sampleLines.length > 1) sampleLines.pop();
    const format = detectFormat(sampleLines);
    this.format = format;
    if (size <= TAIL_BYTES * 2) {
      this.indexer = this.newIndexer(format, estimateLines(sample, size));
      this.next = this.ingest(this.indexer, 0, size, false);
      return;
    }
    // The header (first line) of a saved view, read now: its filters apply from the first screen.
    const head = this.newIndexer(format, 16);
    const firstLineEnd = sample.indexOf("\n");
    if (firstLineEnd > 0) head.line(Buffer.from(sample.slice(0, firstLineEnd)), 0, firstLineEnd, 0);
    let from = size - TAIL_BYTES;
    const probe = this.source.read(from - 1, Math.min(size, from - 1 + MAX_LINE_BYTES));
    const nl = probe.indexOf(10);
    from = nl < 0 ? size : from + nl;
    this.tailFrom = from;
    // Uncapped: the tail is small, and its lines are all added again behind the rest (where the
    // cap applies).
    this.indexer = new Indexer(
      format,
      this.streams,
      Number.POSITIVE_INFINITY,
      estimateLines(sample, size - from),
    );
    this.indexer.header = head.header;
    this.next = this.ingest(this.indexer, from, size, false);
  }

  /**
   * Indexes what comes before the tail, a piece at a time (`pause` between pieces), then the
   * tail again behind it. Afterwards the index holds the whole file.
   */
  async indexRest(pause: () => Promise<void>): Promise<void> {
    const tailFrom = this.tailFrom;
    const tail = this.indexer;
    if (tailFrom === undefined || !tail || !this.format) return;
    const sample = this.source.read(0, Math.min(tailFrom, SAMPLE_BYTES)).toString("utf8");
    const whole = this.newIndexer(this.format, estimateLines(sample, this.source.end()));
    let pos = 0;
    while (pos < tailFrom) {
      const before = pos;
      pos = this.ingest(whole, pos, Math.min(tailFrom, pos + PIECE_BYTES), false);
      if (pos === before) break;
      this.restIndexed = pos;
      await pause();
    }
    whole.replay(tail.index);
    this.indexer = whole;
    this.tailFrom = undefined;
    if (this.ended) this.next = this.ingest(whole, this.next, this.source.end(), true);
  }

  /**
   * A file: what was added since (a file still being written). Returns false when it got
   * shorter (cut or replaced): its lines stay as they were, and nothing more is read.
   */
  readMore(): boolean {
    const source = this.source as FileBytes;
    if (this.ended || this.tailFrom !== undefined || !this.indexer) return true;
    const size = source.refresh();
    if (size < this.next) {
      this.notes.push(`${this.name} got shorter (cut or replaced): no longer followed`);
      this.ended = true;
      return false;
    }
    this.next = this.ingest(this.indexer, this.next, size, false);
    return true;
  }

  /** A stream: bytes that came. */
  push(chunk: Buffer): void {
    const held = this.held as HeldBytes;
    held.append(chunk);
    if (!this.indexer && !this.detectStream(false)) return;
    this.next = this.ingest(this.indexer as Indexer, this.next, held.end(), false);
    this.capHeld();
  }

  /** The stream ended (or a file is no longer followed): a last line without newline counts. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.held && !this.indexer) this.detectStream(true);
    if (!this.indexer || this.tailFrom !== undefined) return;
    this.next = this.ingest(this.indexer, this.next, this.source.end(), true);
    this.capHeld();
  }

  /** A stream's format from the complete lines it brought; false while none came. */
  private detectStream(final: boolean): boolean {
    const bytes = this.source.read(this.source.begin(), Math.min(this.source.end(), SAMPLE_BYTES));
    const text = bytes.toString("utf8");
    const lines = text.split("\n");
    if (!final) lines.pop();
    if (!lines.some((l) => l.trim() !== "") && !final) return false;
    this.format = detectFormat(lines);
    this.indexer = this.newIndexer(this.format, 1024);
    return true;
  }

  /** A stream over its byte cap lets its oldest lines go (an eighth more, at once). */
  private capHeld(): void {
    const held = this.held;
    if (!held || held.held() <= this.limits.maxHeldBytes) return;
    const keepFrom = held.end() - Math.floor((this.limits.maxHeldBytes * 7) / 8);
    const index = this.index;
    let n = index.first();
    while (n < index.next() && index.start(n) < keepFrom) n++;
    index.dropFront(n - index.first());
    held.dropBefore(n < index.next() ? index.start(n) : this.next);
  }

  /**
   * Indexes the lines that start in bytes [from, to) and end by `to`; returns where the next line
   * starts (a partial line at the end waits for its newline, unless `final`).
   */
  private ingest(ix: Indexer, from: number, to: number, final: boolean): number {
    let pos = from;
    while (pos < to) {
      const chunk = this.source.read(pos, Math.min(to, pos + PIECE_BYTES));
      if (chunk.length === 0) break;
      let s = 0;
      if (this.skipping) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          pos += chunk.length;
          continue;
        }
        this.skipping = false;
        s = nl + 1;
      }
      for (;;) {
        const nl = chunk.indexOf(10, s);
        if (nl < 0) break;
        ix.line(chunk, s, nl, pos + s);
        s = nl + 1;
      }
      if (s < chunk.length) {
        if (chunk.length - s >= MAX_LINE_BYTES) {
          ix.cut(pos + s);
          this.skipping = true;
          pos += s + MAX_LINE_BYTES;
          continue;
        }
        if (pos + chunk.length >= to) {
          if (final) {
            ix.line(chunk, s, chunk.length, pos + s);
            s = chunk.length;
          }
          return pos + s;
        }
      }
      pos += s;
    }
    return pos;
  }

  /** The text of line `number` (as many bytes as it has, at most MAX_LINE_BYTES). */
  text(number: number): string {
    const index = this.index;
    const start = index.start(number);
    return this.source.read(start, start + index.length(number)).toString("utf8");
  }

  /** Whether the line's bytes are still there (a stream lets its oldest go). */
  holds(number: number): boolean {
    return this.index.has(number) && this.index.start(number) >= this.source.begin();
  }
}

const EMPTY = new LineIndex(16);

/** How many lines `bytes` may hold, from a sample's average line (for the index's first size). */
function estimateLines(sample: string, bytes: number): number {
  const lines = Math.max(1, sample.split("\n").length - 1);
  const average = Math.max(16, Buffer.byteLength(sample) / lines);
  return Math.min(50_000_000, Math.ceil((bytes / average) * 1.1) + 16);
}
