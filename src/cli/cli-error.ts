/**
 * An error meant for the person at the terminal: one line, no stack trace.
 * `exitCode` follows the convention of the tool: 1 for an API error or bad input,
 * 2 for a network failure after retries or a usage error.
 */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
