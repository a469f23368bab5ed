/**
 * `tail --checkpoint FILE` on disk: read at start (absent: a fresh follow; anything unusable: a
 * one-line error naming the fix), written after each batch has reached stdout, atomically
 * (temporary file, fsync, rename; mode 0600).
 */
import { readFileSync } from "node:fs";
import { removeStaleTempFiles, writeFileAtomically } from "../../config/atomic-file.js";
import type { Checkpoint } from "../../tail/checkpoint.js";
import { parseCheckpoint } from "../../tail/checkpoint.js";
import { CliError } from "../cli-error.js";

export function readCheckpoint(path: string, deploymentId: string): Checkpoint | undefined {
  // A follow killed while writing left its temporary file: the record itself is whole.
  removeStaleTempFiles(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") return undefined;
    throw new CliError(
      `cannot read checkpoint ${path}: ${e.code ?? e.message}: fix its permissions, or name another file`,
      2,
    );
  }
  const parsed = parseCheckpoint(text, deploymentId);
  if ("error" in parsed) throw new CliError(`checkpoint ${path} ${parsed.error}`, 2);
  return parsed.checkpoint;
}

export function writeCheckpoint(path: string, checkpoint: Checkpoint): void {
  try {
    writeFileAtomically(path, JSON.stringify(checkpoint));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`cannot write checkpoint ${path}: ${e.code ?? e.message}`, 1);
  }
}
