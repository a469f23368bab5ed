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

/**
 * Commander's usage errors quote the offending argument whole ("argument '…' is
 * invalid"); a pasted 400-character value would fill the screen. Quoted values
 * longer than 40 characters are cut to their first 32, so the message stays one line.
 */
export function shortenQuotedArguments(text: string): string {
  return text.replace(/'([^'\n]{41,})'/g, (_all, value: string) => `'${value.slice(0, 32)}…'`);
}
