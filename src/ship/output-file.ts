/**
 * `tail --output-file FILE`: tail appends its lines to FILE itself, a batch at a time.
 *
 * With `--checkpoint`, each batch is written and flushed to disk (fsync) before the checkpoint
 * records FILE's identity (device, inode) and length; a follow resumed from that checkpoint cuts
 * FILE back to the recorded length before it writes or records anything (not before: a
 * checkpoint the server's first answer refuses leaves FILE as it was), so whatever moment a follow was killed
 * at (SIGKILL, power), the lines written after its last record are gone from FILE and written
 * again, once. A FILE that is not the one recorded (rotated: another inode, or gone) or is shorter
 * than recorded (another program cut it) is never cut: the follow appends to the FILE there is
 * (creating it), and says so; when FILE was cut, a gap marker says that lines may be missing from
 * it. While following, FILE moved or removed (rotation) is noticed before the next batch, which
 * goes to a new FILE.
 *
 * Without `--checkpoint`, FILE is only appended to.
 *
 * FILE is opened, written, flushed and cut the one way a file is appended to
 * (../config/append-file.ts): refused at once when it is not a regular file.
 */
import { type BigIntStats, statSync } from "node:fs";
import { AppendFile, AppendFileError } from "../config/append-file.js";
import type { FileLock } from "../config/file-lock.js";
import { fileProblem } from "../config/file-problem.js";
import { sameFile } from "../config/resolved-path.js";
import type { GapMarker } from "../logs/model/log-line.js";
import type { OutputFileRecord } from "../tail/checkpoint.js";
import { ShipError } from "./ship-error.js";
import { lostLock } from "./tail-locks.js";

/** What opening FILE found: lines to say on stderr, and whether lines may be missing from it. */
export interface OutputFileOpened {
  file: OutputFile;
  notes: string[];
  /** FILE holds less than was recorded in it: a gap marker's reason. */
  cut?: string | undefined;
}

function isRecordedFile(st: BigIntStats, r: OutputFileRecord): boolean {
  return String(st.dev) === r.dev && String(st.ino) === r.ino;
}

export class OutputFile {
  private length: number;
  /** The length FILE is cut back to before it is first written or recorded (see open). */
  private cutTo: number | undefined;

  private constructor(
    private readonly path: string,
    private file: AppendFile,
    private st: BigIntStats,
    private readonly durable: boolean,
    /** FILE's lock (./tail-locks.ts), checked before each batch. */
    private readonly lock: FileLock | undefined,
  ) {
    this.length = Number(st.size);
  }

  /**
   * Opens FILE to append to. `recorded`: what the checkpoint recorded of it (FILE is cut back to
   * it when it is the same file, at least as long); `durable`: each batch is flushed to disk.
   */
  static open(
    path: string,
    recorded: OutputFileRecord | undefined,
    durable: boolean,
    lock?: FileLock | undefined,
  ): OutputFileOpened {
    const notes: string[] = [];
    let cut: string | undefined;
    const file = openFile(path);
    const st = cli(2, () => file.stat());
    if (recorded && file.created) {
      notes.push(
        `output file ${path} is gone since the checkpoint was written (rotated?): starting a new one; lines after the last record are written to it again`,
      );
    } else if (recorded && !isRecordedFile(st, recorded)) {
      notes.push(
        `output file ${path} is another file than the checkpoint recorded (rotated?): appending to it; lines after the last record are written to it again`,
      );
    }
    let cutTo: number | undefined;
    if (recorded && isRecordedFile(st, recorded)) {
      if (st.size >= BigInt(recorded.length)) {
        // What was written after the last record: written again, once.
        if (st.size > BigInt(recorded.length)) cutTo = recorded.length;
      } else {
        cut = `output file ${path} holds ${st.size} bytes, less than the ${recorded.length} recorded: something cut it, and lines written to it before may be missing from it`;
        notes.push(`${cut}; appending`);
      }
    }
    const opened = new OutputFile(
      path,
      file,
      cli(2, () => file.stat()),
      durable,
      lock,
    );
    opened.cutTo = cutTo;
    return { file: opened, notes, cut };
  }

