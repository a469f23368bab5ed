/**
 * What one piece of a large file's index is, as the threads that index it hand it over: what it
 * asks (a byte range of a file starting at a line's start and ending after a newline, read through
 * the descriptor the file was opened with), what it hands back (its index's columns, its own
 * stream table, what its reading counted), and the messages a worker sends. ./piece-index.ts runs
 * the pieces; ./saved-file.ts puts them together in file order.
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
 * Indexes pieces (all at once); `progress` hears the bytes indexed of all of them so far; a piece
 * read on the caller's thread calls `pause` between its reads (it throws to stop it). Rejects
 * when a piece could not be indexed (the caller indexes on its own thread then) or the runner
 * was stopped.
 */
export type PieceRunner = (
  requests: readonly PieceRequest[],
  progress: (bytes: number) => void,
  pause: () => Promise<void>,
) => Promise<IndexedPiece[]>;

/** The messages a worker posts. */
export type PieceMessage =
  | { kind: "progress"; bytes: number }
  | { kind: "done"; piece: IndexedPiece };

/** The buffers of a piece's columns, handed over rather than copied. */
export function pieceTransfer(piece: IndexedPiece): ArrayBuffer[] {
  const c = piece.columns;
  return [c.starts, c.lengths, c.keys, c.flags, c.streams, c.contentFrom, c.contentAfter].map(
    (a) => a.buffer as ArrayBuffer,
  );
}
