/**
 * Where a follow of one deployment starts from: with --checkpoint, what the file recorded of it
 * and of --output-file (FILE cut back to it before anything else), the lines already handed on,
 * and what may be missing, said before the first lines.
 */
import type { FileLock } from "../../../config/file-lock.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { checkpointToResume } from "../../../ship/checkpoint-file.js";
import type { OutputFileOpened } from "../../../ship/output-file.js";
import { openOutputFile } from "../../../ship/output-file.js";
import type { ReadRecord } from "../../../tail/checkpoint.js";
import { HandledLines } from "../../../tail/handled-lines.js";
import type { TailFlags } from "./tail-flags.js";
import { checkpointMargin, firstWindowWords } from "./tail-options.js";

export interface TailResume {
  /** What the checkpoint recorded of the deployment. */
  recorded: ReadRecord | undefined;
  /** Whether the checkpoint recorded --output-file's length. */
  recordedOutputFile: boolean;
  /** --output-file, opened. */
  output: OutputFileOpened | undefined;
  /** The lines handed on so far, with --checkpoint. */
  handled: HandledLines | undefined;
  /** What may be missing: a cap the record hit, FILE cut by another program. */
  startGaps: LogEvent[];
}

export function resumeTail(
  flags: TailFlags,
  deploymentId: string,
  say: (line: string) => void,
  /** --output-file's lock (src/ship/tail-locks.ts). */
  outputLock?: FileLock | undefined,
): TailResume {
  const checkpointPath = flags.checkpoint;
  const read = checkpointToResume(
    { ...flags, firstWindow: firstWindowWords(flags) },
    [deploymentId],
    checkpointMargin(flags),
    say,
  );
  const recorded = read?.records.get(deploymentId);
  // --output-file: cut back to what the checkpoint recorded of it before anything is written to
  // it (once the first answer has shown the checkpoint's point can be resumed from).
  const output = openOutputFile(flags, read?.outputFile, say, () => Date.now(), outputLock);
  const handled = checkpointPath
    ? new HandledLines(deploymentId, {
        resumedFrom: recorded,
        onOverflow: (text) => say(`checkpoint ${checkpointPath}: ${text}`),
      })
    : undefined;
  const startGaps: LogEvent[] = [];
  const capGap = recorded ? HandledLines.gapMarker(recorded) : undefined;
  if (capGap) startGaps.push(capGap);
  if (output.gap) startGaps.push(output.gap);
  return {
    recorded,
    recordedOutputFile: read?.outputFile !== undefined,
    output: output.opened,
    handled,
    startGaps,
  };
}
