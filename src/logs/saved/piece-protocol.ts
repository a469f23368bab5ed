/**
 * What one piece of a large file's index is, as the threads that index it hand it over: what it
 * asks (a chunk's share of the bytes of a file, read through the descriptor the file was opened
 * with: the lines starting in it, its edges found by its reader, so that the rest is cut without
 * reading it), what it hands back (its index's columns, its own stream table, what its reading
 * counted), the messages a worker sends, and how the readers share the chunks of the rest of a
 * file: each chunk claimed once (`claim`), this thread's reader from the front, a worker's from
 * the back, until they meet, so that neither waits on the other however busy this thread is
 * drawing. The readers' lines go into one set of columns in shared
 * memory (`SharedIndex`), this thread's from the first slot up, each of a worker's chunks (once
 * read) from the last down, each reader taking its slots in `room` first, so that neither
 * thread's lines are held twice. ./piece-index.ts runs the pieces; ./saved-file.ts puts them
 * together in file order.
 */
import { type LineColumns, sharedColumns } from "./line-index.js";
import type { SavedFormat } from "./saved-line.js";
import type { Stream } from "./stream-table.js";

export interface PieceRequest {
  fd: number;
  /** The file's size when the piece was cut. */
  size: number;
  name: string;
  format: SavedFormat;
  /**
   * The chunk's share of the rest's bytes, cut without reading them: its lines start just after
   * the first newline from `from - 1` (0: at 0) and end where the next chunk's start (`end`: there).
   * The edge at `from` (or `to`) is looked for in MAX_LINE_BYTES; found none (a longer line), it
   * is the next share's, the chunk then holds no line (`chunkEdge` in ./saved-file.ts).
   */
  from: number;
  to: number;
  /** The end of the rest (the last chunk's `to`, just after a newline): the last line ends there. */
  end: number;
  /** Slots the piece's columns start with (the first piece's: the whole file's). */
  capacity: number;
  maxLines: number;
  maxHeldBytes: number;
}

/** What a piece's reading counted, beside its lines. */
export interface PieceFacts {
  unreadable: number;
  revision: number;
  minTime: number;
  maxTime: number;
  lines: number;
  gaps: number;
  /** Lines by the piece's own stream number. */
  perStream: number[];
  first: number;
  last: number;
  /** No line of the piece is older than one before it in the piece. */
  sorted: boolean;
  cut: number;
  passedOver: number;
}

export interface IndexedPiece {
  columns: LineColumns;
  /** The piece's stream table, by its numbers. */
  streams: Stream[];
  facts: PieceFacts;
  /** Where its reading stopped (its `to`, unless the file was cut short meanwhile). */
  next: number;
}

/**
 * Indexes the chunks of the rest of a file (in file order, each its share of the bytes, the first
 * one's capacity the whole rest's), shared between readers; `progress` hears the bytes indexed
 * of all of them so far; a piece read on the caller's thread calls `pause` between its reads (it
 * throws to stop it). Resolves to pieces covering the chunks in
 * file order, the consecutive chunks one reader read as one piece, the first chunk's reader's
 * first. Rejects when a piece could not be indexed (the caller indexes on its own thread then)
 * or the runner was stopped.
 */
export type PieceRunner = (
  chunks: readonly PieceRequest[],
  progress: (bytes: number) => void,
  pause: () => Promise<void>,
  /** The columns the pieces' lines go into when they have room there (else columns of their own). */
  shared?: SharedIndex,
) => Promise<IndexedPiece[]>;

/**
 * Columns in shared memory for a large file's rest, and which of their slots are taken: slots
 * [0, room[0]) by the reader from the front, [room[1], capacity) by the reader from the back.
 */
export interface SharedIndex {
  columns: LineColumns;
  /** The two ends of the free slots, one BigInt64 pair (changed together, atomically). */
  room: BigInt64Array;
}

export function newSharedIndex(capacity: number): SharedIndex {
  const room = new BigInt64Array(new SharedArrayBuffer(8));
  const columns = sharedColumns(capacity);
  room[0] = BigInt(columns.starts.length) << 32n;
  return { columns, room };
}

