/**
 * A large file's lines indexed in pieces, on this thread and on another: the rest of the file in
 * chunks (./piece-protocol.ts), this thread's reader taking them from the front between frames
 * and a worker thread's (./index-worker.ts) from the back, each chunk claimed once, until they
 * meet: however long this thread is busy drawing, the worker reads on, and neither waits for the
 * other at the end. The pieces are put together in file order by ./saved-file.ts, as if one
 * reader had read them.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import { FileBytes } from "./byte-source.js";
import {
  claim,
  HERE,
  type IndexedPiece,
  inShared,
  newClaims,
  type PieceMessage,
  type PieceRequest,
  type PieceRunner,
  type SharedIndex,
  type WorkerTask,
} from "./piece-protocol.js";
import { SavedFile } from "./saved-file.js";

/** The worker's module, beside this one (in the bundle and in the compiled modules alike). */
const WORKER = new URL("./index-worker.js", import.meta.url);

/**
 * The chunks shared by this thread's reader (a read at a time between the program's other work:
 * it draws little while a file is indexed, and another thread would cost a runtime's memory and
 * start-up) and one worker thread's, when the worker's module is there (it is not when the
 * sources run untranspiled, as in the tests: then undefined, and the caller indexes on its own
 * thread); `stop` ends every worker still running (their runs reject).
 * `online` is called on this thread once each worker runs: a worker's start sets V8's flags back
 * to their defaults for the whole process (the young generation's growth among them, see
 * src/cli/heap-governor.ts), so the caller sets again what it had set. `flags` (V8's) are set
 * again by each worker itself as soon as its module runs: this thread may be busy drawing when told
 * `online`, and the young generation grows meanwhile.
 */
export function workerPieces(
  online?: () => void,
  flags?: string,
): { run: PieceRunner; stop(): void } | undefined {
  if (!existsSync(fileURLToPath(WORKER))) return undefined;
  const running = new Set<Worker>();
  return {
    run: async (chunks, progress, pause, shared) => {
      const first = chunks[0] as PieceRequest;
      const claims = newClaims(chunks.length);
      let here = 0;
      let there = 0;
      const tell = () => progress(here + there);
      // A worker that failed leaves the rest to the caller: this thread's reader takes no more,
      // and the run rejects at once.
      let failed = false;
      let failure: (err: Error) => void = () => {};
      const failedRun = new Promise<never>((_, reject) => {
        failure = reject;
      });
      failedRun.catch(() => {});
      // The worker first, so that it starts while this thread draws the first screen.
      const theirs =
        chunks.length > 1
          ? pieceWorker(
              running,
              {
                chunks: [...chunks],
                claims: claims.buffer as SharedArrayBuffer,
                ...(flags === undefined ? {} : { flags }),
                ...(shared ? { shared } : {}),
              },
              {
                progress: (b) => {
                  there = b;
                  tell();
                },
                failed: (err) => {
                  failed = true;
                  failure(err);
                },
                online,
              },
            )
          : undefined;
      const mine = SavedFile.indexChunksInSlices(
        new FileBytes(first.fd, first.size),
        chunks,
        (k) => !failed && claim(claims, k, HERE),
        (b) => {
          here = b;
          tell();
        },
        pause,
        shared,
      );
      const read = await Promise.race([mine, failedRun]);
      // The chunks after this thread's are the worker's: once it handed them all over, it is not
      // waited for to end.
      const pieces = theirs
        ? await Promise.race([theirs.holding(chunks.length - read.chunks), failedRun])
        : new Map<number, IndexedPiece>();
      const rest: IndexedPiece[] = [];
      for (let k = read.chunks; k < chunks.length; k++) {
        const piece = pieces.get(k);
        if (!piece) throw new Error(`chunk ${k} of the rest was read by no reader`);
        rest.push(piece);
      }
      return [read.piece, ...rest];
    },
    stop: () => {
      for (const w of running) void w.terminate();
      running.clear();
    },
  };
}

/**
 * A worker reading `task`, in `running` until it ends: `holding(count)` resolves once it has
 * handed over `count` chunks (the ones it took: it may still be ending), or once it ended;
 * rejects once it failed.
 */
function pieceWorker(
  running: Set<Worker>,
  task: WorkerTask,
  told: {
    progress: (bytes: number) => void;
    failed: (err: Error) => void;
    online: (() => void) | undefined;
  },
): { holding(count: number): Promise<Map<number, IndexedPiece>> } {
  const { progress, failed, online } = told;
  // Its code optimized on its own thread as it gets hot, not queued for this process's
  // compiler threads, which this thread's start-up keeps busy: read by V8 as the worker's
  // runtime is made, set back once it runs.
  setCompilerFlag("--no-concurrent-recompilation");
  const w = new Worker(WORKER, {
    workerData: task,
    // What it allocates is a chunk's lines at a time, handed over as each is read.
    resourceLimits: { maxYoungGenerationSizeMb: 1 },
  });
  running.add(w);
  w.once("online", () => {
    setCompilerFlag("--concurrent-recompilation");
    online?.();
  });
  const pieces = new Map<number, IndexedPiece>();
  let waiting: (() => void) | undefined;
  let ended = false;
  let error: Error | undefined;
  const wake = () => {
    const resume = waiting;
    waiting = undefined;
    resume?.();
  };
  w.on("message", (m: PieceMessage) => {
    if (m.kind === "progress") progress(m.bytes);
    else {
      pieces.set(m.chunk, ours(m.piece, task.shared));
      wake();
    }
  });
  const fail = (err: Error) => {
    if (error !== undefined) return;
    error = err;
    failed(err);
    wake();
  };
  w.once("error", fail);
  w.once("exit", (code) => {
    running.delete(w);
    ended = true;
    if (code !== 0) fail(new Error(`a piece's worker ended with code ${code}`));
    wake();
  });
  return {
    holding: async (count: number): Promise<Map<number, IndexedPiece>> => {
      while (pieces.size < count && !ended && error === undefined)
        await new Promise<void>((resolve) => {
          waiting = resolve;
        });
      if (error !== undefined) throw error;
      return pieces;
    },
  };
}

/**
 * A piece as a worker posted it, its lines in the shared columns read through this thread's own
 * views of them (the same memory), so that they are moved together in place.
 */
function ours(piece: IndexedPiece, shared: SharedIndex | undefined): IndexedPiece {
  if (!shared || !inShared(piece)) return piece;
  return {
    ...piece,
    columns: { ...shared.columns, from: piece.columns.from, size: piece.columns.size },
  };
}

/** A V8 compiler flag set for the process; a runtime that refuses it keeps its default. */
function setCompilerFlag(flag: string): void {
  try {
    setFlagsFromString(flag);
  } catch {
    // The runtime's default stays.
  }
}
