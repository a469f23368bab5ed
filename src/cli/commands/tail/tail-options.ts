/**
 * What `tail`'s flags mean to its followers and to how lines print, for one deployment
 * (./run-tail.ts) and several (./follow-many.ts): the first window, the merge hold-back, where a
 * checkpoint resumes, and the stream's format.
 */

import type { FieldColumns } from "../../../logs/formats/field-columns.js";
import type { StreamFormat } from "../../../logs/formats/stream-format.js";
import { type ReadRecord, resumePointOf } from "../../../tail/checkpoint.js";
import { shouldColour } from "../../../text/colour.js";
import { formatDuration } from "../../../text/duration.js";
import { CliError } from "../../cli-error.js";
import { DEFAULT_SINCE_MS, type TailWindow, tailWindow } from "../../time-range.js";
import { withHighlight } from "./tail-filter.js";
import type { TailFlags } from "./tail-flags.js";

/** The merge hold-back of the stream (it grows, up to --overlap, if lines arrive later). */
export const TAIL_HOLD_BACK_MS = 1000;
/** How long Turnkey keeps debug logs (--since's limit): a checkpoint older than this left a gap. */
const RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * `--fields` makes text columns: refused with -o json or otlp, and with --timestamps. The columns
 * (and the terminal-width tables they measure cells with) are loaded only for `--fields`.
 */
async function columnsOf(flags: TailFlags): Promise<FieldColumns | undefined> {
  const fields = flags.fields;
  if (fields === undefined) return undefined;
  if (flags.output !== "text")
    throw new CliError(
      `--fields prints text columns; -o ${flags.output} prints every field: leave one of them out`,
      2,
    );
  if (flags.timestamps)
    throw new CliError(
      "--fields takes time as a column: name it (--fields time,...) instead of --timestamps",
      2,
    );
  const { FieldColumns } = await import("../../../logs/formats/field-columns.js");
  return new FieldColumns(fields, { utc: flags.utc === true });
}

/** How lines are printed, from the flags (-o otlp prints gaps as text on stderr). */
export async function streamFormatOf(flags: TailFlags): Promise<StreamFormat> {
  const columns = await columnsOf(flags);
  const format = withHighlight(
    {
      output: flags.output === "json" ? "json" : "text",
      timestamps: flags.timestamps === true,
      utc: flags.utc === true,
      // A file is no terminal, whatever stdout is (or FORCE_COLOR says).
      colour:
        flags.output === "text" &&
        flags.outputFile === undefined &&
        shouldColour(process.stdout.isTTY),
    },
    flags.highlight,
  );
  return columns ? { ...format, columns } : format;
}

/**
 * The first window and the range of lines handed on: `--since` / `--until` / `--tail` (10 minutes
 * without them), checked against each other (../../time-range.ts). `now`: when the command began.
 */
export function firstWindow(
  flags: Pick<TailFlags, "since" | "until" | "tail" | "follow" | "utc">,
  now: number,
): TailWindow {
  return tailWindow(flags, now);
}

/** The first window in words: "the last 10m", "20:33:05", "the last 50 lines of each replica". */
export function firstWindowWords(flags: Pick<TailFlags, "since" | "tail">): string {
  const { since, tail } = flags;
  const lines = tail === undefined ? "" : `the last ${tail} lines of each replica`;
  if (since === undefined && lines !== "") return lines;
  const from =
    since === undefined
      ? `the last ${formatDuration(DEFAULT_SINCE_MS)}`
      : since.kind === "ago"
        ? `the last ${formatDuration(since.ms)}`
        : since.text;
  return lines === "" ? from : `${lines} within ${from}`;
}

/**
 * The margin a checkpoint of format 1 or 2 (an older tvcwatch) resumes with: lines arrived late
 * by up to the overlap, and waited up to the hold-back.
 */
export function checkpointMargin(flags: Pick<TailFlags, "overlap">, extraHoldMs = 0): number {
  return 2 * flags.overlap + TAIL_HOLD_BACK_MS + extraHoldMs;
}

/** Where a follow resumed from `record` starts; a checkpoint older than Turnkey keeps logs, a gap. */
export function resumeOf(record: ReadRecord | undefined) {
  return record ? { ...resumePointOf(record), retentionMs: RETENTION_MS } : undefined;
}

/**
 * Why `--events` cannot be used with these flags (undefined: it can): the events go to stdout
 * beside the lines of one deployment, and are not recorded by a checkpoint.
 */
export function eventsProblem(flags: {
  events?: boolean | undefined;
  output: string;
  outputFile?: string | undefined;
  checkpoint?: string | undefined;
}): string | undefined {
  if (!flags.events) return undefined;
  if (flags.output === "otlp") return "--events prints to stdout: not with -o otlp";
  if (flags.outputFile !== undefined) return "--events prints to stdout: not with --output-file";
  if (flags.checkpoint !== undefined)
    return "--events is not recorded by a checkpoint: not with --checkpoint";
  return undefined;
}
