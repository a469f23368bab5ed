import type { RetryInfo } from "../api/client.js";
import {
  NetworkError,
  ResponseTooLargeError,
  TurnkeyApiError,
  TurnkeyClientError,
} from "../api/errors.js";
import { formatDuration } from "../text/duration.js";
import { CliError } from "./cli-error.js";

/**
 * Turns a client failure into the one line a person reads: an API error exits 1, a network
 * failure after retries exits 2. Anything that is not the client's own error passes through.
 */
export function toCliError(err: unknown): unknown {
  const status = exitStatusOf(err);
  if (status === undefined) return err;
  if (err instanceof TurnkeyApiError) {
    const op = err.operation ? `${err.operation}: ` : "";
    return new CliError(`${op}${err.describe()}`, status);
  }
  return new CliError(`${(err as Error).message}${adviceFor(err)}`, status);
}

/** What the person can do about a client error, in this program's flags. */
function adviceFor(err: unknown): string {
  if (err instanceof ResponseTooLargeError) {
    return `; raise the limit with --max-response-size (e.g. --max-response-size ${Math.min(512, Math.ceil((err.limitBytes * 2) / 1024 ** 2))}MiB)`;
  }
  return "";
}

/**
 * The exit status of a client failure, the same in every command: 2 for a network failure,
 * 1 for an API error, a wrong-shape or refused response, or a request the schema refuses;
 * undefined for anything that is not the client's error.
 */
export function exitStatusOf(err: unknown): number | undefined {
  if (err instanceof NetworkError) return 2;
  if (err instanceof TurnkeyClientError) return 1;
  return undefined;
}

/** Waits shorter than this pass without a word. */
const QUIET_WAIT_MS = 1000;

/**
 * What a command says on stderr while the client waits to retry, e.g.
 * `rate limited by the server; retrying in 42s (attempt 2 of 5)`; undefined for a short wait.
 */
export function retryNotice(info: RetryInfo): string | undefined {
  if (info.delayMs < QUIET_WAIT_MS) return undefined;
  const { error } = info;
  const reason =
    error instanceof TurnkeyApiError
      ? error.httpStatus === 429
        ? "rate limited by the server"
        : `the server answered ${error.describe()}`
      : error.message;
  const next = info.attempt + 1;
  return `${reason}; retrying in ${formatDuration(info.delayMs)} (attempt ${next} of ${next + info.retriesLeft})`;
}
