/**
 * The typed Turnkey client. Every operation of the table in ./operations.ts goes through `call`:
 * the input is validated before anything is sent, the body is serialised once and that exact
 * string is stamped and sent (and resent, byte for byte, on a retry, so the server's idempotency
 * returns the same activity), and the response is validated before anyone reads it.
 */
import { formatByteSize } from "../text/byte-size.js";
import { formatDuration } from "../text/duration.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import {
  excerpt,
  NetworkError,
  parseErrorBody,
  parseResponseJson,
  RedirectError,
  RefusedResponseError,
  ResponseTooLargeError,
  TurnkeyApiError,
  TurnkeyClientError,
} from "./errors.js";
import type { FastPath } from "./fast-path.js";
import { type FetchLike, type FetchResponse, httpFetch } from "./http-fetch.js";
import { describeNetworkFailure } from "./network-errors.js";
import type { InputOf, OperationName, OutputOf } from "./operations.js";
import {
  type BodyChunkSeen,
  type BodyChunks,
  bodyText,
  chunksBytes,
  chunksText,
  readBodyWithin,
} from "./response-body.js";
import type { RetryInfo, RetryPolicy } from "./retry.js";
import { MAX_TIMER_MS, withRetries } from "./retry.js";
import { retryDecision } from "./retry-decision.js";
import type { ApiKeyPair } from "./stamp.js";
import { ApiKeyStamper, type Stamper } from "./stamper.js";
import { checkServiceUrl } from "./url-policy.js";

export interface ClientOptions {
  baseUrl: string;
  organizationId: string;
  /** The API key that stamps requests, unless a `stamper` is given. */
  apiKey?: ApiKeyPair | undefined;
  /**
   * How requests are stamped (./stamper.ts): an ApiKeyStamper of `apiKey` unless given; any
   * stamper of Turnkey's SDK works too.
   */
  stamper?: Stamper | undefined;
  authProxyUrl?: string | undefined;
  authProxyConfigId?: string | undefined;
  /** The transport; default ./http-fetch.ts (node:http). The global fetch works too. */
  fetch?: FetchLike | undefined;
  clock?: Clock;
  /** The wait between attempts: ./retry.ts's sleep unless given (tests record the waits). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /**
   * The largest response body read, in bytes. Default 256 MiB (a large debug-log window is tens
   * of MiB). A larger answer is refused (ResponseTooLargeError) and not retried.
   */
  maxResponseBytes?: number;
  /** Retries after the first attempt. Default 4. */
  retries?: number;
  /** First backoff delay. Default 500 ms; doubles each retry, with jitter. */
  minRetryDelayMs?: number;
  /** Longest backoff delay. Default 20 s. */
  maxRetryDelayMs?: number;
  /**
   * Longest `Retry-After` honoured. Default 60 s; a server asking for longer gets no retry, and
   * its error says so.
   */
  maxRetryAfterMs?: number;
}

export type { RetryInfo } from "./retry.js";

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Told before each wait for a retry: which attempt failed, how, and how long the wait is. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  generateAppProofs?: boolean | undefined;
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, for this call (default: the client's). */
  retries?: number | undefined;
  /**
   * Guards that stand in for the operation's schemas while the input and the answer pass them
   * (./fast-path.ts), so that the schemas and zod are not loaded.
   */
  fastPath?: FastPath | undefined;
  /**
   * Told of each chunk of a successful body as it is read, so that a caller can read the body
   * as it arrives: where the chunk starts in the body (0: an attempt's body starts) and the
   * body's declared length. It must not throw.
   */
  onBodyChunk?: BodyChunkSeen | undefined;
}

export interface ResponseMeta {
  status: number;
  /** Epoch ms from the response's Date header, when it had one. */
  serverDate?: number;
  sentAtWall: number;
  receivedAtWall: number;
  sentAtMonotonic: number;
  receivedAtMonotonic: number;
  attempts: number;
}

