/**
 * A worker thread that indexes one piece of a large file (./piece-index.ts): reads its bytes by
 * position through the descriptor the main thread opened, says how far it is after each read,
 * and hands its columns over.
 */
import { parentPort, workerData } from "node:worker_threads";
import { FileBytes } from "./byte-source.js";
import { type PieceMessage, type PieceRequest, pieceTransfer } from "./piece-protocol.js";
import { SavedFile } from "./saved-file.js";

const request = workerData as PieceRequest;
const port = parentPort;
if (port) {
  const post = (m: PieceMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const piece = SavedFile.indexPiece(new FileBytes(request.fd, request.size), request, (bytes) =>
    post({ kind: "progress", bytes }),
  );
  post({ kind: "done", piece }, pieceTransfer(piece));
}
