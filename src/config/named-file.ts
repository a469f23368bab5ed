/**
 * The one way to read a file a person named (a config file, key files, a checkpoint, a body, a
 * simulator's state): opened without blocking (a FIFO with no writer does not hang the open),
 * checked on the open descriptor to be a regular file (a FIFO, a device such as /dev/zero, a
 * directory or a socket is refused, in one line naming the file and what it is), and read up to
 * a cap for its kind. A symlink to a regular file is read as the file; a symlink loop is named.
 * Every failure is a NamedFileError whose message is that one line. A log to read in pieces (it
 * may be larger than memory, or still being written) is opened the same way by openNamedLog, and
 * its name looked at again (to follow it as `tail -F` does) by namedFileIdentity.
 */
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  lstatSync,
  openSync,
  type ReadStream,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { isatty } from "node:tty";
import { formatByteSize } from "../text/byte-size.js";

const KiB = 1024;
const MiB = 1024 * KiB;

/** The most bytes read of each kind of file a person names. */
export const READ_LIMITS = {
  /** A config file: a few settings. */
  config: 1 * MiB,
  /** A key file: one line of hex. */
  key: 64 * KiB,
  /** `tail --checkpoint`: the identities of the lines inside the overlap, per deployment. */
  checkpoint: 64 * MiB,
  /** `call --body-file`: a body (the server refuses one over its own limit; the simulator, 4 MiB). */
  body: 16 * MiB,
  /** `sim --state`: the organization, every activity included. */
  state: 256 * MiB,
} as const;

export type NamedFileFailure =
  | "missing"
  | "not-regular"
  | "too-large"
  | "symlink-loop"
  | "unreadable";

export class NamedFileError extends Error {
  constructor(
    message: string,
    readonly failure: NamedFileFailure,
    /** The errno code when the open or a read failed (ENOENT, EACCES, ELOOP, ...). */
    readonly code?: string | undefined,
  ) {
    super(message);
    this.name = "NamedFileError";
  }
}

export interface NamedFile {
  text: string;
  /** The permission bits, as the descriptor read has them (0o600). */
  mode: number;
}

export interface ReadOptions {
  /** Added after the refusal of a directory: what to name instead (`e.g. DIR/config.json`). */
  directoryHint?: string | undefined;
}

/**
 * Whether anything has the name `path` (a file, a directory, a FIFO, a symlink, even a dangling
 * one or a loop): a default location in use, to be read (and refused) rather than passed over.
 */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What a file is, in words, from its stat: "a FIFO", "a character device", "a directory", ... */
export function fileKind(stat: Stats): string {
  if (stat.isFile()) return "a regular file";
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** An open or read failure as the one line said about it. */
function failureOf(err: NodeJS.ErrnoException, path: string, what: string): NamedFileError {
  const at = `${what} ${path}`;
  switch (err.code) {
    case "ENOENT":
      return new NamedFileError(`${at} does not exist`, "missing", err.code);
    case "ELOOP":
      return new NamedFileError(
        `${at} is a symlink loop (too many levels of symbolic links)`,
        "symlink-loop",
        err.code,
      );
    case "ENOTDIR":
      return new NamedFileError(
        `cannot read ${at}: a part of its path is a file, not a directory`,
        "missing",
        err.code,
      );
    case "EACCES":
    case "EPERM":
      return new NamedFileError(`cannot read ${at}: permission denied`, "unreadable", err.code);
    case "EISDIR":
      return new NamedFileError(
        `${at} is a directory, not a regular file`,
        "not-regular",
        err.code,
      );
    case "ENAMETOOLONG":
      return new NamedFileError(`cannot read ${at}: its name is too long`, "unreadable", err.code);
    default:
      return new NamedFileError(
        `cannot read ${at}: ${err.code ?? err.message}`,
        "unreadable",
        err.code,
      );
  }
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads the regular file `path` (at most `maxBytes`) as UTF-8. `what` names it in every message
 * ("config file", "--checkpoint"). Throws NamedFileError.
 */
export function readNamedFile(
  path: string,
  what: string,
  maxBytes: number,
  options: ReadOptions = {},
): NamedFile {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    throw failureOf(err as NodeJS.ErrnoException, path, what);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const hint = stat.isDirectory() && options.directoryHint ? `; ${options.directoryHint}` : "";
      throw new NamedFileError(
        `${what} ${path} is ${fileKind(stat)}, not a regular file${hint}`,
        "not-regular",
      );
    }
    if (stat.size > maxBytes) throw tooLarge(path, what, maxBytes, stat.size);
    return { text: readUpTo(fd, maxBytes, stat.size, path, what), mode: stat.mode & 0o777 };
  } catch (err) {
    if (err instanceof NamedFileError) throw err;
    throw failureOf(err as NodeJS.ErrnoException, path, what);
  } finally {
    closeSync(fd);
  }
}

