/**
 * Opening saved logs for reading (what `tvcwatch open FILE... | -` reads): every name checked
 * before anything is read, through the one way a named file is opened (src/config/named-file.ts):
 * a regular file is read by position, its end first (./saved-file.ts); a FIFO named explicitly is
 * followed as a stream; a device, a directory or a socket is refused in one line naming it. `-` is
 * standard input: a regular file redirected in is read as one, a pipe is followed as it grows, a
 * terminal is refused. A `.gz` file (told by its first bytes, not its name) is decompressed as a
 * stream. `follow` reads regular files further as they grow.
 *
 * `openSavedLogs` resolves once the newest lines of every file are indexed (the first screen);
 * `indexed` once every file is indexed whole. Lines that come later (a followed file, a stream)
 * are added as they come.
 */
import { closeSync, fstatSync } from "node:fs";
import { Socket } from "node:net";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { fileKind, logStream, openNamedLog, readLogAt } from "../../config/named-file.js";
import { FileBytes, HeldBytes } from "./byte-source.js";
import { DEFAULT_LIMITS, SavedFile, type SavedLimits } from "./saved-file.js";
import { SavedLog } from "./saved-log.js";

/** What the person is told to use when standard input is a terminal. */
export const STDIN_ADVICE =
  "pipe lines into it (tvcwatch tail -f -o json | tvcwatch open -) or name files";

export interface OpenSavedOptions {
  /** Read regular files further as they grow (`--follow`); streams are always followed. */
  follow?: boolean;
  limits?: SavedLimits;
  /** How often a followed file is looked at. */
  pollMs?: number;
  /**
   * The rest of a large file (before its end) is indexed once this resolves: the dashboard's
   * first screen is drawn first, not between pieces of indexing. By default at once.
   */
  indexFrom?: Promise<void>;
  /** Standard input, for `-`: its descriptor and a stream over it. */
  stdin?: { fd: number; stream: Readable };
}

