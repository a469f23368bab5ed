/**
 * A batch of `tail`'s lines for stdout, written in pieces of about WRITE_CHUNK_CHARS characters as
 * it grows: a window of 200k lines is not built as one string of tens of megabytes (and its copy
 * as bytes) before the first of it is written. `end` writes the rest and, once all of it has
 * reached stdout, calls `handedOn` (the checkpoint records the batch then).
 */
const WRITE_CHUNK_CHARS = 64 * 1024;

export class StdoutBatch {
  private out = "";

  add(line: string): void {
    this.out += `${line}\n`;
    if (this.out.length >= WRITE_CHUNK_CHARS) {
      process.stdout.write(this.out);
      this.out = "";
    }
  }

  end(handedOn?: (file: undefined) => void): void {
    if (!handedOn) {
      if (this.out) process.stdout.write(this.out);
      return;
    }
    process.stdout.write(this.out, (err) => {
      if (!err) handedOn(undefined);
    });
  }
}
