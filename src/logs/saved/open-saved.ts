/**
 * Opening saved logs for reading (what `tvcwatch open FILE... | -` reads): every name checked
 * before anything is read, through the one way a named file is opened (src/config/named-file.ts):
 * a regular file is read by position, its end first (./saved-file.ts); a FIFO named explicitly is
 * followed as a stream; a device, a directory or a socket is refused in one line naming it. `-` is
 * standard input: a regular file redirected in is read as one, a pipe is followed as it grows, a
 * terminal is refused. A `.gz` file (told by its first bytes, not its name) is decompressed as a
 * stream. `follow` reads regular files further as they grow.
 *
 * `openSavedLogs` resolves once the newest lines of every file are indexed (the first screen);
 * `indexed` once every file is indexed whole. Lines that come later (a followed file, a stream)
 * are added as they come.
 */
import type { Readable } from "node:stream";
import { LogReading } from "./log-reading.js";
import { openAll } from "./named-inputs.js";
import { DEFAULT_LIMITS, type SavedLimits } from "./saved-file.js";
import type { SavedLog } from "./saved-log.js";

export { MAX_FILES, STDIN_ADVICE } from "./named-inputs.js";

export interface OpenSavedOptions {
  /** Read regular files further as they grow (`--follow`); streams are always followed. */
  follow?: boolean;
  limits?: SavedLimits;
  /** How often a followed file is looked at. */
  pollMs?: number;
  /**
   * The rest of a large file (before its end) is indexed on this thread once this resolves: the
   * dashboard's first screen is drawn first, not between pieces of indexing (its pieces on
   * worker threads start at once). By default at once.
   */
  indexFrom?: Promise<void>;
  /**
   * Called on this thread once each worker thread indexing a large file's piece runs (its start
   * sets V8's flags back to their defaults: the caller sets again the ones it set).
   */
  workerOnline?: () => void;
  /**
   * V8 flags each such worker sets again itself once its runtime started (the flags are the
   * process's: set there, they hold for this thread too, however busy it is when told `online`).
   */
  workerFlags?: string;
  /** Standard input, for `-`: its descriptor and a stream over it. */
  stdin?: { fd: number; stream: Readable };
}

export interface OpenedLogs {
  log: SavedLog;
  /** Lines may still come: a pipe or a FIFO is read, or files are followed (`follow`). */
  followed: boolean;
  /** Resolves once every file is indexed whole (streams still come in after). */
  indexed: Promise<void>;
  /** Stops following and reading, and closes every descriptor. */
  close(): void;
}

/** Opens the logs named (`-` for standard input); see the module comment. */
export async function openSavedLogs(
  paths: readonly string[],
  options: OpenSavedOptions = {},
): Promise<OpenedLogs> {
  const opened = openAll(paths, options.stdin);
  const reading = new LogReading({
    limits: options.limits ?? DEFAULT_LIMITS,
    follow: options.follow === true,
    pollMs: options.pollMs ?? 500,
    workerOnline: options.workerOnline,
    ...(options.workerFlags === undefined ? {} : { workerFlags: options.workerFlags }),
  });
  for (const o of opened) reading.add(o);
  reading.log.update();
  reading.indexFiles(options.indexFrom);
  return {
    log: reading.log,
    followed: options.follow === true || opened.some((o) => o.kind === "stream"),
    indexed: reading.indexed(),
    close: () => reading.close(),
  };
}
