/**
 * The client's default transport: a POST over node:http / node:https with the part of fetch's
 * interface the client uses (status, headers, a body read as a stream, an abort signal; never
 * following a redirect). Node's own fetch (undici) is slow to load and to make its first request,
 * and holds a process that has finished for a while before it exits (`npm run bench -- startup`);
 * this does neither. Connections are kept alive between polls. Any fetch (the global one, a test's)
 * can be given to the client instead.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { finished } from "node:stream";

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal | undefined;
  redirect?: "manual";
}

export interface BodyReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(): Promise<void>;
}

/** What the client reads of a response (the global Response has all of it). */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): BodyReader; cancel(): Promise<void> } | null;
}

/** A fetch as the client calls it: the global fetch, this module's, or a test's. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

// Kept-alive connections do not hold a finished process open (free sockets are unreferenced).
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

class NodeResponse implements FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): BodyReader; cancel(): Promise<void> };

  constructor(message: IncomingMessage) {
    this.status = message.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    const raw = message.headers;
    this.headers = {
      get(name) {
        const v = raw[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      },
    };
    const cancel = async () => {
      message.destroy();
    };
    this.body = {
      cancel,
      getReader: () => chunkReader(message, cancel),
    };
  }
}

/** Chunks a body's reader holds before the message is paused (and resumed under half of it). */
const HELD_CHUNKS = 16;

/**
 * Reads a message's body in the chunks it comes in, each as the socket gave it: a stream's
 * async iterator reads all that has piled up as one chunk, which joins them (a copy of each byte)
 * whenever the reader is slower than the socket. The message is paused while HELD_CHUNKS wait,
 * and ends as the iterator would (finished: its error, or a close before its end).
 */
function chunkReader(message: IncomingMessage, cancel: () => Promise<void>): BodyReader {
  const held: Buffer[] = [];
  let ended = false;
  let failure: unknown;
  let waiting:
    | { resolve: (r: { done: boolean; value?: Buffer }) => void; reject: (e: unknown) => void }
    | undefined;
  const settle = () => {
    const w = waiting;
    if (!w) return;
    if (held.length > 0) {
      waiting = undefined;
      w.resolve({ done: false, value: held.shift() as Buffer });
    } else if (failure !== undefined) {
      waiting = undefined;
      w.reject(failure);
    } else if (ended) {
      waiting = undefined;
      w.resolve({ done: true });
    }
  };
  message.on("data", (chunk: Buffer) => {
    held.push(chunk);
    if (held.length >= HELD_CHUNKS) message.pause();
    settle();
  });
  finished(message, (err) => {
    if (err) failure = err;
    else ended = true;
    settle();
  });
  return {
    read() {
      const chunk = held.shift();
      if (held.length < HELD_CHUNKS / 2 && message.isPaused()) message.resume();
      if (chunk !== undefined) return Promise.resolve({ done: false, value: chunk });
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        settle();
      });
    },
    cancel,
  };
}

export const httpFetch: FetchLike = (url, init) =>
  new Promise<FetchResponse>((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(abortReason(signal));
    const target = new URL(url);
    const https = target.protocol === "https:";
    const body = Buffer.from(init.body, "utf8");
    const req = (https ? httpsRequest : httpRequest)(target, {
      method: init.method,
      headers: { ...init.headers, "content-length": String(body.length) },
      agent: https ? agents.https : agents.http,
    });
    let response: IncomingMessage | undefined;
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      // Before the headers: the request fails; after: reading the body does.
      if (response) response.destroy(reason as Error);
      else req.destroy(reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => signal?.removeEventListener("abort", onAbort);
    req.on("error", (err) => {
      done();
      reject(signal?.aborted ? abortReason(signal) : err);
    });
    req.on("response", (message) => {
      response = message;
      message.on("close", done);
      resolve(new NodeResponse(message));
    });
    req.end(body);
  });
