/**
 * `tail --checkpoint FILE` on disk: read at start (absent: a fresh follow; anything unusable: a
 * one-line error naming the fix), written after each batch has reached stdout, atomically
 * (temporary file, fsync, rename; mode 0600). One deployment's record, or several (format 2).
 */
import { removeStaleTempFiles, writeFileAtomically } from "../../config/atomic-file.js";
import {
  type NamedFileError,
  READ_LIMITS,
  readNamedFileIfExists,
} from "../../config/named-file.js";
import type { Checkpoint, CheckpointSet } from "../../tail/checkpoint.js";
import { parseCheckpoints } from "../../tail/checkpoint.js";
import { CliError } from "../cli-error.js";

/** The records FILE holds for the deployments followed (absent: none, a fresh follow). */
export function readCheckpoints(
  path: string,
  deploymentIds: readonly string[],
): Map<string, Checkpoint> | undefined {
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
  const parsed = parseCheckpoints(text, deploymentIds);
  if ("error" in parsed) throw new CliError(`checkpoint ${path} ${parsed.error}`, 2);
  return parsed.checkpoints;
}

export function readCheckpoint(path: string, deploymentId: string): Checkpoint | undefined {
  return readCheckpoints(path, [deploymentId])?.get(deploymentId);
}

export function writeCheckpoint(path: string, checkpoint: Checkpoint | CheckpointSet): void {
  try {
    writeFileAtomically(path, JSON.stringify(checkpoint));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`cannot write checkpoint ${path}: ${e.code ?? e.message}`, 1);
  }
}

/**
 * Writes a follow's records to FILE. The first failure to write one is kept, and `onFailure`
 * runs (the follow stops; the failure is said at its end); no record is written after it.
 */
export class CheckpointWriter<T extends Checkpoint | CheckpointSet> {
  error: unknown;

  constructor(
    private readonly path: string,
    private readonly onFailure: () => void,
  ) {}

  readonly record = (checkpoint: T): void => {
    if (this.error !== undefined) return;
    try {
      writeCheckpoint(this.path, checkpoint);
    } catch (e) {
      this.error = e;
      this.onFailure();
    }
  };
}
