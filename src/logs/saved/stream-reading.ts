/**
 * Reads a stream into a saved file as it comes: a stream that turns out compressed (its first
 * bytes) goes through gunzip from there; its end or an error is noted on the file.
 */
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { SavedFile } from "./saved-file.js";

export const GZIP_MAGIC = [0x1f, 0x8b];

export interface StreamReading {
  /** Resolves once the stream ended or failed. */
  done: Promise<void>;
  /** Stops reading: destroys the stream (and gunzip, when there is one). */
  stop(): void;
}

/**
 * `gunzip`: the input is already decompressed (a `.gz` file); its end is then no news.
 * `changed`: called after each chunk and at the end.
 */
export function readStreamInto(
  file: SavedFile,
  input: Readable,
  gunzip: boolean,
  changed: () => void,
): StreamReading {
  let source: Readable = input;
  const done = new Promise<void>((resolve) => {
    let first = true;
    const finish = (note?: string) => {
      if (note) file.notes.push(note);
      file.end();
      changed();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      if (first && !gunzip && chunk[0] === GZIP_MAGIC[0] && chunk[1] === GZIP_MAGIC[1]) {
        // A compressed stream: what follows goes through gunzip.
        first = false;
        const unzip = createGunzip();
        input.off("data", onData);
        input.off("end", onEnd);
        input.off("error", onError);
        input.pipe(unzip);
        source = unzip;
        listen(unzip);
        unzip.write(chunk);
        return;
      }
      first = false;
      file.push(chunk);
      changed();
    };
    // A decompressed file simply comes to its end; a stream followed ending is news.
    const onEnd = () => finish(gunzip ? undefined : `${file.name} ended`);
    const onError = (err: Error) =>
      finish(`${file.name} could not be read to its end: ${err.message}`);
    const listen = (r: Readable) => {
      r.on("data", onData);
      r.once("end", onEnd);
      r.once("error", onError);
    };
    listen(input);
  });
  return {
    done,
    stop: () => {
      input.destroy();
      if (source !== input) source.destroy();
    },
  };
}
