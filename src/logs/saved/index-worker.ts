/**
 * A worker thread that indexes chunks of a large file (./piece-index.ts): from the last back,
 * each taken first from the claims it shares with the main thread's reader (which reads from the
 * front), until they meet; reads their bytes by position through the descriptor the main thread
 * opened, says how far it is after each read, and hands each chunk's columns over as it is done.
 */
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { FileBytes } from "./byte-source.js";
import {
  claim,
  type PieceMessage,
  pieceTransfer,
  THERE,
  type WorkerTask,
} from "./piece-protocol.js";
import { SavedFile } from "./saved-file.js";

const task = workerData as WorkerTask;
// The flags are the process's: set here, they hold for the main thread too.
if (task.flags !== undefined) {
  try {
    setFlagsFromString(task.flags);
  } catch {
    // The runtime's defaults stay.
  }
}
const port = parentPort;
const first = task.chunks[0];
if (port && first) {
  const post = (m: PieceMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const claims = new Int32Array(task.claims);
  SavedFile.indexChunksFromBack(
    new FileBytes(first.fd, first.size),
    task.chunks,
    (k) => claim(claims, k, THERE),
    (bytes) => post({ kind: "progress", bytes }),
    (piece, chunk) => post({ kind: "done", piece, chunk }, pieceTransfer(piece)),
    task.shared,
  );
}
