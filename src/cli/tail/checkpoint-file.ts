/**
 * `tail --checkpoint FILE` on disk: read at start (absent: a fresh follow; anything unusable: a
 * one-line error naming the fix), written after each batch has been handed on, atomically
 * (temporary file, fsync, rename; mode 0600). See ../../tail/checkpoint.ts for what it holds.
 */
import { removeStaleTempFiles, writeFileAtomically } from "../../config/atomic-file.js";
import type { FileLock } from "../../config/file-lock.js";
import {
  type NamedFileError,
  READ_LIMITS,
  readNamedFileIfExists,
} from "../../config/named-file.js";
import type { CheckpointFile, ReadCheckpoint } from "../../tail/checkpoint.js";
import { parseCheckpoint, serializeCheckpoint } from "../../tail/checkpoint.js";
import { CliError } from "../cli-error.js";
import { lostLock } from "./tail-locks.js";

/**
 * What FILE holds for the deployments followed (absent: nothing, a fresh follow).
 * `legacyMarginMs`: the margin a checkpoint of format 1 or 2 resumes with.
 */
export function readCheckpoint(
  path: string,
  deploymentIds: readonly string[],
  legacyMarginMs: number,
): ReadCheckpoint | undefined {
  // A follow killed while writing left its temporary file: the record itself is whole.
  removeStaleTempFiles(path);
  let text: string;
  try {
    const read = readNamedFileIfExists(path, "--checkpoint", READ_LIMITS.checkpoint);
    if (read === undefined) return undefined;
    text = read.text;
  } catch (err) {
    const e = err as NamedFileError;
    const fix = e.failure === "unreadable" ? ": fix its permissions, or name another file" : "";
    throw new CliError(`${e.message}${fix}`, 2);
  }
  const parsed = parseCheckpoint(text, deploymentIds, legacyMarginMs, Date.now());
  if ("error" in parsed) throw new CliError(`checkpoint ${path} ${parsed.error}`, 2);
  return parsed;
}

export function writeCheckpoint(path: string, checkpoint: CheckpointFile): void {
  try {
    writeFileAtomically(path, serializeCheckpoint(checkpoint));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`cannot write checkpoint ${path}: ${e.code ?? e.message}`, 1);
  }
}

/**
 * Writes a follow's records to FILE, while it holds FILE's lock (./tail-locks.ts). The first
 * failure to write one, or the lock found removed or taken by another process, is kept, and
 * `onFailure` runs (the follow stops; the failure is said at its end); no record is written
 * after it.
 */
export class CheckpointWriter {
  error: unknown;

  constructor(
    private readonly path: string,
    private readonly onFailure: () => void,
    private readonly lock?: FileLock | undefined,
  ) {}

  readonly record = (checkpoint: CheckpointFile): void => {
    if (this.error !== undefined) return;
    try {
      if (this.lock && !this.lock.held()) throw lostLock(this.lock, `checkpoint ${this.path}`);
      writeCheckpoint(this.path, checkpoint);
    } catch (e) {
      this.error = e;
      this.onFailure();
    }
  };
}
