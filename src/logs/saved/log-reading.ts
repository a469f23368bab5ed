/**
 * The reading of every opened name into one SavedLog, and its end: streams read as they come
 * (many chunks make one update), regular files indexed from their end first then whole, one at a
 * time, and followed as they grow with `follow`; `close` stops all of it and closes every
 * descriptor.
 */
import { closeSync, fstatSync } from "node:fs";
import { Socket } from "node:net";
import { createGunzip } from "node:zlib";
import { logStream, readLogAt } from "../../config/named-file.js";
import { FileBytes, HeldBytes } from "./byte-source.js";
import { FollowedFile } from "./followed-file.js";
import type { Opened } from "./named-inputs.js";
import { workerPieces } from "./piece-index.js";
import { SavedFile, type SavedLimits } from "./saved-file.js";
import { SavedLog } from "./saved-log.js";
import { GZIP_MAGIC, readStreamInto } from "./stream-reading.js";

function isGzip(fd: number): boolean {
  const head = Buffer.alloc(2);
  const n = readLogAt(fd, head, 0, 2, 0);
  return n === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

class ClosedError extends Error {}

export interface LogReadingOptions {
  limits: SavedLimits;
  /** Read regular files further as they grow. */
  follow: boolean;
  /** How often a followed file is looked at. */
  pollMs: number;
  /** Called once each indexing worker runs (./piece-index.ts: what its start undoes). */
  workerOnline?: () => void;
  /** V8 flags each indexing worker sets again once it runs (../open-saved.ts). */
  workerFlags?: string;
}

export class LogReading {
  readonly log: SavedLog;
  private readonly cleanups: (() => void)[] = [];
  /** Regular files, indexed from their end first. */
  private readonly tails: { file: SavedFile; opened: Opened }[] = [];
  /** What `indexed` waits for. */
  private readonly pending: Promise<void>[] = [];
  private closed = false;
  private scheduled = false;
  /** Worker threads for a large file's pieces (none when the sources run untranspiled). */
  private readonly pieces: ReturnType<typeof workerPieces>;

  constructor(private readonly options: LogReadingOptions) {
    this.log = new SavedLog(options.limits.maxLines);
    this.pieces = workerPieces(options.workerOnline, options.workerFlags);
  }

  /** Starts reading one opened name: a stream, a compressed file or a regular file. */
  add(o: Opened): void {
    const { log } = this;
    const { limits } = this.options;
    if (o.kind === "stream") {
      // The descriptor is its socket's, closed with it.
      const file = SavedFile.ofStream(o.name, new HeldBytes(), log.streams, limits);
      file.aliases = o.aliases;
      log.add(file);
      const input = o.stream ?? new Socket({ fd: o.fd, readable: true, writable: false });
      this.cleanups.push(this.readStream(file, input, false).stop);
      return;
    }
    if (isGzip(o.fd)) {
      const file = SavedFile.ofStream(o.name, new HeldBytes(), log.streams, limits);
      file.aliases = o.aliases;
      log.add(file);
      // The descriptor is the read stream's, closed by it once no read is under way.
      const raw = logStream(o.fd, o.ownsFd);
      const unzip = createGunzip();
      raw.pipe(unzip);
      this.cleanups.push(() => raw.destroy());
      const reading = this.readStream(file, unzip, true);
      this.cleanups.push(reading.stop);
      this.pending.push(reading.done);
      return;
    }
    if (o.ownsFd) this.cleanups.push(() => closeSync(o.fd));
    const file = SavedFile.ofFile(
      o.name,
      new FileBytes(o.fd, fstatSync(o.fd).size),
      log.streams,
      limits,
    );
    file.aliases = o.aliases;
    log.add(file);
    file.startFile();
    this.tails.push({ file, opened: o });
  }

  /**
   * Indexes the regular files whole, one after another, then follows each: on this thread once
   * `from` resolves; a first file's pieces on worker threads start at once (they take nothing
   * from this thread's first screen).
   */
  indexFiles(from?: Promise<void>): void {
    const pieces = this.pieces?.run;
    const indexing = (async () => {
      if (from && !pieces) await from;
      // Closed before indexing began (q on the first screen): the descriptors are closed.
      if (this.closed) return;
      let drawn = false;
      const pause = async () => {
        if (from && !drawn) await from;
        drawn = true;
        await this.pause();
      };
      for (const { file, opened } of this.tails) {
        if (this.closed) return;
        await file.indexRest(pause, pieces);
        this.follow(file, opened);
        this.log.update();
      }
    })().catch((err: unknown) => {
      if (!(err instanceof ClosedError)) throw err;
    });
    this.pending.push(indexing);
  }

  /**
   * Between pieces of indexing: a breath for the rest of the program, and the end of indexing
   * when the reading was closed meanwhile (its descriptors are closed: nothing more is read).
   */
  private readonly pause = async (): Promise<void> => {
    if (this.closed) throw new ClosedError();
    await breathe();
    if (this.closed) throw new ClosedError();
  };

  /** Resolves once every file is indexed whole (streams still come in after). */
  indexed(): Promise<void> {
    return Promise.all(this.pending).then(() => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // The workers first: they read through the descriptors closed next.
    this.pieces?.stop();
    for (const c of this.cleanups.reverse()) {
      try {
        c();
      } catch {
        // Already closed.
      }
    }
  }

  private readStream(
    file: SavedFile,
    input: Parameters<typeof readStreamInto>[1],
    gunzip: boolean,
  ) {
    return readStreamInto(file, input, gunzip, () => this.updateSoon());
  }

  /** Many chunks of a stream make one update. */
  private updateSoon(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.closed) this.log.update();
    });
  }

  /** Follows a regular file (`follow`) by its name; else it is read to its end. */
  private follow(file: SavedFile, o: Opened): void {
    if (!this.options.follow) {
      file.end();
      return;
    }
    const followed = new FollowedFile(
      file,
      o.path,
      { dev: o.dev, ino: o.ino },
      { adopt: (next, fd) => this.adopt(next, fd) },
    );
    const timer = setInterval(() => {
      if (this.closed) return;
      followed.poll();
      this.log.update();
    }, this.options.pollMs);
    this.cleanups.push(() => clearInterval(timer));
  }

  /** The file its name names next (or the same file read again): indexed, then followed. */
  private async adopt(file: SavedFile, fd: number | undefined): Promise<void> {
    if (fd !== undefined) this.cleanups.push(() => closeSync(fd));
    this.log.add(file);
    file.startFile();
    this.log.update();
    try {
      await file.indexRest(this.pause, this.pieces?.run);
    } catch (err) {
      if (!(err instanceof ClosedError)) throw err;
      return;
    }
    this.log.update();
  }
}
