/**
 * Reading a request body, up to the simulator's limit; a body over it is refused with Turnkey's
 * INVALID_ARGUMENT once the client has finished sending it.
 */
import type { IncomingMessage } from "node:http";
import { SimError } from "./sim-error.js";

/** Room for a 400kb smart contract interface, JSON-escaped inside the request body. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long the rest of a too-large body is read (and dropped) before the connection is cut. */
const DRAIN_MS = 10_000;

/** The body is over the limit: answered with a 400 once the client is done sending it. */
export class BodyTooLarge extends SimError {
  constructor() {
    super(
      3,
      `request body is larger than the simulator's limit of 4 MiB (${MAX_BODY_BYTES} bytes)`,
    );
  }
}

/**
 * Reads the body. One over the limit (declared or counted) is read to its end and dropped, then
 * refused with BodyTooLarge: answering while the client still sends would close the connection
 * under it, and the client would see a reset instead of the 400 (and upload again). A body that
 * does not end within DRAIN_MS of passing the limit has its connection cut.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let drain: NodeJS.Timeout | undefined;
    const refuse = () => {
      chunks.length = 0;
      drain ??= setTimeout(() => req.destroy(), DRAIN_MS);
    };
    if (Number(req.headers["content-length"]) > MAX_BODY_BYTES) refuse();
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) refuse();
      if (drain === undefined) chunks.push(chunk);
    });
    req.on("end", () => {
      clearTimeout(drain);
      if (drain !== undefined) reject(new BodyTooLarge());
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (err) => {
      clearTimeout(drain);
      reject(err);
    });
    req.on("close", () => clearTimeout(drain));
  });
}
