/**
 * `tail --output-file FILE`: tail appends its lines to FILE itself, a batch at a time.
 *
 * With `--checkpoint`, each batch is written and flushed to disk (fsync) before the checkpoint
 * records FILE's identity (device, inode) and length; a follow resumed from that checkpoint cuts
 * FILE back to the recorded length before anything else, so whatever moment a follow was killed
 * at (SIGKILL, power), the lines written after its last record are gone from FILE and written
 * again, once. A FILE that is not the one recorded (rotated: another inode, or gone) or is shorter
 * than recorded (another program cut it) is never cut: the follow appends to the FILE there is
 * (creating it), and says so; when FILE was cut, a gap marker says that lines may be missing from
 * it. While following, FILE moved or removed (rotation) is noticed before the next batch, which
 * goes to a new FILE.
 *
 * Without `--checkpoint`, FILE is only appended to.
 */
import {
  type BigIntStats,
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  statSync,
  writeSync,
} from "node:fs";
import { fileProblem } from "../../config/file-problem.js";
import type { OutputFileRecord } from "../../tail/checkpoint.js";
import type { GapMarker } from "../../tail/log-line.js";
import { CliError } from "../cli-error.js";
import type { TailFlags } from "./tail-flags.js";

/** What opening FILE found: lines to say on stderr, and whether lines may be missing from it. */
export interface OutputFileOpened {
  file: OutputFile;
  notes: string[];
  /** FILE holds less than was recorded in it: a gap marker's reason. */
  cut?: string | undefined;
}

function sameFile(st: BigIntStats, r: OutputFileRecord): boolean {
  return String(st.dev) === r.dev && String(st.ino) === r.ino;
}

export class OutputFile {
  private length: number;

  private constructor(
    private readonly path: string,
    private fd: number,
    private st: BigIntStats,
    private readonly durable: boolean,
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
  ): OutputFileOpened {
    const notes: string[] = [];
    let cut: string | undefined;
    const before = statOf(path);
    // Not opened first: opening a FIFO to write waits for a reader.
    if (before && !before.isFile()) notRegular(path);
    if (recorded && before === undefined) {
      notes.push(
        `output file ${path} is gone since the checkpoint was written (rotated?): starting a new one; lines after the last record are written to it again`,
      );
    } else if (recorded && before && !sameFile(before, recorded)) {
      notes.push(
        `output file ${path} is another file than the checkpoint recorded (rotated?): appending to it; lines after the last record are written to it again`,
      );
    }
    const fd = openFile(path);
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) {
      closeSync(fd);
      notRegular(path);
    }
    if (recorded && sameFile(st, recorded)) {
      if (st.size >= BigInt(recorded.length)) {
        // What was written after the last record: written again below, once.
        if (st.size > BigInt(recorded.length)) truncate(fd, path, recorded.length);
      } else {
        cut = `output file ${path} holds ${st.size} bytes, less than the ${recorded.length} recorded: something cut it, and lines written to it before may be missing from it`;
        notes.push(`${cut}; appending`);
      }
    }
    const file = new OutputFile(path, fd, fstatSync(fd, { bigint: true }), durable);
    return { file, notes, cut };
  }

  /**
   * Before a batch: whether FILE was moved or removed (rotated: the batch goes to a new FILE) or
   * cut by another program since the last one. Returns what to say on stderr, and when FILE was
   * cut, a gap marker's reason.
   */
  check(): { notes: string[]; cut?: string | undefined } {
    const now = statOf(this.path);
    if (now === undefined || now.dev !== this.st.dev || now.ino !== this.st.ino) {
      closeSync(this.fd);
      this.fd = openFile(this.path);
      this.st = fstatSync(this.fd, { bigint: true });
      this.length = Number(this.st.size);
      return {
        notes: [`output file ${this.path} was moved or removed (rotated?): writing to a new one`],
      };
    }
    if (Number(now.size) >= this.length) return { notes: [] };
    const cut = `output file ${this.path} was cut to ${now.size} bytes (it held ${this.length}) by another program: lines written to it before may be missing from it`;
    this.length = Number(now.size);
    return { notes: [cut], cut };
  }

  /** Appends a batch's text (flushed to disk when durable). */
  write(text: string | Buffer): void {
    const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
      if (this.durable) fsyncSync(this.fd);
      // Its length as it is (another program may append to it too).
      this.length = Number(fstatSync(this.fd, { bigint: true }).size);
    } catch (err) {
      throw new CliError(
        `cannot write --output-file ${this.path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
        1,
      );
    }
  }

  /** FILE's identity and length, for the checkpoint. */
  record(): OutputFileRecord {
    return { dev: String(this.st.dev), ino: String(this.st.ino), length: this.length };
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Refuses flags that do not go together (before anything is read or sent). */
export function checkOutputFlags(flags: Pick<TailFlags, "output" | "outputFile">): void {
  if (flags.outputFile !== undefined && flags.output === "otlp") {
    throw new CliError(
      "--output-file takes the lines of -o text or -o json; with -o otlp they go to the collector: leave one of them out",
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
  flags: Pick<TailFlags, "outputFile" | "checkpoint">,
  recorded: OutputFileRecord | undefined,
  say: (line: string) => void,
  serverNow: () => number,
): { opened: OutputFileOpened | undefined; gap: GapMarker | undefined } {
  if (flags.outputFile === undefined) return { opened: undefined, gap: undefined };
  const durable = flags.checkpoint !== undefined;
  const opened = OutputFile.open(flags.outputFile, durable ? recorded : undefined, durable);
  for (const n of opened.notes) say(n);
  return { opened, gap: opened.cut === undefined ? undefined : cutGap(opened.cut, serverNow()) };
}

/** The gap marker for an output file another program cut. */
export function cutGap(reason: string, now: number): GapMarker {
  return { kind: "gap", from: now, to: now, reason, sortKey: now };
}

function notRegular(path: string): never {
  throw new CliError(
    `--output-file ${path} is not a regular file: name a file to append the lines to`,
    2,
  );
}

function statOf(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(
      `cannot use --output-file ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
      2,
    );
  }
}

function openFile(path: string): number {
  try {
    return openSync(path, "a", 0o644);
  } catch (err) {
    throw new CliError(
      `cannot open --output-file ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
      2,
    );
  }
}

function truncate(fd: number, path: string, length: number): void {
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } catch (err) {
    throw new CliError(
      `cannot cut --output-file ${path} back to its recorded length: ${fileProblem(err as NodeJS.ErrnoException)}`,
      2,
    );
  }
}
