/**
 * `tail`'s stdout for one deployment: whether the reader closed the pipe (the follow then ends),
 * the plain window written whole, and the wait for what was written to be taken.
 */
export class TailStdout {
  private pipeClosed = false;

  /** `onClosed`: the reader closed the pipe (EPIPE). */
  constructor(onClosed: () => void) {
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") {
        this.pipeClosed = true;
        onClosed();
      }
    });
  }

  get closed(): boolean {
    return this.pipeClosed;
  }

  /** renderPlainWindow's lines (sanitized), unless the reader is gone. */
  writeWindow(rendered: Buffer): void {
    if (!this.pipeClosed) process.stdout.write(rendered);
  }

  /** One line `tail --events` made inert (src/cli/commands/tail/tail-events.ts), unless the reader is gone. */
  writeLine(line: string): void {
    if (!this.pipeClosed) process.stdout.write(`${line}\n`);
  }

  /** Resolves once what was written is out (at once when the reader is gone). */
  drained(): Promise<void> {
    return new Promise<void>((resolve) =>
      this.pipeClosed ? resolve() : process.stdout.write("", () => resolve()),
    );
  }
}
