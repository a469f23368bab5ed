/**
 * One writer per file: `tail --checkpoint FILE` and `--output-file FILE` hold `FILE.lock` while
 * they run, so a second follow of the same file is refused at its start, naming the process
 * that holds it, instead of the two writing over each other.
 *
 * The lock is a small JSON file beside FILE: the holder's pid, host and start, and (on Linux)
 * the boot and the process's start time, which tell a process that still runs from another that
 * was given its pid since. It is made whole before it takes the name (a temporary file linked to
 * `FILE.lock`, which fails when the name is taken), so no crash leaves half a lock. A lock whose
 * holder is gone (killed with SIGKILL, a reboot) is stale: it is removed, provided it is still
 * the one judged, and taken. One taken on another host cannot be judged from here and counts as
 * held. The holder removes its lock when it exits (even through an error); after a SIGKILL the
 * next start finds it stale.
 *
 * Failures are FileLockError, whose message is one line naming the file, the holder and the fix.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { claimName, removeStaleTempFiles } from "./atomic-file.js";
import { fileProblem } from "./file-problem.js";
import { NamedFileError, readNamedFile, readNamedFileIfExists } from "./named-file.js";

/** What a lock says of its holder. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock, RFC 3339. */
  since: string;
  /** Linux: the boot it ran in, and its start time in clock ticks since that boot. */
  boot?: string | undefined;
  start?: string | undefined;
  /** Random: tells this taking of the lock from any other, whatever the file's inode. */
  token?: string | undefined;
}

export class FileLockError extends Error {
  constructor(
    message: string,
    /** The process holding the lock, when one does. */
    readonly holder?: LockHolder,
  ) {
    super(message);
    this.name = "FileLockError";
  }
}

/** A lock file holds a few fields; more is not one of ours. */
const MAX_LOCK_BYTES = 4096;
/** Stale locks removed in a row before giving up (another process keeps making them). */
const MAX_TRIES = 5;

/** The lock of `path`. */
export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

export class FileLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(
    /** The lock file. */
    readonly path: string,
    /** What it holds (unique to this taking: see LockHolder.token). */
    private readonly text: string,
  ) {
    process.once("exit", this.onExit);
  }

  /**
   * Takes the lock of `path` (see the file comment). `what` names the file in messages
   * ("checkpoint x.checkpoint"). Throws FileLockError when another process holds it or it cannot
   * be taken.
   */
  static take(path: string, what: string): FileLock {
    const lock = lockPathOf(path);
    // A start killed while making its lock left the temporary file.
    removeStaleTempFiles(lock);
    const me = currentHolder();
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const text = `${JSON.stringify(me)}\n`;
      if (tryCreate(lock, text, what)) return new FileLock(lock, text);
      const found = readLock(lock, what);
      if (found === "gone") continue;
      if (found.holder === undefined) {
        throw new FileLockError(
          `${what} has a lock ${lock} that is no tvcwatch lock: if no tvcwatch uses ${path}, delete ${lock}`,
        );
      }
      const holder = found.holder;
      if (holder.host !== me.host) {
        throw new FileLockError(
          `${what} is in use by tvcwatch PID ${holder.pid} on host ${holder.host} (since ${holder.since}): stop it first, or if it is no longer running there, delete ${lock}`,
          holder,
        );
      }
      if (isRunning(holder)) {
        throw new FileLockError(
          `${what} is in use by tvcwatch PID ${holder.pid} (since ${holder.since}): stop it first, or name another file`,
          holder,
        );
      }
      // Stale: its holder is gone. Removed only if it is still the lock just read.
      removeIfSame(lock, found.text as string);
    }
    throw new FileLockError(
      `${what}: could not take its lock ${lock} (other processes keep taking it): try again`,
    );
  }

  /** Whether the lock file is still this one (nobody removed or replaced it). */
  held(): boolean {
    if (this.released) return false;
    try {
      const found = readLock(this.path, this.path);
      return found !== "gone" && found.text === this.text;
    } catch {
      return false;
    }
  }

  /** Removes the lock file, if it is still this one. */
  release(): void {
    if (this.released) return;
    process.off("exit", this.onExit);
    if (this.held()) rmSync(this.path, { force: true });
    this.released = true;
  }
}

