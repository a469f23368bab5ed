/**
 * Where a batch of `tail`'s lines goes: stdout (./stdout-batch.ts), or `--output-file`
 * (./output-file.ts), and what is known once it is there, for the checkpoint.
 */
import type { OutputFileRecord } from "../tail/checkpoint.js";
import type { OutputFile } from "./output-file.js";
import { StdoutBatch } from "./stdout-batch.js";

export interface LineSink {
  add(line: string): void;
  /**
   * Ends the batch. `handedOn` runs once all of it is written (to FILE: and flushed to disk),
   * with FILE's identity and length when the lines go to a file.
   */
  end(handedOn?: (file: OutputFileRecord | undefined) => void): void;
}

/** A batch for FILE: written whole at its end, after saying what became of FILE since the last. */
class FileBatch implements LineSink {
  private text = "";

  constructor(
    private readonly file: OutputFile,
    private readonly say: (line: string) => void,
    private readonly cutLine: (reason: string) => string | undefined,
  ) {}

  add(line: string): void {
    this.text += `${line}\n`;
  }

  end(handedOn?: (file: OutputFileRecord | undefined) => void): void {
    const { notes, cut } = this.file.check();
    for (const n of notes) this.say(n);
    const gap = cut === undefined ? undefined : this.cutLine(cut);
    const text = gap === undefined ? this.text : `${gap}\n${this.text}`;
    if (text !== "") this.file.write(text);
    handedOn?.(this.file.record());
  }
}

/**
 * Batches to stdout, or to `file`. `cutLine`: the gap marker line for FILE when another program
 * cut it (undefined: it is said on stderr only).
 */
export function lineSinks(
  file: OutputFile | undefined,
  say: (line: string) => void,
  cutLine: (reason: string) => string | undefined,
): () => LineSink {
  if (!file) return () => new StdoutBatch();
  return () => new FileBatch(file, say, cutLine);
}