  /**
   * Before a batch: whether FILE was moved or removed (rotated: the batch goes to a new FILE) or
   * cut by another program since the last one. Returns what to say on stderr, and when FILE was
   * cut, a gap marker's reason.
   */
  check(): { notes: string[]; cut?: string | undefined } {
    if (this.lock && !this.lock.held()) throw lostLock(this.lock, `--output-file ${this.path}`);
    const now = statOf(this.path);
    if (now === undefined || now.dev !== this.st.dev || now.ino !== this.st.ino) {
      this.file.close();
      this.file = openFile(this.path);
      this.st = cli(2, () => this.file.stat());
      this.length = Number(this.st.size);
      this.cutTo = undefined;
      return {
        notes: [`output file ${this.path} was moved or removed (rotated?): writing to a new one`],
      };
    }
    if (Number(now.size) >= (this.cutTo ?? this.length)) return { notes: [] };
    const cut = `output file ${this.path} was cut to ${now.size} bytes (it held ${this.length}) by another program: lines written to it before may be missing from it`;
    this.length = Number(now.size);
    this.cutTo = undefined;
    return { notes: [cut], cut };
  }

  /** Appends a batch's text (flushed to disk when durable). */
  write(text: string | Buffer): void {
    this.cutBack();
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    cli(1, () => this.file.append(bytes, this.durable));
    // Its length as it is (another program may append to it too).
    this.length = Number(cli(1, () => this.file.stat()).size);
  }

  /** FILE's identity and length, for the checkpoint. */
  record(): OutputFileRecord {
    this.cutBack();
    return { dev: String(this.st.dev), ino: String(this.st.ino), length: this.length };
  }

  /** Cuts FILE back to what the checkpoint recorded of it, once. */
  private cutBack(): void {
    const to = this.cutTo;
    if (to === undefined) return;
    cli(2, () => this.file.truncate(to));
    this.cutTo = undefined;
    this.length = to;
  }

  close(): void {
    this.file.close();
  }

  /** The run ends in an error: FILE is closed, and removed when this run created it and wrote nothing. */
  abandon(): void {
    this.file.closeRemovingIfUnused();
  }
}

/** Where `tail`'s lines and its record go: `-o`, `--output-file`, `--checkpoint`, `--start-over`. */
export interface OutputFlags {
  output: "text" | "json" | "otlp";
  outputFile?: string | undefined;
  checkpoint?: string | undefined;
  startOver?: boolean | undefined;
}

/** Refuses flags that do not go together (before anything is read or sent). */
export function checkOutputFlags(flags: OutputFlags): void {
  if (flags.startOver && flags.checkpoint === undefined) {
    throw new ShipError("--start-over sets aside what --checkpoint FILE records: name the FILE", 2);
  }
  if (flags.outputFile !== undefined && flags.output === "otlp") {
    throw new ShipError(
      "--output-file takes the lines of -o text or -o json; with -o otlp they go to the collector: leave one of them out",
      2,
    );
  }
  // Each batch appended to the file would be replaced by the checkpoint's rewrite.
  if (
    flags.outputFile !== undefined &&
    flags.checkpoint !== undefined &&
    sameFile(flags.checkpoint, flags.outputFile)
  ) {
    throw new ShipError(
      `--checkpoint ${flags.checkpoint} and --output-file ${flags.outputFile} are the same file: each record would replace the lines written; name two files`,
      2,
    );
  }
}

/**
 * Opens `--output-file` (cut back to what the checkpoint recorded of it, see ./output-file.ts),
 * saying on stderr what became of it since, and returns the gap marker to start with when lines
 * may be missing from it.
 */
export function openOutputFile(
  flags: Pick<OutputFlags, "outputFile" | "checkpoint">,
  recorded: OutputFileRecord | undefined,
  say: (line: string) => void,
  serverNow: () => number,
  lock?: FileLock | undefined,
): { opened: OutputFileOpened | undefined; gap: GapMarker | undefined } {
  if (flags.outputFile === undefined) return { opened: undefined, gap: undefined };
  const durable = flags.checkpoint !== undefined;
  const opened = OutputFile.open(flags.outputFile, durable ? recorded : undefined, durable, lock);
  for (const n of opened.notes) say(n);
  return { opened, gap: opened.cut === undefined ? undefined : cutGap(opened.cut, serverNow()) };
}

/** The gap marker for an output file another program cut. */
export function cutGap(reason: string, now: number): GapMarker {
  return { kind: "gap", from: now, to: now, reason, sortKey: now };
}

function statOf(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ShipError(
      `cannot use --output-file ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
      2,
    );
  }
}

/** FILE opened to append to (see ../config/append-file.ts), or the one line why not (exit 2). */
function openFile(path: string): AppendFile {
  return cli(2, () => AppendFile.open(path, "--output-file"));
}

/** `f`'s AppendFileError as a ShipError, exiting `code` (not a regular file: name another). */
function cli<T>(code: number, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof AppendFileError)) throw err;
    const hint = err.notRegular ? ": name a file to append the lines to" : "";
    throw new ShipError(`${err.message}${hint}`, err.notRegular ? 2 : code);
  }
}