/** The default response size limit: room for the largest legitimate debug-log window. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Of an error response, this much at most is read. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** Retry-After as seconds or an HTTP date, in ms from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class TurnkeyClient {
  readonly baseUrl: string;
  readonly organizationId: string;
  readonly authProxyUrl: string | undefined;
  readonly authProxyConfigId: string | undefined;
  private readonly stamper: Stamper | undefined;
  private readonly fetchImpl: FetchLike;
  private readonly clock: Clock;
  private readonly sleep: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly retryPolicy: RetryPolicy;

  constructor(options: ClientOptions) {
    // The URL policy holds here too, whoever builds the client: https, or http to loopback only.
    this.baseUrl = checkedUrl(options.baseUrl, "base URL");
    this.organizationId = options.organizationId;
    this.stamper =
      options.stamper ?? (options.apiKey ? new ApiKeyStamper(options.apiKey) : undefined);
    this.authProxyUrl =
      options.authProxyUrl === undefined
        ? undefined
        : checkedUrl(options.authProxyUrl, "auth-proxy URL");
    this.authProxyConfigId = options.authProxyConfigId;
    this.fetchImpl = options.fetch ?? httpFetch;
    this.clock = options.clock ?? systemClock;
    this.sleep = options.sleep;
    this.timeoutMs = Math.min(options.timeoutMs ?? 30_000, MAX_TIMER_MS);
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.retryPolicy = {
      retries: options.retries ?? 4,
      minDelayMs: options.minRetryDelayMs ?? 500,
      maxDelayMs: options.maxRetryDelayMs ?? 20_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    };
  }

  async call<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<OutputOf<N>> {
    return (await this.callWithMeta(name, input, options)).data;
  }

  /** For callers whose operation is chosen at run time (`tvcwatch call`): input checked by schema. */
  async callDynamic(
    name: OperationName,
    input: unknown,
    options: CallOptions = {},
  ): Promise<unknown> {
    return (await this.callWithMeta(name, input as never, options)).data;
  }

  /** Builds the exact request an operation sends: URL, headers (stamped) and body string. */
  async buildRequest(
    name: OperationName,
    input: unknown,
    options: Pick<CallOptions, "generateAppProofs" | "fastPath"> = {},
  ): Promise<{ url: string; headers: Record<string, string>; body: string }> {
    const { route, checked } = await checkInput(name, input, options.fastPath);
    return this.requestFor(name, route, checked, options);
  }

  private async requestFor(
    name: OperationName,
    op: OperationRoute,
    checked: unknown,
    options: Pick<CallOptions, "generateAppProofs">,
  ): Promise<{ url: string; headers: Record<string, string>; body: string }> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "Content-Type": "application/json",
    };
    if (op.kind === "auth-proxy") {
      if (!this.authProxyUrl)
        throw new TurnkeyClientError(`${name}: no auth-proxy URL is configured`);
      if (!this.authProxyConfigId) {
        throw new TurnkeyClientError(
          `${name}: no auth-proxy config ID; pass --auth-proxy-config-id or set TURNKEY_AUTH_PROXY_CONFIG_ID`,
        );
      }
      headers["X-Auth-Proxy-Config-Id"] = this.authProxyConfigId;
      return { url: `${this.authProxyUrl}${op.path}`, headers, body: "{}" };
    }
    const payload =
      op.kind === "activity"
        ? {
            type: op.activityType,
            timestampMs: String(Math.trunc(this.clock.now())),
            organizationId: this.organizationId,
            parameters: checked,
            ...(options.generateAppProofs ? { generateAppProofs: true } : {}),
          }
        : { organizationId: this.organizationId, ...(checked as Record<string, unknown>) };
    const body = JSON.stringify(payload);
    if (!this.stamper)
      throw new TurnkeyClientError(`${name}: no API key to stamp the request with`);
    const { stampHeaderName, stampHeaderValue } = await this.stamper.stamp(body);
    headers[stampHeaderName] = stampHeaderValue;
    return { url: `${this.baseUrl}${op.path}`, headers, body };
  }

  async callWithMeta<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<{ data: OutputOf<N>; meta: ResponseMeta }> {
    const { body, meta } = await this.callForBody(name, input, options);
    return { data: await decodeBody(name, body, options.fastPath), meta };
  }

  /**
   * As callWithMeta, but the successful response's body is handed back as bytes, not yet decoded
   * (`decodeBody` decodes it as callWithMeta does): for a caller that can read a large body of a
   * known shape faster itself, and decodes it when it is not of that shape.
   */
  callForBody<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<{ body: Uint8Array; meta: ResponseMeta }> {
    return this.callForRead(name, input, options, chunksBytes, true);
  }

  /**
   * As callForBody, but the body is handed back as the chunks it came in, never joined: for a
   * caller that reads them where they are as they come (CallOptions.onBodyChunk), and joins them
   * only when it must decode the body after all.
   */
  callForChunks<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<{ body: BodyChunks; meta: ResponseMeta }> {
    return this.callForRead(name, input, options, (body) => body);
  }

  /**
   * As callForBody, but the body is handed back as text, made from the chunks it came in, with
   * no block of bytes the size of the body (see response-body.ts): for answers that come every
   * poll. `decodeBody` decodes it.
   */
  callForText<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<{ body: string; meta: ResponseMeta }> {
    return this.callForRead(name, input, options, chunksText);
  }

  /**
   * One call, retried by the policy; a successful response's body made into `T` by `read`.
   * `oneBlock`: `read` joins the chunks into one block (see readBodyWithin).
   */
  private async callForRead<N extends OperationName, T>(
    name: N,
    input: InputOf<N>,
    options: CallOptions,
    read: (body: BodyChunks) => T,
    oneBlock = false,
  ): Promise<{ body: T; meta: ResponseMeta }> {
    const { route, checked } = await checkInput(name, input, options.fastPath);
    const request = await this.requestFor(name, route, checked, options);
    const timeoutMs = Math.min(options.timeoutMs ?? this.timeoutMs, MAX_TIMER_MS);
    let attempts = 0;

    const attempt = async (): Promise<{ body: T; meta: ResponseMeta }> => {
      attempts += 1;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const sentAtWall = this.clock.now();
      const sentAtMonotonic = this.clock.monotonic();
      let response: FetchResponse | undefined;
      let received: BodyChunks | undefined;
      let errorText = "";
      try {
        response = await this.fetchImpl(request.url, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          signal,
          // Never follow: a redirect would resend the stamped request (X-Stamp and body) to a
          // host nobody configured, over whatever scheme the Location says.
          redirect: "manual",
        });
        if (isRedirect(response.status)) {
          await response.body?.cancel().catch(() => {});
          throw new RedirectError(
            name,
            response.status,
            locationHost(response.headers.get("location"), request.url),
            route.kind === "auth-proxy" ? "auth-proxy URL" : "base URL",
          );
        }
        // An error body needs little room: its message is all that is read of it.
        const limit = response.ok
          ? this.maxResponseBytes
          : Math.min(this.maxResponseBytes, MAX_ERROR_BODY_BYTES);
        const body = await readBodyWithin(
          response,
          limit,
          oneBlock && response.ok,
          response.ok ? options.onBodyChunk : undefined,
        );
        if (!body.ok) {
          if (response.ok) throw new ResponseTooLargeError(name, limit, body.declared);
          errorText = JSON.stringify({
            message: `HTTP ${response.status} with an error body larger than ${formatByteSize(limit)} (not read)`,
          });
        } else if (response.ok) received = body;
        else errorText = chunksText(body);
      } catch (err) {
        if (options.signal?.aborted || err instanceof RefusedResponseError) throw err;
        const failure = describeNetworkFailure(err, {
          url: request.url,
          timedOutAfterMs: timeout.aborted ? timeoutMs : undefined,
          headersReceived: response !== undefined,
          bodyBytes: Buffer.byteLength(request.body),
        });
        throw new NetworkError(`${name}: ${failure.message}`, attempts, err, failure.kind);
      }
      const receivedAtWall = this.clock.now();
      const receivedAtMonotonic = this.clock.monotonic();
      if (!response.ok) {
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), receivedAtWall);
        throw parseErrorBody(response.status, errorText, name, retryAfterMs);
      }
      const dateHeader = response.headers.get("date");
      const serverDate = dateHeader ? Date.parse(dateHeader) : Number.NaN;
      const meta: ResponseMeta = {
        status: response.status,
        sentAtWall,
        receivedAtWall,
        sentAtMonotonic,
        receivedAtMonotonic,
        attempts,
        ...(Number.isNaN(serverDate) ? {} : { serverDate }),
      };
      return { body: read(received ?? { chunks: [], byteLength: 0 }), meta };
    };

    const policy =
      options.retries === undefined
        ? this.retryPolicy
        : { ...this.retryPolicy, retries: Math.max(0, options.retries) };
    try {
      return await withRetries(attempt, policy, {
        signal: options.signal,
        onRetry: options.onRetry,
        decide: (error) => retryDecision(error, "request"),
        sleep: this.sleep,
        tooLongRetryAfter: (error, askedMs, maxMs) =>
          error instanceof TurnkeyApiError
            ? error.withAdvice(
                `the server asks to wait ${formatDuration(askedMs)} before a retry, longer than tvcwatch waits (${formatDuration(maxMs)}): try again later`,
              )
            : error,
      });
    } catch (err) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      // A network failure that passes, met on every attempt: said so, with how many there were.
      if (err instanceof NetworkError && retryDecision(err, "request").action !== "stop") {
        throw new NetworkError(
          attempts > 1 ? `${err.message} (gave up after ${attempts} attempts)` : err.message,
          attempts,
          err.cause,
          err.kind,
        );
      }
      throw err;
    }
  }
}

