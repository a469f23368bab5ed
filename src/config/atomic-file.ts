/**
 * Writing a file so that no reader ever sees it half written, and no crash leaves it torn: a
 * temporary file beside it (`.NAME.<pid>.tmp`, owner-only), flushed to disk, renamed over it,
 * and the directory flushed. A temporary file left by a process killed mid-write is removed by
 * removeStaleTempFiles.
 */
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

const tempFileOf = (path: string, pid: number) =>
  join(dirname(path), `.${basename(path)}.${pid}.tmp`);

/**
 * Removes the temporary files of `path` that processes killed mid-write left behind (their pid
 * is not running, or is this process's own from an earlier life). Returns the names removed.
 */
export function removeStaleTempFiles(path: string): string[] {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return []; // No directory yet: the first write names the problem.
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = name.slice(prefix.length, -".tmp".length);
    if (!/^\d+$/.test(pid)) continue;
    if (Number(pid) !== process.pid && isRunning(Number(pid))) continue;
    rmSync(join(dirname(path), name), { force: true });
    removed.push(name);
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

/** Replaces `path` with `text` atomically, mode 0600; see the file comment. */
export function writeFileAtomically(path: string, text: string): void {
  const dir = dirname(path);
  const temp = tempFileOf(path, process.pid);
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dir);
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
