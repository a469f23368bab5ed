/**
 * One saved log being read: its bytes (a file read by position, or a stream's bytes held), its
 * format (told from its first lines), the `tvcwatch` header if it has one, and the index of its
 * lines (./line-index.ts).
 *
 * A large file shows its end first: `startFile` indexes only its last TAIL_BYTES (the newest
 * screen and more), and `indexRest` indexes everything before them in pieces, letting the caller
 * breathe between pieces, then puts the tail back behind it. A file still being written, or a
 * stream, is read further with `readMore` and `push`; a partial last line waits for its newline.
 * A followed file that changed in place (`changedInPlace`: shorter, or its bytes before the point
 * read rewritten) lets its lines go (`forget`); its `successor` reads the file again.
 *
 * Keys: a line's own time, or (a line without one) the key of the line before it in the file, so
 * that it keeps its place; lines before the first timed one take that one's. Lines older than one
 * before them are marked late, and the file is then not sorted (its reader sorts it).
 */

import { formatByteSize } from "../../text/byte-size.js";
import { grouped } from "../../text/grouped-number.js";
import { type ByteSource, type FileBytes, type HeldBytes, READ_BYTES } from "./byte-source.js";
import { FormatVote, SAMPLE_LINES } from "./format-vote.js";
import { JsonLineWalker } from "./json-line-walker.js";
import {
  ESCAPED,
  IS_GAP,
  LATE,
  LEVEL_MASK,
  LineIndex,
  NO_SPAN,
  sameWidths,
  TIMED,
  UNREADABLE,
} from "./line-index.js";
import {
  copiedIntoShared,
  type IndexedPiece,
  newSharedIndex,
  type PieceFacts,
  type PieceRequest,
  type PieceRunner,
  type SharedIndex,
  takeBack,
  takeFront,
} from "./piece-protocol.js";
import type { SavedHeader } from "./saved-header.js";
import {
  GAP,
  HEADER,
  type LineScan,
  newLineScan,
  type SavedFormat,
  SKIP,
  scanLine,
  TextReadCache,
} from "./saved-line.js";
import { NO_STREAM, StreamTable } from "./stream-table.js";

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
export const TAIL_BYTES = 320 * 1024;
/** How much of a file's start tells its format. */
const SAMPLE_BYTES = 64 * 1024;
/** What one piece of indexing reads (READ_BYTES at a time), between breaths. */
const PIECE_BYTES = 4 * 1024 * 1024;
/**
 * A rest at least this long is indexed on other threads too (./piece-index.ts). A shorter one
 * (about a million lines of tail's text, or less) is indexed on this thread alone: a worker's own
 * runtime, its start and its code compiled again there cost more memory and time than its share
 * of such a rest saves on two cores.
 */
const PARALLEL_BYTES = 128 * 1024 * 1024;
/**
 * The chunks the rest is cut in, shared by the readers (this thread's from the front, a worker's
 * from the back): about this long each.
 */