function checkedUrl(value: string, what: string): string {
  try {
    return checkServiceUrl(value, what);
  } catch (err) {
    throw new TurnkeyClientError((err as Error).message);
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The host a Location header points at (relative ones resolve against the request's URL). */
function locationHost(location: string | null, requestUrl: string): string | undefined {
  if (!location) return undefined;
  let host: string;
  try {
    host = new URL(location, requestUrl).host;
  } catch {
    host = excerpt(location, 80);
  }
  return sanitizeForTerminal(host);
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new Error("the request was aborted");
}

/** What the client needs of an operation to send it (a FastPath, or the table's entry). */
type OperationRoute =
  | { readonly kind: "query" | "auth-proxy"; readonly path: string }
  | { readonly kind: "activity"; readonly path: string; readonly activityType: string };

/** The schemas and zod, loaded for what a call's FastPath does not cover. */
const loadValidation = () => import("./validation.js");

/** The call's FastPath, if it has one for this operation. */
function fastPathOf(name: OperationName, fast: FastPath | undefined): FastPath | undefined {
  return fast?.name === name ? fast : undefined;
}

/** The operation's route and its input checked (RequestValidationError naming the field). */
async function checkInput(
  name: OperationName,
  input: unknown,
  fastPath: FastPath | undefined,
): Promise<{ route: OperationRoute; checked: unknown }> {
  const fast = fastPathOf(name, fastPath);
  if (fast?.acceptsInput(input)) return { route: fast, checked: input };
  const { getOperation, validateInput } = await loadValidation();
  return { route: getOperation(name), checked: validateInput(name, input) };
}

/**
 * A successful response's body (from callForBody, as bytes or already as text) parsed and
 * checked, as callWithMeta does (with the call's FastPath, if it had one).
 */
export async function decodeBody<N extends OperationName>(
  name: N,
  body: Uint8Array | string,
  fastPath?: FastPath,
): Promise<OutputOf<N>> {
  const text = typeof body === "string" ? body : bodyText(body);
  return (await decode(name, text, fastPath)) as OutputOf<N>;
}

/** A successful response body parsed and checked (ResponseShapeError naming the field). */
async function decode(
  name: OperationName,
  text: string,
  fastPath: FastPath | undefined,
): Promise<unknown> {
  const json = parseResponseJson(name, text);
  if (fastPathOf(name, fastPath)?.acceptsResponse(json)) return json;
  return (await loadValidation()).validateResponse(name, json);
}
