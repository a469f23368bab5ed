/**
 * What one piece of a large file's index is, as the threads that index it hand it over: what it
 * asks (a byte range of a file starting at a line's start and ending after a newline, read through
 * the descriptor the file was opened with), what it hands back (its index's columns, its own
 * stream table, what its reading counted), the messages a worker sends, and how the readers
 * share the chunks of the rest of a file: each chunk claimed once (`claim`), this thread's reader
 * from the front, a worker's from the back, until they meet, so that neither waits on the other
 * however busy this thread is drawing. ./piece-index.ts runs the pieces; ./saved-file.ts puts
 * them together in file order.
 */
import type { LineColumns } from "./line-index.js";
import type { SavedFormat } from "./saved-line.js";
import type { Stream } from "./stream-table.js";

export interface PieceRequest {
  fd: number;
  /** The file's size when the piece was cut. */
  size: number;
  name: string;
  format: SavedFormat;
  from: number;
  to: number;
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
 * Indexes the chunks of the rest of a file (in file order, each from a line's start to just after
 * a newline, the first one's capacity the whole rest's), shared between readers; `progress`
 * hears the bytes indexed of all of them so far; a piece read on the caller's thread calls
 * `pause` between its reads (it throws to stop it). Resolves to pieces covering the chunks in
 * file order, the consecutive chunks one reader read as one piece, the first chunk's reader's
 * first. Rejects when a piece could not be indexed (the caller indexes on its own thread then)
 * or the runner was stopped.
 */
export type PieceRunner = (
  chunks: readonly PieceRequest[],
  progress: (bytes: number) => void,
  pause: () => Promise<void>,
) => Promise<IndexedPiece[]>;

/** What a worker is given: the chunks, and their claims (a SharedArrayBuffer, one Int32 each). */
export interface WorkerTask {
  chunks: PieceRequest[];
  claims: SharedArrayBuffer;
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

/** The buffers of a piece's columns, handed over rather than copied. */
export function pieceTransfer(piece: IndexedPiece): ArrayBuffer[] {
  const c = piece.columns;
  return [c.starts, c.lengths, c.keys, c.flags, c.streams, c.contentFrom, c.contentAfter].map(
    (a) => a.buffer as ArrayBuffer,
  );
}
