/**
 * A large file's lines indexed in pieces, on this thread and on others: what one piece asks (a
 * byte range of a file starting at a line's start and ending after a newline, read through the
 * descriptor the file was opened with), what it hands back (its index's columns, its own stream
 * table, what its reading counted), and the runner that indexes the first piece here between
 * frames and each other one in a worker thread (./index-worker.ts) of its own, while the main
 * thread keeps drawing. The pieces are put together in file order by ./saved-file.ts, as if one
 * reader had read them.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { FileBytes } from "./byte-source.js";
import type { LineColumns } from "./line-index.js";
import { SavedFile } from "./saved-file.js";
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

/** The worker's module, beside this one (in the bundle and in the compiled modules alike). */
const WORKER = new URL("./index-worker.js", import.meta.url);

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

/**
 * Pieces indexed at once: the first on this thread, a read at a time between the program's other
 * work (it draws little while a file is indexed, and a thread of its own would cost a runtime's
 * memory and start-up), each other one on a worker thread of its own, when the worker's module is
 * there (it is not when the sources run untranspiled, as in the tests: then undefined, and the
 * caller indexes on its own thread); `stop` ends every worker still running (their runs reject).
 */
export function workerPieces(): { run: PieceRunner; stop(): void } | undefined {
  if (!existsSync(fileURLToPath(WORKER))) return undefined;
  const running = new Set<Worker>();
  const one = (request: PieceRequest, progress: (bytes: number) => void) =>
    new Promise<IndexedPiece>((resolve, reject) => {
      const worker = new Worker(WORKER, { workerData: request });
      running.add(worker);
      let piece: IndexedPiece | undefined;
      worker.on("message", (m: PieceMessage) => {
        if (m.kind === "progress") progress(m.bytes);
        else piece = m.piece;
      });
      worker.once("error", reject);
      worker.once("exit", () => {
        running.delete(worker);
        if (piece) resolve(piece);
        else reject(new Error("a piece's worker ended without its lines"));
      });
    });
  return {
    run: (requests, progress, pause) => {
      const done = requests.map(() => 0);
      const tell = (k: number) => (bytes: number) => {
        done[k] = bytes;
        progress(done.reduce((a, b) => a + b, 0));
      };
      // The workers first, so that they start while this thread reads its piece.
      const others = requests.slice(1).map((r, k) => one(r, tell(k + 1)));
      const [first] = requests;
      const here = first
        ? [SavedFile.indexPieceInSlices(new FileBytes(first.fd, first.size), first, tell(0), pause)]
        : [];
      return Promise.all([...here, ...others]);
    },
    stop: () => {
      for (const w of running) void w.terminate();
      running.clear();
    },
  };
}
