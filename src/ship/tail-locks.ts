/**
 * One writer per checkpoint and per output file: `tail` locks `--checkpoint FILE` and
 * `--output-file FILE` (../config/file-lock.ts) before it reads either, and holds the locks
 * until it exits. A second follow of either file is refused at its start, exit 2, naming the
 * process that holds it. The checkpoint is locked by its name (it is replaced by rename: a
 * symlink at the name is replaced, not followed), the output file by the file its name leads to
 * (it is appended to through symlinks).
 */

import { FileLock, FileLockError } from "../config/file-lock.js";
import { resolvedFile, resolvedName } from "../config/resolved-path.js";
import { ShipError } from "./ship-error.js";

export interface TailLocks {
  checkpoint: FileLock | undefined;
  output: FileLock | undefined;
  release(): void;
}

/** Takes the locks `flags` call for, or throws the one line why not (exit 2). */
export function lockTailFiles(flags: {
  checkpoint?: string | undefined;
  outputFile?: string | undefined;
}): TailLocks {
  const taken: FileLock[] = [];
  const take = (path: string, what: string) => {
    try {
      const lock = FileLock.take(path, what);
      taken.push(lock);
      return lock;
    } catch (err) {
      for (const l of taken) l.release();
      if (err instanceof FileLockError) throw new ShipError(err.message, 2);
      throw err;
    }
  };
  const checkpoint =
    flags.checkpoint === undefined
      ? undefined
      : take(resolvedName(flags.checkpoint), `checkpoint ${flags.checkpoint}`);
  const output =
    flags.outputFile === undefined
      ? undefined
      : take(resolvedFile(flags.outputFile), `--output-file ${flags.outputFile}`);
  return {
    checkpoint,
    output,
    release: () => {
      for (const l of taken) l.release();
    },
  };
}

/** The error a follow stops with when its lock was removed or taken while it ran. */
export function lostLock(lock: FileLock, what: string): ShipError {
  return new ShipError(
    `${what}: its lock ${lock.path} was removed or taken by another process while following: stopped, so that two followers never write one file`,
    1,
  );
}
