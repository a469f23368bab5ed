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
import type { IndexedPiece, PieceMessage, PieceRequest, PieceRunner } from "./piece-protocol.js";
import { SavedFile } from "./saved-file.js";

/** The worker's module, beside this one (in the bundle and in the compiled modules alike). */
const WORKER = new URL("./index-worker.js", import.meta.url);

/**
 * Pieces indexed at once: the first on this thread, a read at a time between the program's other
 * work (it draws little while a file is indexed, and a thread of its own would cost a runtime's
 * memory and start-up), each other one on a worker thread of its own, when the worker's module is
 * there (it is not when the sources run untranspiled, as in the tests: then undefined, and the
 * caller indexes on its own thread); `stop` ends every worker still running (their runs reject).
 * `online` is called on this thread once each worker runs: a worker's start sets V8's flags back
 * to their defaults for the whole process (the young generation's growth among them, see
 * src/cli/heap-governor.ts), so the caller sets again what it had set.
 */
export function workerPieces(online?: () => void): { run: PieceRunner; stop(): void } | undefined {
  if (!existsSync(fileURLToPath(WORKER))) return undefined;
  const running = new Set<Worker>();
  const one = (request: PieceRequest, progress: (bytes: number) => void) =>
    new Promise<IndexedPiece>((resolve, reject) => {
      const worker = new Worker(WORKER, { workerData: request });
      running.add(worker);
      if (online) worker.once("online", online);
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
