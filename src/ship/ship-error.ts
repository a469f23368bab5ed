/**
 * Why shipping stopped or could not start (an output file, a checkpoint, a lock, the
 * collector), meant for the person at the terminal: one line, no stack trace. `exitCode` as
 * the CLI's (src/cli/cli-error.ts): 1 for a failure while following, 2 for what to fix first.
 */
export class ShipError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "ShipError";
    this.exitCode = exitCode;
  }
}
