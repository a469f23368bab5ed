/**
 * Files a person named (a config file, key files, logs to open): read with one-line errors saying
 * why not.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
} from "node:fs";
import { fileProblem } from "./file-problem.js";

/** Throws a one-line Error unless `path` is a regular file (not a directory or a device). */
export function assertRegularFile(path: string, what: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`);
  }
  if (stat.isDirectory()) throw new Error(`${what} ${path} is a directory, not a file`);
  if (!stat.isFile()) throw new Error(`${what} ${path} is not a regular file`);
}

/** Reads a text file a person named, or throws one line saying why it cannot be read. */
export function readTextFile(path: string, what: string): string {
  assertRegularFile(path, what);
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`);
  }
}

/** What a file is, in words, from its stat: "a FIFO", "a character device", "a directory", ... */
export function describeFileKind(stat: Stats): string {
  if (stat.isFile()) return "a regular file";
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

/** A log opened to be read in pieces: a regular file (by position) or a FIFO (as a stream). */
export interface NamedLog {
  fd: number;
  kind: "file" | "fifo";
  /** The open descriptor's stat: size, device and inode. */
  stat: Stats;
}

const NONBLOCKING_READ =
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function logOpenProblem(err: NodeJS.ErrnoException, path: string, what: string): Error {
  const at = `${what} ${path}`;
  switch (err.code) {
    case "ENOENT":
      return new Error(`${at} does not exist`);
    case "ELOOP":
      return new Error(`${at} is a symlink loop (too many levels of symbolic links)`);
    case "EISDIR":
      return new Error(`${at} is a directory, not a regular file`);
    default:
      return new Error(`cannot read ${at}: ${fileProblem(err)}`);
  }
}

/**
 * Opens a log a person named to be read in pieces (it may be larger than memory, or still being
 * written), checked as every named file is: opened without blocking (a FIFO with no writer does
 * not hang the open), then judged on the open descriptor. A regular file is read by position. A
 * FIFO is taken only when `fifo` allows it, as a stream to follow: it is opened again read-write
 * (checked to be the same FIFO) so that writers coming and going never end it. Anything else (a
 * device such as /dev/zero, a directory, a socket) is refused in one line naming the file and
 * what it is. Throws an Error whose message is that line; the caller closes `fd`.
 */
export function openNamedLog(path: string, what: string, options: { fifo: boolean }): NamedLog {
  let fd: number;
  try {
    fd = openSync(path, NONBLOCKING_READ);
  } catch (err) {
    throw logOpenProblem(err as NodeJS.ErrnoException, path, what);
  }
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw logOpenProblem(err as NodeJS.ErrnoException, path, what);
  }
  if (stat.isFile()) return { fd, kind: "file", stat };
  if (!stat.isFIFO() || !options.fifo) {
    closeSync(fd);
    throw new Error(`${what} ${path} is ${describeFileKind(stat)}, not a regular file`);
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
    throw new Error(`${what} ${path} changed while it was being opened`);
  }
  return { fd: rw, kind: "fifo", stat: again };
}