export interface OpenedLogs {
  log: SavedLog;
  /** Lines may still come: a pipe or a FIFO is read, or files are followed (`follow`). */
  followed: boolean;
  /** Resolves once every file is indexed whole (streams still come in after). */
  indexed: Promise<void>;
  /** Stops following and reading, and closes every descriptor. */
  close(): void;
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** The most files opened at once. */
export const MAX_FILES = 256;

interface Opened {
  name: string;
  fd: number;
  kind: "file" | "stream";
  /** The stream to read, for standard input that is no regular file. */
  stream?: Readable;
  ownsFd: boolean;
}

/** Checks and opens every name, or throws one line about the first that cannot be read. */
function openAll(paths: readonly string[], options: OpenSavedOptions): Opened[] {
  const opened: Opened[] = [];
  const fail = (err: unknown): never => {
    for (const o of opened) if (o.ownsFd) closeSync(o.fd);
    throw err;
  };
  if (paths.length > MAX_FILES)
    fail(new Error(`${paths.length} files named: tvcwatch reads at most ${MAX_FILES} at once`));
  if (paths.filter((p) => p === "-").length > 1)
    fail(new Error("- (standard input) is named twice"));
  for (const path of paths) {
    if (path === "-") {
      const stdin = options.stdin ?? { fd: 0, stream: process.stdin };
      let stat: ReturnType<typeof fstatSync>;
      try {
        stat = fstatSync(stdin.fd);
      } catch {
        fail(new Error(`standard input is closed: ${STDIN_ADVICE}`));
        continue;
      }
      if ((stdin.stream as { isTTY?: boolean }).isTTY) {
        fail(new Error(`standard input is a terminal: ${STDIN_ADVICE}`));
      }
      if (stat.isFile()) {
        opened.push({ name: "standard input", fd: stdin.fd, kind: "file", ownsFd: false });
      } else if (stat.isFIFO() || stat.isSocket()) {
        opened.push({
          name: "standard input",
          fd: stdin.fd,
          kind: "stream",
          stream: stdin.stream,
          ownsFd: false,
        });
      } else {
        fail(
          new Error(
            `standard input is ${fileKind(stat)}, not a regular file or a pipe: ${STDIN_ADVICE}`,
          ),
        );
      }
      continue;
    }
    try {
      const log = openNamedLog(path, "log file", { fifo: true });
      opened.push({
        name: path,
        fd: log.fd,
        kind: log.kind === "file" ? "file" : "stream",
        ownsFd: true,
      });
    } catch (err) {
      fail(err);
    }
  }
  return opened;
}

function isGzip(fd: number): boolean {
  const head = Buffer.alloc(2);
  const n = readLogAt(fd, head, 0, 2, 0);
  return n === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Opens the logs named (`-` for standard input); see the module comment. */
export async function openSavedLogs(
  paths: readonly string[],
  options: OpenSavedOptions = {},
): Promise<OpenedLogs> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const opened = openAll(paths, options);
  const log = new SavedLog(limits.maxLines);
  const cleanups: (() => void)[] = [];
  const tails: SavedFile[] = [];
  const pending: Promise<void>[] = [];
  let closed = false;
  let scheduled = false;
  /** Many chunks of a stream make one update. */
  const soon = () => {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!closed) log.update();
    });
  };

  const readStream = (file: SavedFile, input: Readable, gunzip: boolean): Promise<void> =>
    new Promise<void>((resolve) => {
      let source: Readable = input;
      let first = true;
      const finish = (note?: string) => {
        if (note) file.notes.push(note);
        file.end();
        soon();
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
        soon();
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
      cleanups.push(() => {
        input.destroy();
        if (source !== input) source.destroy();
      });
    });

  for (const o of opened) {
    if (o.kind === "stream") {
      // The descriptor is its socket's, closed with it.
      const file = SavedFile.ofStream(o.name, new HeldBytes(), log.streams, limits);
      log.add(file);
      const input = o.stream ?? new Socket({ fd: o.fd, readable: true, writable: false });
      readStream(file, input, false);
      continue;
    }
    if (isGzip(o.fd)) {
      const file = SavedFile.ofStream(o.name, new HeldBytes(), log.streams, limits);
      log.add(file);
      // The descriptor is the read stream's, closed by it once no read is under way.
      const raw = logStream(o.fd, o.ownsFd);
      const unzip = createGunzip();
      raw.pipe(unzip);
      cleanups.push(() => raw.destroy());
      pending.push(readStream(file, unzip, true));
      continue;
    }
    if (o.ownsFd) cleanups.push(() => closeSync(o.fd));
    const file = SavedFile.ofFile(
      o.name,
      new FileBytes(o.fd, fstatSync(o.fd).size),
      log.streams,
      limits,
    );
    log.add(file);
    file.startFile();
    tails.push(file);
  }
  log.update();

  const follow = (file: SavedFile) => {
    if (!options.follow) {
      file.end();
      return;
    }
    const timer = setInterval(() => {
      if (closed) return;
      if (!file.readMore()) clearInterval(timer);
      log.update();
    }, options.pollMs ?? 500);
    cleanups.push(() => clearInterval(timer));
  };
  const indexFiles = (async () => {
    if (options.indexFrom) await options.indexFrom;
    for (const file of tails) {
      await file.indexRest(async () => {
        if (closed) throw new ClosedError();
        await breathe();
      });
      follow(file);
      log.update();
    }
  })().catch((err: unknown) => {
    if (!(err instanceof ClosedError)) throw err;
  });
  pending.push(indexFiles);
  return {
    log,
    followed: options.follow === true || opened.some((o) => o.kind === "stream"),
    indexed: Promise.all(pending).then(() => undefined),
    close() {
      if (closed) return;
      closed = true;
      for (const c of cleanups.reverse()) {
        try {
          c();
        } catch {
          // Already closed.
        }
      }
    },
  };
}

class ClosedError extends Error {}