const CHUNK_BYTES = PIECE_BYTES;
/** What is read first to find the newline a chunk ends at (more when its line is longer). */
const PROBE_BYTES = 64 * 1024;
/** The slots of the shared columns the reader from the front takes at a time. */
const FRONT_SLOTS = 4096;

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
  /** What was read, whatever the caps let go since: what a header's claims are checked against. */
  readonly read: ReadFacts = {
    lines: 0,
    gaps: 0,
    perStream: [],
    first: Number.POSITIVE_INFINITY,
    last: Number.NEGATIVE_INFINITY,
  };
  private prevKey = 0;
  private hasKey = false;
  private maxKey = Number.NEGATIVE_INFINITY;
  /** Lines at the start without a time, waiting for the first timed line's key. */
  private pending = 0;
  private readonly scan: LineScan = newLineScan();
  /** Walks this file's NDJSON lines (one walker per reader). */
  private readonly walker = new JsonLineWalker();
  /** The labels of this file's tail text last met (one cache per reader). */
  private readonly labels = new TextReadCache();

  constructor(
    private readonly format: SavedFormat,
    private readonly streams: StreamTable,
    private readonly maxLines: number,
    capacity: number | LineIndex,
  ) {
    this.index = typeof capacity === "number" ? new LineIndex(capacity) : capacity;
  }

  /** What this reader counted, for the thread that puts the pieces together. */
  facts(notRead: NotRead): PieceFacts {
    const r = this.read;
    return {
      unreadable: this.unreadable,
      revision: this.revision,
      minTime: this.minTime,
      maxTime: this.maxTime,
      lines: r.lines,
      gaps: r.gaps,
      perStream: r.perStream,
      first: r.first,
      last: r.last,
      sorted: this.sorted,
      cut: notRead.cut,
      passedOver: notRead.passedOver,
    };
  }

  /**
   * Adds the lines of a piece of the file read on another thread after these, as if read now:
   * the keys of its lines before its first timed one, and which lines are late, made again
   * against the lines before it; its counts added. `streamOf`: its stream numbers as this log's.
   */
  appendPiece(piece: IndexedPiece, streamOf: Uint32Array): void {
    const ix = this.index;
    const first = ix.append(piece.columns, streamOf);
    const next = ix.next();
    let n = first;
    while (n < next && (ix.flags(n) & TIMED) === 0) n++;
    if (this.hasKey) {
      for (let k = first; k < n; k++) ix.setKey(k, this.prevKey);
    } else if (n === next) {
      this.pending += next - first;
    } else if (this.pending > 0) {
      const key = ix.key(n);
      for (let k = Math.max(ix.first(), first - this.pending); k < first; k++) ix.setKey(k, key);
      this.pending = 0;
      this.revision++;
    }
    const p = piece.facts;
    if (n < next && p.sorted && ix.key(n) >= this.maxKey) {
      // The piece in order and its first timed line no older than any before it: none of its
      // lines is late (the piece's reading marked none), the newest is its last timed one.
      this.maxKey = p.last;
      this.prevKey = p.last;
      this.hasKey = true;
      n = next;
    }
    for (let k = n; k < next; k++) {
      const f = ix.flags(k);
      if ((f & TIMED) === 0) continue;
      const key = ix.key(k);
      if (key < this.maxKey) {
        this.sorted = false;
        if ((f & IS_GAP) === 0) ix.setFlags(k, f | LATE);
      } else {
        this.maxKey = key;
        if ((f & LATE) !== 0) ix.setFlags(k, f & ~LATE);
      }
      this.prevKey = key;
      this.hasKey = true;
    }
    this.unreadable += p.unreadable;
    this.revision += p.revision;
    this.minTime = Math.min(this.minTime, p.minTime);
    this.maxTime = Math.max(this.maxTime, p.maxTime);
    const read = this.read;
    read.lines += p.lines;
    read.gaps += p.gaps;
    read.first = Math.min(read.first, p.first);
    read.last = Math.max(read.last, p.last);
    p.perStream.forEach((count, s) => {
      if (count === undefined) return;
      const mine = s < streamOf.length ? (streamOf[s] as number) : s;
      read.perStream[mine] = (read.perStream[mine] ?? 0) + count;
    });
    if (ix.size() > this.maxLines) {
      ix.dropFront(ix.size() - this.maxLines + Math.ceil(this.maxLines / 16));
    }
  }

  /** The line in bytes [s, e) of `buffer`, starting at byte `offset` of the file. */
  line(buffer: Buffer, s: number, e: number, offset: number): void {
    if (e > s && buffer[e - 1] === 0x0d) e--;
    const scan = this.scan;
    scanLine(buffer, s, e, this.format, this.streams, scan, this.walker, this.labels);
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
    const read = this.read;
    if (gap) read.gaps++;
    else {
      read.lines++;
      read.perStream[stream] = (read.perStream[stream] ?? 0) + 1;
    }
    if (timed) {
      if (key < read.first) read.first = key;
      if (key > read.last) read.last = key;
    }
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

/** Counts of what a file's reading met (never lowered by the caps). */
export interface ReadFacts {
  /** Log lines (every row but gap markers; lines not readable included). */
  lines: number;
  gaps: number;
  /** Lines by stream number (./stream-table.ts); holes for none. */
  perStream: number[];
  /** The oldest and newest key of a timed line or gap (epoch ms, fractional). */
  first: number;
  last: number;
}

/** What was not read of a file, line by line: what `i` says. */
export interface NotRead {
  /** Lines longer than MAX_LINE_BYTES: kept as their first MAX_LINE_BYTES, as text. */
  cut: number;
  /** Bytes of those lines past their first MAX_LINE_BYTES: passed over, never read. */
  passedOver: number;
}

/** The start of a file or stream read to tell its format: its first lines, as found. */
interface SampledLine {
  start: number;
  end: number;
  /** Longer than MAX_LINE_BYTES: cut. */
  cut: boolean;
}

/** How much of a file's start is read at most to tell its format. */
const DETECT_BYTES = 2 * MAX_LINE_BYTES;
/** The bytes before the point a followed file is read to, compared to find it rewritten. */
const PRINT_BYTES = 64;
/** A stream's first lines kept to index again (blank ones too) before its format is final. */
const MAX_SAMPLED = SAMPLE_LINES * 16;

export class SavedFile {
  format: SavedFormat | undefined;
  /** Said about this file: its lines cut short, its end reached, lines let go. */
  readonly notes: string[] = [];
  /** The other names it was given (the same device and inode): it is read once. */
  aliases: readonly string[] = [];
  private readonly notRead: NotRead = { cut: 0, passedOver: 0 };
  private cutSaid = false;
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
  /**
   * A stream whose format is not final yet: its first lines as met, and the vote on them. Once
   * SAMPLE_LINES are judged (or it ends), the verdict is final; when it is not the format the
   * lines were indexed with, they are indexed again.
   */
  private sampling: { vote: FormatVote; lines: SampledLine[] } | undefined;
  /** The final verdict differs from the format indexed with: index the first lines again. */
  private redo = false;
  /** What this file is among the ones its name named while followed ("the new file by that name"). */
  about: string | undefined;
  /** A followed file's size when last looked at, and the bytes just before the point read to. */
  private seenSize = 0;
  private print: Buffer | undefined;
  private forgotten = 0;
  /** Lines a regular file's format was told from (0: it had none, to be told again). */
  private judged = 0;
  /** The last line indexed at the end without a newline, when the last `end` met one. */
  private lastOpen: { bytes: number; unreadable: boolean } | undefined;

  private constructor(
    readonly name: string,
    readonly source: ByteSource,
    private readonly held: HeldBytes | undefined,
    private readonly streams: StreamTable,
    private readonly limits: SavedLimits,
  ) {
    if (held) this.sampling = { vote: new FormatVote(), lines: [] };
  }

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

  /** What its reading met, for checking its header's claims (undefined before any line). */
  get read(): Readonly<ReadFacts> | undefined {
    return this.indexer?.read;
  }

  /** What was not read: lines cut at their cap, and the bytes of them passed over. */
  get unread(): Readonly<NotRead> {
    return this.notRead;
  }

  /** Bytes of a stream held now (0 for a file: it is read by position). */
  get heldBytes(): number {
    return this.held?.held() ?? 0;
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
    // A file whose lines were let go (changed in place) has no time range left.
    if (!ix || this.forgotten > 0) return undefined;
    return ix.minTime <= ix.maxTime ? { from: ix.minTime, to: ix.maxTime } : undefined;
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
   * A regular file: its format from its first lines; then all of it when small, or its last
   * TAIL_BYTES (from the first line starting in them) when large: `indexRest` does the rest.
   */
  startFile(): void {
    const size = this.source.end();
    const sample = sampleFile(this.source, size);
    const format = sample.vote.verdict();
    this.format = format;
    this.judged = sample.vote.lines;
    if (size <= TAIL_BYTES * 2) {
      this.indexer = this.newIndexer(format, estimateLines(sample, size));
      this.next = this.ingest(this.indexer, 0, size, false);
      this.markRead();
      return;
    }
    // The header (first line) of a saved view, read now: its filters apply from the first screen.
    const head = this.newIndexer(format, 16);
    const first = sample.lines[0];
    if (first && !first.cut && first.end > first.start) {
      const bytes = this.source.read(first.start, first.end);
      head.line(bytes, 0, bytes.length, first.start);
    }
    let from = size - TAIL_BYTES;
    const nl = this.newlineIn(from - 1, Math.min(size, from - 1 + MAX_LINE_BYTES));
    from = nl < 0 ? size : nl + 1;
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
   * Indexes what comes before the tail, a piece at a time (`pause` between pieces), or (a large
   * rest, `pieces` given) in pieces on other threads, then the tail again behind it. Afterwards
   * the index holds the whole file.
   */
  async indexRest(
    pause: () => Promise<void>,
    pieces?: PieceRunner,
    /** The least a rest is that is indexed in pieces (tests give less). */
    parallelBytes = PARALLEL_BYTES,
    /** About how long the chunks shared by the pieces' readers are (tests give less). */
    chunkBytes = CHUNK_BYTES,
  ): Promise<void> {
    const tailFrom = this.tailFrom;
    const tail = this.indexer;
    if (tailFrom === undefined || !tail || !this.format) return;
    const sample = sampleFile(this.source, tailFrom);
    const capacity = estimateLines(sample, this.source.end());
    // What the tail's reading counted is counted again as the rest is read, the tail replayed.
    const tailUnread = { ...this.notRead };
    this.notRead.cut = 0;
    this.notRead.passedOver = 0;
    const skippingAfterTail = this.skipping;
    this.skipping = false;
    const inPieces =
      pieces && tailFrom >= parallelBytes
        ? await this.inPieces(pieces, tailFrom, capacity, pause, chunkBytes)
        : undefined;
    // Closed meanwhile: nothing more is read.
    if (pieces) await pause();
    let whole: Indexer;
    let pos = 0;
    if (inPieces) {
      ({ whole, pos } = inPieces);
    } else {
      whole = this.newIndexer(this.format, capacity);
      while (pos < tailFrom) {
        const before = pos;
        pos = this.ingest(whole, pos, Math.min(tailFrom, pos + PIECE_BYTES), false);
        if (pos === before) break;
        this.restIndexed = pos;
        await pause();
      }
    }
    whole.replay(tail.index);
    this.notRead.cut += tailUnread.cut;
    this.notRead.passedOver += tailUnread.passedOver;
    if (tail.index.size() === 0 && this.next === tailFrom) {
      // No line starts in the tail (one line longer than it): the rest's reading goes on.
      this.next = pos;
    } else {
      this.skipping = skippingAfterTail;
    }
    this.indexer = whole;
    this.tailFrom = undefined;
    this.markRead();
    if (this.ended) this.next = this.ingest(whole, this.next, this.source.end(), true);
  }

  /**
   * Bytes [0, tailFrom) indexed in chunks of `chunkBytes` shared by this thread's reader and other
   * threads' (`run`), each chunk's edges found by the reader that takes it (`chunkEdge`), then put
   * together in file order; undefined when they could not be (indexed here then).
   */
  private async inPieces(
    run: PieceRunner,
    tailFrom: number,
    capacity: number,
    pause: () => Promise<void>,
    chunkBytes: number,
  ): Promise<{ whole: Indexer; pos: number } | undefined> {
    const format = this.format as SavedFormat;
    const source = this.source as FileBytes;
    // Cut without reading: each chunk's reader finds its edges (chunkEdge), none of it read
    // before the first screen.
    const requests: PieceRequest[] = [];
    for (let from = 0; from < tailFrom; from += chunkBytes) {
      const to = Math.min(tailFrom, from + chunkBytes);
      requests.push({
        fd: source.fd,
        size: source.end(),
        name: this.name,
        format,
        from,
        to,
        end: tailFrom,
        // The first chunk's columns become the whole file's.
        capacity:
          from === 0 ? capacity : Math.ceil(((capacity * (to - from)) / tailFrom) * 1.2) + 16,
        maxLines: this.limits.maxLines,
        maxHeldBytes: this.limits.maxHeldBytes,
      });
    }
    let done: IndexedPiece[];
    try {
      done = await run(
        requests,
        (bytes) => {
          this.restIndexed = bytes;
        },
        pause,
        // The whole file's columns: each reader's lines go in them, put together there in place.
        newSharedIndex(capacity),
      );
    } catch {
      return undefined;
    }
    const firstColumns = (done[0] as IndexedPiece).columns;
    const whole = new Indexer(
      format,
      this.streams,
      this.limits.maxLines,
      LineIndex.adopt({ ...firstColumns, size: 0 }),
    );
    for (let p = 0; p < done.length; p++) {
      const piece = done[p] as IndexedPiece;
      // A piece with columns of its own is copied after the lines so far: when that would write
      // over the slots of a piece still to be moved down the same columns, the lines move to
      // columns of their own first (room for all of them).
      const ix = whole.index;
      if (!ix.inColumns(piece.columns)) {
        const later = done.slice(p + 1);
        const next = later.find((q) => ix.inColumns(q.columns));
        if (next && ix.slotAfter() + piece.columns.size > next.columns.from)
          ix.ownColumns(later.reduce((n, q) => n + q.columns.size, piece.columns.size));
      }
      const streamOf = Uint32Array.from(piece.streams, (st, k) =>
        k === NO_STREAM ? NO_STREAM : this.streams.id(st.deploymentId, st.replicaLabel),
      );
      whole.appendPiece(piece, streamOf);
      this.notRead.cut += piece.facts.cut;
      this.notRead.passedOver += piece.facts.passedOver;
    }
    if (this.notRead.cut > 0) this.sayCut();
    return { whole, pos: (done.at(-1) as IndexedPiece).next };
  }

  /**
   * The lines of a chunk of a file (those starting in its share of the bytes, `chunkEdge`), read
   * as one reader of its own reads them (./piece-index.ts), at once: on another thread.
   */
  static indexPiece(
    source: FileBytes,
    request: PieceRequest,
    progress: (bytes: number) => void,
    /** Columns to index into (emptied first) instead of new ones. */
    into?: LineIndex,
  ): IndexedPiece {
    const steps = SavedFile.chunkSteps(source, [request], () => true, progress, undefined, into);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value.piece;
    }
  }

  /**
   * Chunks read from the first on, as one piece, a read at a time (`pause` before each read):
   * each taken first (`claim`), up to the first another reader has; how many it read.
   */
  static async indexChunksInSlices(
    source: FileBytes,
    chunks: readonly PieceRequest[],
    claim: (chunk: number) => boolean,
    progress: (bytes: number) => void,
    pause: () => Promise<void>,
    /** Where its lines go, from the first slot on, while there is room (else columns of its own). */
    shared?: SharedIndex,
  ): Promise<{ piece: IndexedPiece; chunks: number }> {
    const steps = SavedFile.chunkSteps(source, chunks, claim, progress, shared);
    for (;;) {
      await pause();
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * Chunks read from the last back, each as a piece of its own (a worker's part): each taken
   * first (`claim`), down to the first another reader has, the first chunk left to the reader of
   * the front; `done` hears each piece as it is read, `progress` the bytes of all of them. Each
   * piece's lines are moved into `shared`, just before the last piece's, when there is room.
   */
  static indexChunksFromBack(
    source: FileBytes,
    chunks: readonly PieceRequest[],
    claim: (chunk: number) => boolean,
    progress: (bytes: number) => void,
    done: (piece: IndexedPiece, chunk: number) => void,
    shared?: SharedIndex,
  ): void {
    let read = 0;
    // Each chunk read into the same columns once the last one's lines moved to the shared ones.
    let scratch: LineIndex | undefined;
    for (let k = chunks.length - 1; k >= 1 && claim(k); k--) {
      const chunk = chunks[k] as PieceRequest;
      if (shared) scratch ??= new LineIndex(chunk.capacity);
      const piece = SavedFile.indexPiece(source, chunk, (bytes) => progress(read + bytes), scratch);
      const moved = shared ? intoShared(piece, shared) : piece;
      // Not moved: its columns are handed over as they are.
      if (moved === piece) scratch = undefined;
      done(moved, k);
      read += chunk.to - chunk.from;
    }
  }

  /**
   * The reading of consecutive chunks as one piece, yielding after each read of PIECE_BYTES; a
   * chunk read only once `claim` took it, the reading ending at the first it did not. The piece
   * starts at the first chunk, with its capacity (none read: no line).
   */
  private static *chunkSteps(
    source: FileBytes,
    chunks: readonly PieceRequest[],
    claim: (chunk: number) => boolean,
    progress: (bytes: number) => void,
    shared?: SharedIndex,
    into?: LineIndex,
  ): Generator<void, { piece: IndexedPiece; chunks: number }> {
    const first = chunks[0] as PieceRequest;
    const streams = new StreamTable();
    const limits = { maxLines: first.maxLines, maxHeldBytes: first.maxHeldBytes };
    const file = new SavedFile(first.name, source, undefined, streams, limits);
    file.format = first.format;
    const ix = shared
      ? new Indexer(
          first.format,
          streams,
          first.maxLines,
          LineIndex.window(shared.columns, 0, (end) => takeFront(shared, end, FRONT_SLOTS)),
        )
      : into
        ? new Indexer(first.format, streams, first.maxLines, into.clear())
        : file.newIndexer(first.format, first.capacity);
    let pos = 0;
    let start = 0;
    let taken = 0;
    for (; taken < chunks.length && claim(taken); taken++) {
      const chunk = chunks[taken] as PieceRequest;
      // A chunk's lines start where the one's before it end (its reader found that edge too).
      if (taken === 0) {
        pos = file.chunkEdge(chunk.from, chunk);
        start = pos;
      }
      const to = file.chunkEdge(chunk.to, chunk);
      while (pos < to) {
        const before = pos;
        pos = file.ingest(ix, pos, Math.min(to, pos + PIECE_BYTES), false);
        if (pos === before) break;
        progress(pos - start);
        if (pos < to) yield;
      }
      // The next chunk read after a pause too; a file cut short meanwhile ends the reading.
      if (pos < to) {
        taken++;
        break;
      }
      if (taken + 1 < chunks.length) yield;
    }
    return {
      piece: {
        columns: ix.index.columns(),
        streams: [...streams.all()],
        facts: ix.facts(file.notRead),
        next: pos,
      },
      chunks: taken,
    };
  }

  /** A file: what was added since (a file still being written). */
  readMore(): void {
    const source = this.source as FileBytes;
    if (this.ended || this.tailFrom !== undefined || !this.indexer) return;
    const size = source.refresh();
    this.seenSize = size;
    if (size < this.next) return;
    if (this.judged === 0 && this.index.size() === 0 && size > this.next) {
      // Empty (or blank) when its format was told: told again from the lines it has now.
      const sample = sampleFile(source, size);
      if (sample.vote.lines > 0) {
        this.format = sample.vote.verdict();
        this.judged = sample.vote.lines;
        this.indexer = this.newIndexer(this.format, estimateLines(sample, size));
        this.next = 0;
        this.skipping = false;
      }
    }
    this.next = this.ingest(this.indexer, this.next, size, false);
    this.markRead();
  }

  /** Keeps the bytes just before the point read to, and the size (to find a change in place). */
  private markRead(): void {
    if (this.held) return;
    this.seenSize = this.source.end();
    this.print = Buffer.from(this.source.read(Math.max(0, this.next - PRINT_BYTES), this.next));
  }

  /**
   * A followed file changed in place (found by its size and its bytes, on the same inode):
   * `truncated` when shorter than what was read, `rewritten` when the bytes before the point read
   * to are no longer the ones read (it was truncated and written again past that point).
   */
  changedInPlace(): "truncated" | "rewritten" | undefined {
    if (this.ended || this.tailFrom !== undefined || !this.indexer) return undefined;
    const source = this.source as FileBytes;
    const size = source.refresh();
    if (size < this.next) return "truncated";
    const print = this.print;
    if (print === undefined) return undefined;
    return source.read(this.next - print.length, this.next).equals(print) ? undefined : "rewritten";
  }

  /**
   * A followed file changed in place: the bytes of its lines are gone, so every line read of it
   * is let go, and said (a partial last line seen, never indexed, said as torn). Nothing more is
   * read of it: its successor reads the file again from its start.
   */
  forget(change: "truncated" | "rewritten"): void {
    const size = (this.source as FileBytes).end();
    const lines = this.index.size();
    const pending = this.seenSize - this.next;
    const was =
      change === "truncated"
        ? `was truncated (${formatByteSize(size)}, less than the ${formatByteSize(this.seenSize)} read; the same file)`
        : `was rewritten in place (its bytes before ${formatByteSize(this.next)} changed; the same file)`;
    const torn =
      pending > 0 && !this.skipping
        ? `; its last line, without its newline (${formatByteSize(pending)}), was cut away with it (a torn line)`
        : "";
    this.notes.push(
      `${this.name} ${was}: the ${grouped(lines)} ${lines === 1 ? "line" : "lines"} read before are let go, it is read again from its start${torn}`,
    );
    this.index.dropFront(lines);
    this.forgotten = lines;
    this.about = `before it was ${change === "truncated" ? "truncated" : "rewritten"}: its ${grouped(lines)} ${lines === 1 ? "line" : "lines"} let go`;
    this.ended = true;
  }

  /** Lines let go because the file changed in place (not by the cap). */
  get forgottenLines(): number {
    return this.forgotten;
  }

  /** A file read by the same means (its streams, its caps) from `source`: the next one by its name. */
  successor(source: FileBytes, about: string): SavedFile {
    const next = new SavedFile(this.name, source, undefined, this.streams, this.limits);
    next.about = about;
    next.aliases = this.aliases;
    return next;
  }

  /**
   * A followed file whose name now names another: read to its end (its last line even without a
   * newline, said as torn when it has none), then no longer followed.
   */
  endReplaced(): void {
    this.readMore();
    this.end("replaced");
    this.about = "before it was replaced";
  }

  /**
   * A stream: bytes that came. The rest of a line cut at its cap is passed over as it comes,
   * never held; a partial line waits (held) for its newline, up to the cap.
   */
  push(chunk: Buffer): void {
    const held = this.held as HeldBytes;
    if (this.skipping) {
      const nl = chunk.indexOf(10);
      const passed = nl < 0 ? chunk.length : nl;
      this.notRead.passedOver += passed;
      // Through the newline that ends the cut line.
      const over = nl < 0 ? chunk.length : nl + 1;
      held.skip(over);
      this.next = held.end();
      if (nl < 0) return;
      this.skipping = false;
      chunk = chunk.subarray(over);
    }
    held.append(chunk);
    // A line still coming, under its cap: nothing to index yet.
    if (chunk.indexOf(10) < 0 && held.end() - this.next < MAX_LINE_BYTES) return;
    this.indexStream(false);
  }

  /**
   * The stream ended (or a file is no longer followed): a last line without newline counts, and
   * is said as torn when it could not be read (or, `replaced`, whatever it reads as).
   */
  end(cause?: "replaced"): void {
    if (this.ended) return;
    this.ended = true;
    this.lastOpen = undefined;
    if (this.held) this.indexStream(true);
    else if (this.indexer && this.tailFrom === undefined)
      this.next = this.ingest(this.indexer, this.next, this.source.end(), true);
    const open = this.lastOpen as { bytes: number; unreadable: boolean } | undefined;
    if (open && (open.unreadable || cause === "replaced"))
      this.notes.push(
        `${this.name}${cause === "replaced" ? " was replaced" : " ended"} in the middle of a line: its last line (${formatByteSize(open.bytes)}, without its newline) is a torn line, shown ${open.unreadable ? "as text" : "as it was"}`,
      );
  }

  /**
   * Indexes what a stream brought: at first with the format its first lines held tell, then (once
   * the vote on them is final, and says another format) all of it again with the final one.
   */
  private indexStream(final: boolean): void {
    if (!this.indexer) {
      const format = this.firstLinesFormat(final);
      if (format === undefined) return;
      this.format = format;
      this.indexer = this.newIndexer(format, 1024);
    }
    for (;;) {
      this.next = this.ingest(this.indexer as Indexer, this.next, this.source.end(), final);
      if (final && this.sampling) this.settle();
      if (!this.redo) break;
      this.indexAgain();
    }
    this.capHeld();
  }

  /**
   * The format the complete lines a stream holds so far tell (to index them with until its vote is
   * final); undefined while it holds none (and no line over the cap).
   */
  private firstLinesFormat(final: boolean): SavedFormat | undefined {
    const held = this.held as HeldBytes;
    const vote = new FormatVote();
    let s = this.next;
    let found = false;
    while (s < held.end() && !vote.full) {
      const bytes = held.read(s, Math.min(held.end(), s + MAX_LINE_BYTES + 1));
      let nl = bytes.indexOf(10);
      if (nl < 0) {
        if (bytes.length > MAX_LINE_BYTES) found = true;
        if (!final || bytes.length > MAX_LINE_BYTES) break;
        nl = bytes.length;
      }
      if (nl > 0 || final) found = true;
      vote.add(bytes.toString("utf8", 0, nl));
      s += nl + 1;
    }
    return found ? vote.verdict() : undefined;
  }

  /** A line met while a stream's format is not final: kept, and judged. */
  private sampled(start: number, end: number, cut: boolean, buffer: Buffer, s: number): void {
    const sampling = this.sampling;
    if (!sampling) return;
    sampling.lines.push({ start, end, cut });
    if (!cut) sampling.vote.add(buffer.toString("utf8", s, s + (end - start)));
    if (sampling.vote.full || sampling.lines.length >= MAX_SAMPLED) this.settle();
  }

  /** A stream's vote is final: its lines are indexed again when it says another format. */
  private settle(): void {
    const sampling = this.sampling;
    if (!sampling) return;
    const verdict = sampling.vote.verdict();
    const first = sampling.lines[0];
    if (verdict !== this.format && first && first.start >= this.source.begin()) {
      this.redo = true;
      return;
    }
    this.sampling = undefined;
  }

  /** Indexes a stream's first lines again with the final format; what follows is read after. */
  private indexAgain(): void {
    const sampling = this.sampling as NonNullable<SavedFile["sampling"]>;
    const format = sampling.vote.verdict();
    this.sampling = undefined;
    this.redo = false;
    this.format = format;
    const ix = this.newIndexer(format, 1024);
    for (const l of sampling.lines) {
      if (l.cut) {
        ix.cut(l.start);
        continue;
      }
      const bytes = this.source.read(l.start, l.end);
      ix.line(bytes, 0, bytes.length, l.start);
    }
    this.indexer = ix;
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

  /** A line cut at MAX_LINE_BYTES: counted, and said the first time. */
  private cutAt(ix: Indexer, offset: number): void {
    ix.cut(offset);
    this.notRead.cut++;
    this.sayCut();
  }

  /** Said the first time a line is cut at MAX_LINE_BYTES. */
  private sayCut(): void {
    if (this.cutSaid) return;
    this.cutSaid = true;
    this.notes.push(
      `${this.name}: a line longer than ${formatByteSize(MAX_LINE_BYTES)}: its first ${formatByteSize(MAX_LINE_BYTES)} kept, the rest of it not read (i counts every such line)`,
    );
  }

  /**
   * Where the lines of a chunk's share of the rest start from `at` (its `from`, or its `to`: the
   * next one's): just after the first newline from `at - 1`, looked for in the first PROBE_BYTES
   * and then (a long line) up to MAX_LINE_BYTES; found none, where the next share's start (the
   * chunk holds no line; the line it is in belongs to the chunk before). 0 and the rest's end are
   * edges as they are. Every reader finds the same edge at the same `at`: the chunks cover the
   * rest once, each line in one.
   */
  private chunkEdge(at: number, chunk: PieceRequest): number {
    const end = chunk.end;
    // Every share but the last is as long as this chunk's: the next edge is that much further
    // (this one the last, the rest's end).
    const step = chunk.to - chunk.from;
    for (; at > 0 && at < end; at += step) {
      const probed = Math.min(end, at - 1 + PROBE_BYTES);
      let nl = this.newlineIn(at - 1, probed);
      if (nl < 0) nl = this.newlineIn(probed, Math.min(end, at - 1 + MAX_LINE_BYTES));
      if (nl >= 0) return nl + 1;
    }
    return at <= 0 ? 0 : end;
  }

  /** The offset of the first newline in bytes [start, end), or -1; read READ_BYTES at a time. */
  private newlineIn(start: number, end: number): number {
    for (let at = start; at < end; ) {
      const bytes = this.source.read(at, Math.min(end, at + READ_BYTES));
      if (bytes.length === 0) break;
      const nl = bytes.indexOf(10);
      if (nl >= 0) return at + nl;
      at += bytes.length;
    }
    return -1;
  }

  /**
   * Indexes the lines that start in bytes [from, to) and end by `to`; returns where the next line
   * starts (a partial line at the end waits for its newline, unless `final`). While a stream's
   * format is not final, each line is also judged; it stops at the line that makes the verdict
   * final when that verdict is another format (`redo`). Reads READ_BYTES at a time (a buffer
   * reused: nothing of the file is held), or MAX_LINE_BYTES for a line longer than that.
   */
  private ingest(ix: Indexer, from: number, to: number, final: boolean): number {
    let pos = from;
    let want = READ_BYTES;
    while (pos < to) {
      const chunk = this.source.read(pos, Math.min(to, pos + want));
      if (chunk.length === 0) break;
      let s = 0;
      if (this.skipping) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          this.notRead.passedOver += chunk.length;
          pos += chunk.length;
          continue;
        }
        this.notRead.passedOver += nl;
        this.skipping = false;
        s = nl + 1;
      }
      for (;;) {
        const nl = chunk.indexOf(10, s);
        if (nl < 0) break;
        // (A read holds at most MAX_LINE_BYTES: a line whole in it is under the cap.)
        if (this.sampling) this.sampled(pos + s, pos + nl, false, chunk, s);
        ix.line(chunk, s, nl, pos + s);
        s = nl + 1;
        if (this.redo) return pos + s;
      }
      if (s < chunk.length) {
        if (chunk.length - s >= MAX_LINE_BYTES) {
          if (this.sampling) this.sampled(pos + s, pos + s + MAX_LINE_BYTES, true, chunk, s);
          this.cutAt(ix, pos + s);
          this.skipping = true;
          pos += s + MAX_LINE_BYTES;
          want = READ_BYTES;
          if (this.redo) return pos;
          continue;
        }
        if (pos + chunk.length >= to) {
          if (final) {
            if (this.sampling) this.sampled(pos + s, pos + chunk.length, false, chunk, s);
            const before = ix.unreadable;
            ix.line(chunk, s, chunk.length, pos + s);
            this.lastOpen = { bytes: chunk.length - s, unreadable: ix.unreadable > before };
            s = chunk.length;
          }
          return pos + s;
        }
        if (s === 0) {
          // A line longer than the read: read again from its start, as much as its cap (the
          // source had no more: it was cut short meanwhile).
          if (want >= MAX_LINE_BYTES) return pos;
          want = MAX_LINE_BYTES;
          continue;
        }
      }
      pos += s;
      want = READ_BYTES;
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

/**
 * A piece read on its own (a chunk from the back) moved into the shared columns, just before the
 * slots taken there so far; as it is when there is no room, or a column of it is wider than theirs
 * (a value of it needed more bytes).
 */
function intoShared(piece: IndexedPiece, shared: SharedIndex): IndexedPiece {
  const c = piece.columns;
  if (c.size === 0 || !sameWidths(c, shared.columns)) return piece;
  const at = takeBack(shared, c.size);
  return at < 0 ? piece : copiedIntoShared(piece, shared, at);
}

/** A file's first lines, read to tell its format (at most SAMPLE_LINES, DETECT_BYTES). */
interface FileSample {
  vote: FormatVote;
  lines: SampledLine[];
  /** Bytes of the lines found, and how many. */
  bytes: number;
}

/**
 * The first lines of a file up to `size`: its first SAMPLE_BYTES, or (lines longer than that)
 * up to DETECT_BYTES; a line longer than MAX_LINE_BYTES is not judged (it is cut).
 */
function sampleFile(source: ByteSource, size: number): FileSample {
  let bytes = source.read(0, Math.min(size, SAMPLE_BYTES));
  const lines: SampledLine[] = [];
  let vote = new FormatVote();
  const scan = (): void => {
    lines.length = 0;
    let s = 0;
    while (s < bytes.length && !vote.full) {
      let nl = bytes.indexOf(10, s);
      // The last line of the file (no newline), or one this read did not reach the end of.
      if (nl < 0) {
        if (bytes.length < size) break;
        nl = bytes.length;
      }
      const cut = nl - s > MAX_LINE_BYTES;
      lines.push({ start: s, end: nl, cut });
      if (!cut) vote.add(bytes.toString("utf8", s, nl));
      s = nl + 1;
    }
  };
  scan();
  if (!vote.full && bytes.length < size && bytes.length < DETECT_BYTES) {
    // Long lines: read further (a copy: the source's buffer is reused by its next read).
    bytes = Buffer.from(source.read(0, Math.min(size, DETECT_BYTES)));
    vote = new FormatVote();
    scan();
    if (lines.length === 0 && bytes.length > MAX_LINE_BYTES)
      lines.push({ start: 0, end: bytes.length, cut: true });
  }
  const last = lines.at(-1);
  return { vote, lines, bytes: last ? last.end : 0 };
}

/** How many lines `bytes` may hold, from a sample's average line (for the index's first size). */
function estimateLines(sample: FileSample, bytes: number): number {
  const average = Math.max(16, sample.bytes / Math.max(1, sample.lines.length));
  return Math.min(50_000_000, Math.ceil((bytes / average) * 1.1) + 16);
}
