/**
 * `tail --checkpoint FILE` on disk: read at start (absent: a fresh follow; anything unusable: a
 * one-line error naming the fix), written after each batch has been handed on, atomically
 * (temporary file, fsync, rename; mode 0600). See ../tail/checkpoint.ts for what it holds.
 *
 * Its point is judged by the first answer (../tail/resume-point.ts): one ahead of the server's
 * clock or older than the server keeps logs ends the follow before anything is written, exit 2,
 * naming `--start-over`, which sets FILE's record aside (said on stderr, with what it skips).
 */

import { removeStaleTempFiles, writeFileAtomically } from "../config/atomic-file.js";
import type { FileLock } from "../config/file-lock.js";
import { type NamedFileError, READ_LIMITS, readNamedFileIfExists } from "../config/named-file.js";
import type { CheckpointFile, ReadCheckpoint } from "../tail/checkpoint.js";
import { parseCheckpoint, serializeCheckpoint } from "../tail/checkpoint.js";
import type { ResumeRefusedError } from "../tail/follower.js";
import { formatDuration } from "../text/duration.js";
import { ShipError } from "./ship-error.js";
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
    throw new ShipError(`${e.message}${fix}`, 2);
  }
  const parsed = parseCheckpoint(text, deploymentIds, legacyMarginMs, Date.now());
  if ("error" in parsed) throw new ShipError(`checkpoint ${path} ${parsed.error}`, 2);
  return parsed;
}

/**
 * `--checkpoint FILE`, `--start-over`, and where a follow starts without a record in words ("the
 * last 10m"), said when the record is set aside.
 */
export interface CheckpointChoice {
  checkpoint?: string | undefined;
  startOver?: boolean | undefined;
  firstWindow: string;
}

/**
 * What `--checkpoint` FILE holds for the deployments followed: nothing when there is no FILE,
 * or with `--start-over` (said on stderr, with what that skips).
 */
export function checkpointToResume(
  flags: CheckpointChoice,
  deploymentIds: readonly string[],
  legacyMarginMs: number,
  say: (line: string) => void,
): ReadCheckpoint | undefined {
  const path = flags.checkpoint;
  if (path === undefined) return undefined;
  if (!flags.startOver) return readCheckpoint(path, deploymentIds, legacyMarginMs);
  removeStaleTempFiles(path);
  say(
    `checkpoint ${path}: set aside (--start-over), starting from ${flags.firstWindow}: lines before that it had not handed on are skipped, and lines within it that it had handed on come again`,
  );
  return undefined;
}

/**
 * The one line a follow ends with when the checkpoint's point was refused (exit 2), naming
 * `--start-over` and what it would skip: `firstWindow`, where a follow without the record starts,
 * in words. `deploymentId`: over several deployments, whose record.
 */
export function refusedCheckpoint(
  err: ResumeRefusedError,
  path: string,
  firstWindow: string,
  deploymentId?: string,
): ShipError {
  const at = err.answeredAt;
  const clock = err.byDateHeader
    ? "the server's clock by its Date header"
    : "the clock it was recorded on (the server sends no Date header: this machine's, with the offset recorded)";
  const whose = deploymentId === undefined ? "" : ` deployment ${deploymentId}`;
  const fix = `pass --start-over to set it aside and start from ${firstWindow} (lines before that it had not handed on are skipped), or name another file`;
  const point = `checkpoint ${path} resumes${whose} from ${timeText(err.fromMs)}`;
  if (err.refusal === "ahead") {
    return new ShipError(
      `${point}, ${spanText(err.fromMs - at.high)} ahead of ${clock} (${timeText(at.high)}), so resuming would skip the lines since its real point: ${fix}`,
      2,
    );
  }
  return new ShipError(
    `${point}, ${spanText(at.low - err.fromMs)} before ${clock} (${timeText(at.low)}), further back than the server keeps logs (${spanText(err.retentionMs)}): those lines can no longer be read; ${fix}`,
    2,
  );
}

/** A span as people read it: 850ms, 30s, 2h5m; past a day, in days and hours: 8d, 7d23h. */
function spanText(ms: number): string {
  if (ms < 86_400_000) return formatDuration(ms);
  const hours = Math.round(ms / 3_600_000);
  return hours % 24 ? `${Math.floor(hours / 24)}d${hours % 24}h` : `${hours / 24}d`;
}

/** An epoch-ms time as RFC 3339 in UTC, to the second. */
function timeText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export function writeCheckpoint(path: string, checkpoint: CheckpointFile): void {
  try {
    writeFileAtomically(path, serializeCheckpoint(checkpoint));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new ShipError(`cannot write checkpoint ${path}: ${e.code ?? e.message}`, 1);
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