/** The same, or undefined when the file does not exist (a checkpoint or a state not yet written). */
export function readNamedFileIfExists(
  path: string,
  what: string,
  maxBytes: number,
  options: ReadOptions = {},
): NamedFile | undefined {
  try {
    return readNamedFile(path, what, maxBytes, options);
  } catch (err) {
    if (err instanceof NamedFileError && err.code === "ENOENT") return undefined;
    throw err;
  }
}

function tooLarge(path: string, what: string, maxBytes: number, size?: number): NamedFileError {
  const is = size === undefined ? "is larger than" : `is ${formatByteSize(size)}, more than`;
  return new NamedFileError(
    `${what} ${path} ${is} the ${formatByteSize(maxBytes)} tvcwatch reads of one`,
    "too-large",
  );
}

/** The bytes of `fd` up to its end, refusing more than `maxBytes` (the file may grow meanwhile). */
function readUpTo(
  fd: number,
  maxBytes: number,
  sizeHint: number,
  path: string,
  what: string,
): string {
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(sizeHint + 1, 64 * KiB)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw tooLarge(path, what, maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) throw tooLarge(path, what, maxBytes);
  return buffer.toString("utf8", 0, length);
}

/** A log opened to be read in pieces: a regular file (by position) or a FIFO (as a stream). */
export interface NamedLog {
  fd: number;
  kind: "file" | "fifo";
  /** The open descriptor's stat: size, device and inode. */
  stat: Stats;
}

/**
 * Opens a log a person named to be read in pieces (it may be larger than memory, or still being
 * written), checked as every named file is: opened without blocking (a FIFO with no writer does
 * not hang the open), then judged on the open descriptor. A regular file is read by position. A
 * FIFO is taken only when `fifo` allows it, as a stream to follow: it is opened again read-write
 * (checked to be the same FIFO) so that writers coming and going never end it. Anything else (a
 * device such as /dev/zero, a directory, a socket) is refused in one line naming the file and
 * what it is. Throws NamedFileError; the caller closes `fd`.
 */
export function openNamedLog(path: string, what: string, options: { fifo: boolean }): NamedLog {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    throw failureOf(err as NodeJS.ErrnoException, path, what);
  }
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw failureOf(err as NodeJS.ErrnoException, path, what);
  }
  if (stat.isFile()) return { fd, kind: "file", stat };
  if (!stat.isFIFO() || !options.fifo) {
    closeSync(fd);
    throw new NamedFileError(
      `${what} ${path} is ${fileKind(stat)}, not a regular file`,
      "not-regular",
    );
  }
  let rw: number;
  try {
    rw = openSync(path, constants.O_RDWR | (constants.O_NONBLOCK ?? 0));
  } catch {
    // Not writable by us: read it as it is (it ends when its last writer closes it).
    return { fd, kind: "fifo", stat };
  }
  const again = fstatSync(rw);
  closeSync(fd);
  if (!again.isFIFO() || again.ino !== stat.ino || again.dev !== stat.dev) {
    closeSync(rw);
    throw new NamedFileError(`${what} ${path} changed while it was being opened`, "unreadable");
  }
  return { fd: rw, kind: "fifo", stat: again };
}

/**
 * What a log's name names now, for following the name as `tail -F` does: the device and inode
 * of what it leads to (symlinks followed; nothing is opened, so a FIFO does not block), or
 * undefined when nothing has the name (removed, or renamed away). Throws NamedFileError for
 * anything else (a loop, no permission).
 */
export function namedFileIdentity(
  path: string,
  what: string,
): { dev: number; ino: number } | undefined {
  try {
    const stat = statSync(path);
    return { dev: stat.dev, ino: stat.ino };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw failureOf(err as NodeJS.ErrnoException, path, what);
  }
}

/**
 * Bytes of a log openNamedLog opened as a regular file (or standard input redirected from one),
 * read by position into `buffer` from `offset`: at most `length`, fewer at its end. Returns how
 * many were read.
 */
export function readLogAt(
  fd: number,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): number {
  return readSync(fd, buffer, offset, length, position);
}

/** An opened log's bytes from its start as a stream (a `.gz` file, read whole through gunzip). */
export function logStream(fd: number, closeWhenDone: boolean): ReadStream {
  return createReadStream("", { fd, start: 0, autoClose: closeWhenDone });
}

/**
 * The controlling terminal (/dev/tty), opened read-only for keys when standard input is not the
 * terminal (`tvcwatch open -` reads the log from it): a descriptor checked to be a terminal, or
 * undefined when there is none. Not a log: never read by the reading functions above.
 */
export function openTerminalForKeys(): number | undefined {
  let fd: number;
  try {
    fd = openSync("/dev/tty", constants.O_RDONLY | (constants.O_NOCTTY ?? 0));
  } catch {
    return undefined;
  }
  if (isatty(fd)) return fd;
  closeSync(fd);
  return undefined;
}
