import { NetworkError, TurnkeyApiError, TurnkeyClientError } from "../api/errors.js";
import { CliError } from "./cli-error.js";

/**
 * Turns a client failure into the one line a person reads: an API error exits 1, a network
 * failure after retries exits 2. Anything that is not the client's own error passes through.
 */
export function toCliError(err: unknown): unknown {
  if (err instanceof TurnkeyApiError) {
    const op = err.operation ? `${err.operation}: ` : "";
    return new CliError(`${op}${err.describe()}`, 1);
  }
  if (err instanceof NetworkError) return new CliError(`network: ${err.message}`, 2);
  if (err instanceof TurnkeyClientError) return new CliError(err.message, 1);
  return err;
}
