/**
 * The one way to write a file: no reader ever sees it half written, no crash leaves it torn, and
 * nothing planted in a shared directory (mode 1777, /tmp) can redirect the write.
 *
 * writeFileAtomically replaces a file: a temporary file beside it, `.NAME.<pid>.<16 hex>.tmp`
 * (the pid says whose it is, the random part makes the name unguessable), created with
 * O_CREAT|O_EXCL|O_NOFOLLOW and its mode from the start (0600 unless said), so no symlink or
 * file planted at that name is followed or reused; written, flushed to disk, renamed over the
 * file, and the directory flushed. On any failure the temporary file is removed.
 *
 * writeNewFile writes a file that must not exist yet (`S` in the dashboard, key files): the name
 * itself created exclusively, never overwriting anything, a symlink included.
 *
 * claimName makes a file under a name only if nothing has it, and whole: written to a temporary
 * file first and hard-linked to the name (which fails when it is taken), so no reader and no crash
 * ever finds it half written (a lock, ./file-lock.ts).
 *
 * removeStaleTempFiles removes the temporary files of a process killed mid-write.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export interface WriteOptions {
  /** The file's permission bits from its creation; default 0600 (owner only). */
  mode?: number;
}

const CREATE_EXCLUSIVE =
  constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0);

/** The temporary name a write of `path` by process `pid` uses, with its random part. */
export function tempPathOf(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.${randomBytes(8).toString("hex")}.tmp`);
}

/** Replaces `path` with `text` atomically; see the file comment. Throws the errno error. */
export function writeFileAtomically(path: string, text: string, options: WriteOptions = {}): void {
  const temp = tempPathOf(path);
  createFlushed(temp, text, options.mode ?? 0o600);
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dirname(path));
}

/**
 * Writes `text` to `path`, which must not exist (EEXIST otherwise, whatever has the name: a
 * file, a directory, a symlink); flushed, with the directory. On a failure after creating it,
 * the partial file is removed.
 */
export function writeNewFile(path: string, text: string, options: WriteOptions = {}): void {
  createFlushed(path, text, options.mode ?? 0o600);
  syncDirectory(dirname(path));
}

/**
 * Makes `path` hold `text`, whole, unless something has the name (a file, a directory, a
 * symlink): true when it did, false when the name is taken. Throws any other errno error. On a
 * file system without hard links the name itself is created exclusively and written.
 */
export function claimName(path: string, text: string, options: WriteOptions = {}): boolean {
  const mode = options.mode ?? 0o600;
  const temp = tempPathOf(path);
  createFlushed(temp, text, mode);
  try {
    linkSync(temp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw err;
    try {
      createFlushed(path, text, mode);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    }
  } finally {
    rmSync(temp, { force: true });
  }
  syncDirectory(dirname(path));
  return true;
}

/** Creates `path` exclusively, writes `text` whole, flushes and closes it; removed on any failure. */
function createFlushed(path: string, text: string, mode: number): void {
  const fd = openSync(path, CREATE_EXCLUSIVE, mode);
  let open = true;
  try {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
    open = false;
    closeSync(fd);
  } catch (err) {
    if (open) {
      try {
        closeSync(fd);
      } catch {
        // The write's own error is the one to report.
      }
    }
    rmSync(path, { force: true });
    throw err;
  }
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Removes the temporary files of `path` that a process killed mid-write left behind: names of
 * our pattern (`.NAME.<pid>.<16 hex>.tmp`, or `.NAME.<pid>.tmp` of earlier versions) whose
 * process is gone (its pid not running, or this process's own: its writes finish before it
 * does anything else), that are regular files owned by this user. Nothing else is touched.
 * Returns the names removed.
 */
export function removeStaleTempFiles(path: string): string[] {
  const pattern = new RegExp(
    `^\\.${escapeRegExp(basename(path))}\\.(\\d+)(?:\\.[0-9a-f]{16})?\\.tmp$`,
  );
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // No directory yet: the first write names the problem.
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined) continue;
    if (Number(pid) !== process.pid && isRunning(Number(pid))) continue;
    const full = join(dir, name);
    try {
      const stat = lstatSync(full);
      if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) continue;
      rmSync(full, { force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