/** One atomic change of the free slots [front, back): what `take` makes of them, or undefined. */
function takeRoom(
  room: BigInt64Array,
  take: (front: number, back: number) => [number, number] | undefined,
): [number, number] | undefined {
  for (;;) {
    const was = Atomics.load(room, 0);
    const front = Number(was & 0xffffffffn);
    const back = Number(was >> 32n);
    const next = take(front, back);
    if (next === undefined) return undefined;
    const now = (BigInt(next[1]) << 32n) | BigInt(next[0]);
    if (Atomics.compareExchange(room, 0, was, now) === was) return [front, back];
  }
}

/** The front reader's slots from `end` on, up to `want` more: the new end (`end`: none free). */
export function takeFront(shared: SharedIndex, end: number, want: number): number {
  const got = takeRoom(shared.room, (front, back) =>
    front === end && back > front ? [front + Math.min(want, back - front), back] : undefined,
  );
  return got === undefined ? end : got[0] + Math.min(want, got[1] - got[0]);
}

/** `count` slots for a reader from the back, just before those taken so far: the first, or -1. */
export function takeBack(shared: SharedIndex, count: number): number {
  const got = takeRoom(shared.room, (front, back) =>
    back - front >= count ? [front, back - count] : undefined,
  );
  return got === undefined ? -1 : got[1] - count;
}

/**
 * A piece's lines copied into the shared columns at slot `at` (slots the caller took; its columns
 * as wide as theirs, `sameWidths`): the piece as it is then, its columns the shared ones from there.
 */
export function copiedIntoShared(
  piece: IndexedPiece,
  shared: SharedIndex,
  at: number,
): IndexedPiece {
  const c = piece.columns;
  const to = shared.columns;
  const end = c.from + c.size;
  to.starts.set(c.starts.subarray(c.from, end), at);
  to.lengths.set(c.lengths.subarray(c.from, end), at);
  to.keys.set(c.keys.subarray(c.from, end), at);
  to.flags.set(c.flags.subarray(c.from, end), at);
  to.streams.set(c.streams.subarray(c.from, end), at);
  to.contentFrom.set(c.contentFrom.subarray(c.from, end), at);
  to.contentAfter.set(c.contentAfter.subarray(c.from, end), at);
  return { ...piece, columns: { ...to, from: at, size: c.size } };
}

/** What a worker is given: the chunks, their claims (a SharedArrayBuffer, one Int32 each), the columns. */
export interface WorkerTask {
  chunks: PieceRequest[];
  claims: SharedArrayBuffer;
  shared?: SharedIndex;
  /** V8 flags to set again once the worker runs (its start set them back to their defaults). */
  flags?: string;
}

/** The messages a worker posts: how far it is, and each chunk it indexed. */
export type PieceMessage =
  | { kind: "progress"; bytes: number }
  | { kind: "done"; piece: IndexedPiece; chunk: number };

/** A chunk's claim: not taken yet, taken by this thread's reader, or by a worker's. */
export const FREE = 0;
export const HERE = 1;
export const THERE = 2;

/** The claims of `chunks` chunks, none taken: shared with the workers. */
export function newClaims(chunks: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * Math.max(1, chunks)));
}

/** Takes chunk `k` for `reader` (HERE or THERE): whether it was free (no other reader has it). */
export function claim(claims: Int32Array, k: number, reader: number): boolean {
  return Atomics.compareExchange(claims, k, FREE, reader) === FREE;
}

/** The buffers of a piece's columns that are its own, handed over rather than copied. */
export function pieceTransfer(piece: IndexedPiece): ArrayBuffer[] {
  const c = piece.columns;
  return [c.starts, c.lengths, c.keys, c.flags, c.streams, c.contentFrom, c.contentAfter].flatMap(
    (a) => (a.buffer instanceof ArrayBuffer ? [a.buffer] : []),
  );
}

/** Whether a piece's lines are in shared columns (the slots `from` on), not columns of its own. */
export function inShared(piece: IndexedPiece): boolean {
  return piece.columns.starts.buffer instanceof SharedArrayBuffer;
}