/** This process, as its lock says it. */
function currentHolder(): LockHolder {
  const { boot, start } = processIdentity(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...(boot !== undefined && start !== undefined ? { boot, start } : {}),
    token: randomBytes(8).toString("hex"),
  };
}

/** Makes `lock` hold `text`, whole, unless another lock has the name (false then). */
function tryCreate(lock: string, text: string, what: string): boolean {
  try {
    return claimName(lock, text);
  } catch (err) {
    throw new FileLockError(
      `cannot lock ${what}: ${lock}: ${fileProblem(err as NodeJS.ErrnoException)}`,
    );
  }
}

/**
 * The lock at `lock` as found: its text and holder (undefined: not a lock of ours: a symlink,
 * a directory, or text of another kind); or gone.
 */
function readLock(
  lock: string,
  what: string,
): { holder: LockHolder | undefined; text: string | undefined } | "gone" {
  try {
    if (!lstatSync(lock).isFile()) return { holder: undefined, text: undefined };
    const text = readNamedFileIfExists(lock, `the lock of ${what}`, MAX_LOCK_BYTES)?.text;
    return text === undefined ? "gone" : { holder: holderOf(text), text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    // Too large (or swapped for something else meanwhile): not a lock of ours.
    if (err instanceof NamedFileError && err.failure !== "unreadable")
      return { holder: undefined, text: undefined };
    throw new FileLockError(
      err instanceof NamedFileError
        ? err.message
        : `cannot read the lock of ${what}: ${lock}: ${fileProblem(err as NodeJS.ErrnoException)}`,
    );
  }
}

const DIGITS = /^\d{1,20}$/;
const PRINTABLE = /^[\x21-\x7e]{1,255}$/;

/** The holder a lock's text names, or undefined when it is not a lock of ours. */
function holderOf(text: string): LockHolder | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const h = v as Partial<LockHolder> | null;
  if (
    !h ||
    typeof h !== "object" ||
    !Number.isSafeInteger(h.pid) ||
    (h.pid as number) <= 0 ||
    typeof h.host !== "string" ||
    !PRINTABLE.test(h.host) ||
    typeof h.since !== "string" ||
    Number.isNaN(Date.parse(h.since)) ||
    (h.boot !== undefined && (typeof h.boot !== "string" || !PRINTABLE.test(h.boot))) ||
    (h.start !== undefined && (typeof h.start !== "string" || !DIGITS.test(h.start)))
  )
    return undefined;
  return {
    pid: h.pid as number,
    host: h.host,
    since: new Date(Date.parse(h.since)).toISOString(),
    ...(h.boot !== undefined && h.start !== undefined ? { boot: h.boot, start: h.start } : {}),
  };
}

/** Whether the lock's holder still runs: its pid is alive and, where known, is still that process. */
function isRunning(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = processIdentity(holder.pid);
  // A zombie has exited: only its parent has yet to hear of it.
  if (now.zombie) return false;
  if (holder.boot === undefined || holder.start === undefined) return true;
  if (now.boot === undefined || now.start === undefined) return true;
  return now.boot === holder.boot && now.start === holder.start;
}

const BOOT_ID = "/proc/sys/kernel/random/boot_id";

/**
 * Linux: the boot's id, the process's start time (clock ticks since boot) and whether it is a
 * zombie (exited, not yet waited for); else nothing.
 */
function processIdentity(pid: number): { boot?: string; start?: string; zombie?: boolean } {
  try {
    const boot = readNamedFile(BOOT_ID, "the boot id", MAX_LOCK_BYTES).text.trim();
    const stat = readNamedFile(`/proc/${pid}/stat`, "a process's record", MAX_LOCK_BYTES).text;
    // Fields after the command (in parentheses, which may itself hold spaces and parentheses):
    // the state is field 3, the start time field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = fields[19];
    if (!PRINTABLE.test(boot) || start === undefined || !DIGITS.test(start)) return {};
    return { boot, start, zombie: fields[0] === "Z" };
  } catch {
    return {};
  }
}

/** Removes `lock` if it still holds `text` (else another process took it meanwhile). */
function removeIfSame(lock: string, text: string): void {
  const now = readLock(lock, lock);
  if (now !== "gone" && now.text === text) rmSync(lock, { force: true });
}
