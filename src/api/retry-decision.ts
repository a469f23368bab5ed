/**
 * Whether to try again after a failure, and why: the one classification the client's retries of
 * a request (./client.ts), a log follow's polls (../tail/poll-loop.ts), `activity wait`'s polls
 * and the commands' advice all use.
 *
 * - back off: another attempt may fare better, after the caller's backoff (a network failure that
 *   passes, 429, 5xx);
 * - wait: the server said when to try again (`Retry-After`), and that wait is what counts;
 * - stop: another attempt would only repeat it.
 *
 * Who asks decides how much is worth another try. The client's retries of one request, and a
 * wait's polls (scope "request"), try again only what is known to pass: a network failure that
 * passes, 429 and 5xx (not 501 / UNIMPLEMENTED: an operation the server does not have will not
 * appear on a second attempt). A log follow (scope "follow") goes on for hours: it polls again
 * after anything but what no poll can change (a refused response, a permanent network failure,
 * or the API saying the request itself is wrong: authentication, permission, no such deployment,
 * not in debug mode, an invalid argument).
 */
import {
  NetworkError,
  RedirectError,
  RefusedResponseError,
  ResponseTooLargeError,
  TurnkeyApiError,
  type TurnkeyClientError,
} from "./errors.js";
import { GRPC_CODE_NAMES, GrpcCode } from "./grpc-codes.js";
import type { NetworkFailureKind } from "./network-errors.js";

export type RetryDecision =
  | { readonly action: "back-off"; readonly reason: string }
  | { readonly action: "wait"; readonly afterMs: number; readonly reason: string }
  | { readonly action: "stop"; readonly reason: string };

/** Who asks (see the header): the retries of one request, or a follow's next poll. */
export type RetryScope = "request" | "follow";

/** Network failures another attempt cannot fare better at, and why; the rest pass. */
const PERMANENT_NETWORK: Readonly<Partial<Record<NetworkFailureKind, string>>> = {
  "bad-port": "fetch refuses that port whatever is tried",
  "tls-certificate": "the server's certificate is not trusted here",
  "tls-handshake": "the server does not speak TLS as asked",
  "closed-large-body": "the server closes the connection on a request body that large",
};

/** API codes that say the request itself is wrong: a follow stops on them. */
const REQUEST_REFUSED: ReadonlySet<number> = new Set([
  GrpcCode.INVALID_ARGUMENT,
  GrpcCode.NOT_FOUND,
  GrpcCode.PERMISSION_DENIED,
  GrpcCode.FAILED_PRECONDITION,
  GrpcCode.UNAUTHENTICATED,
]);

const stop = (reason: string): RetryDecision => ({ action: "stop", reason });
const backOff = (reason: string): RetryDecision => ({ action: "back-off", reason });

/** What to do after `err`, for `scope`. */
export function retryDecision(err: unknown, scope: RetryScope): RetryDecision {
  const permanent = permanentReason(err);
  if (permanent) return stop(permanent);
  if (err instanceof NetworkError) return backOff("a network failure may pass");
  if (err instanceof TurnkeyApiError) return apiDecision(err, scope);
  return scope === "follow"
    ? backOff("a later poll may fare better")
    : stop("not a failure known to pass on another attempt");
}

/**
 * Why another attempt, or another poll, would only repeat `err`: a refused response (a redirect,
 * an answer over the size limit) or a permanent network failure; undefined for any other.
 */
function permanentReason(err: unknown): string | undefined {
  if (err instanceof RedirectError) return "a redirect is never followed";
  if (err instanceof ResponseTooLargeError) return "the answer is over the response size limit";
  if (err instanceof RefusedResponseError) return "the response is refused";
  if (err instanceof NetworkError) return PERMANENT_NETWORK[err.kind];
  return undefined;
}

/** True for a failure that another attempt or poll would only repeat (see permanentReason). */
export function isPermanentFailure(err: unknown): err is TurnkeyClientError {
  return permanentReason(err) !== undefined;
}

function apiDecision(err: TurnkeyApiError, scope: RetryScope): RetryDecision {
  const code = err.grpcCode ?? -1;
  const name = GRPC_CODE_NAMES[code] ?? `HTTP ${err.httpStatus}`;
  if (scope === "follow") {
    if (REQUEST_REFUSED.has(code)) return stop(`the API refuses the request itself (${name})`);
  } else {
    if (err.httpStatus === 501 || code === GrpcCode.UNIMPLEMENTED) {
      return stop("the server does not have this operation");
    }
    if (err.httpStatus !== 429 && err.httpStatus < 500) {
      return stop(`the API refuses the request (${name})`);
    }
  }
  if (err.retryAfterMs !== undefined) {
    return { action: "wait", afterMs: err.retryAfterMs, reason: "the server said when to retry" };
  }
  return backOff(`${name} may pass`);
}
