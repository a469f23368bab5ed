/**
 * The one way to append to a file a person named (`tail --output-file`), beside the one way to
 * replace one (./atomic-file.ts): the lines of a log, written a batch at a time, each flushed to
 * disk, and cut back to a recorded length after a crash.
 *
 * The file is opened write-only for appending without blocking (O_WRONLY|O_APPEND|O_CREAT|
 * O_NONBLOCK: a FIFO with no reader fails at once, ENXIO, instead of hanging the open; on Linux
 * O_NONBLOCK changes nothing for a regular file's writes), created mode 0644 (a log, for others to
 * read and ship; the umask applies), and checked on the open descriptor to be a regular file, so
 * nothing swapped in between a check and the open is written to. A FIFO (with a reader or not), a
 * device such as /dev/null, a directory, a socket or a symlink loop is refused in one line naming
 * the file and what it is. A symlink to a regular file is appended to as the file.
 *
 * Every failure is an AppendFileError whose message is that one line.
 */
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { fileProblem } from "./file-problem.js";
import { fileKind } from "./named-file.js";

export class AppendFileError extends Error {
  constructor(
    message: string,
    /** Something other than a regular file has the name: name another. */
    readonly notRegular = false,
  ) {
    super(message);
    this.name = "AppendFileError";
  }
}

const APPEND = constants.O_WRONLY | constants.O_APPEND | (constants.O_NONBLOCK ?? 0);
/** A log others may read (the umask applies). */
const MODE = 0o644;

export class AppendFile {
  private constructor(
    readonly path: string,
    private readonly what: string,
    private readonly fd: number,
    /** Whether opening created the file (nothing had its name). */
    readonly created: boolean,
  ) {}

  /**
   * Opens the regular file `path` to append to, creating it when nothing has the name. `what`
   * names it in every message ("--output-file"). Throws AppendFileError.
   */
  static open(path: string, what: string): AppendFile {
    const { fd, created } = openOrCreate(path, what);
    let stat: ReturnType<typeof fstatSync>;
    try {
      stat = fstatSync(fd);
    } catch (err) {
      closeSync(fd);
      throw new AppendFileError(
        `cannot open ${what} ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
      );
    }
    if (!stat.isFile()) {
      closeSync(fd);
      throw new AppendFileError(`${what} ${path} is ${fileKind(stat)}, not a regular file`, true);
    }
    return new AppendFile(path, what, fd, created);
  }

  /** The open file's status (its device, inode and size, as 64-bit numbers). */
  stat(): BigIntStats {
    return this.attempt("read", () => fstatSync(this.fd, { bigint: true }));
  }

  /** Appends `bytes` whole; flushed to disk when `flush`. */
  append(bytes: Buffer, flush: boolean): void {
    this.attempt("write", () => {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
      if (flush) fsyncSync(this.fd);
    });
  }

  /** Cuts the file back to `length` bytes, flushed to disk. */
  truncate(length: number): void {
    this.attempt("cut", () => {
      ftruncateSync(this.fd, length);
      fsyncSync(this.fd);
    });
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Closing after the last flush: nothing is lost.
    }
  }

  /**
   * Closes the file, and removes it when this open created it and it is still empty and still
   * under its name: a run that wrote nothing leaves nothing behind.
   */
  closeRemovingIfUnused(): void {
    try {
      if (!this.created) return;
      const held = fstatSync(this.fd, { bigint: true });
      if (held.size !== 0n) return;
      const named = statSync(this.path, { bigint: true });
      if (named.dev === held.dev && named.ino === held.ino) unlinkSync(this.path);
    } catch {
      // Gone already, or not ours to remove: left as it is.
    } finally {
      this.close();
    }
  }

  private attempt<T>(doing: string, f: () => T): T {
    try {
      return f();
    } catch (err) {
      throw new AppendFileError(
        `cannot ${doing} ${this.what} ${this.path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
      );
    }
  }
}

/**
 * Opens `path` to append to, or, when nothing has the name, creates it exclusively (so
 * `created` is true only for a file this open made); tried again if another process created it
 * in between.
 */
function openOrCreate(path: string, what: string): { fd: number; created: boolean } {
  for (let tries = 0; ; tries++) {
    try {
      return { fd: openSync(path, APPEND), created: false };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw openFailure(err, path, what);
    }
    try {
      return {
        fd: openSync(path, APPEND | constants.O_CREAT | constants.O_EXCL, MODE),
        created: true,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || tries >= 3)
        throw openFailure(err, path, what);
    }
  }
}

function openFailure(err: unknown, path: string, what: string): AppendFileError {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case "ELOOP":
      return new AppendFileError(
        `${what} ${path} is a symlink loop (too many levels of symbolic links)`,
        true,
      );
    case "EISDIR":
      return new AppendFileError(`${what} ${path} is a directory, not a regular file`, true);
    case "ENXIO":
    case "EOPNOTSUPP": {
      // A FIFO no process reads (the open would have waited for one), or a socket.
      let is = "is not a regular file";
      try {
        const kind = fileKind(statSync(path));
        is = `is ${kind}${kind === "a FIFO" ? " no process reads" : ""}, not a regular file`;
      } catch {
        // Gone meanwhile: said as not a regular file.
      }
      return new AppendFileError(`${what} ${path} ${is}`, true);
    }
    default:
      return new AppendFileError(`cannot open ${what} ${path}: ${fileProblem(e)}`);
  }
}
