/**
 * The typed Turnkey client. Every operation of the table in ./operations.ts goes through `call`:
 * the input is validated before anything is sent, the body is serialised once and that exact
 * string is stamped and sent (and resent, byte for byte, on a retry, so the server's idempotency
 * returns the same activity), and the response is validated before anyone reads it.
 */
import pRetry, { AbortError } from "p-retry";
import type { z } from "zod";
import { checkServiceUrl } from "../config/url-policy.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import {
  excerpt,
  NetworkError,
  parseErrorBody,
  RedirectError,
  RequestValidationError,
  ResponseShapeError,
  TurnkeyApiError,
  TurnkeyClientError,
} from "./errors.js";
import { FAST_GUARDS } from "./fast-guards.js";
import type { InputOf, Operation, OperationName, OutputOf } from "./operations.js";
import { getOperation } from "./operations.js";
import { activity as activitySchema } from "./schemas.js";
import type { ApiKeyPair } from "./stamp.js";
import { STAMP_HEADER, stampBody } from "./stamp.js";

export interface ClientOptions {
  baseUrl: string;
  organizationId: string;
  apiKey?: ApiKeyPair | undefined;
  authProxyUrl?: string | undefined;
  authProxyConfigId?: string | undefined;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 4. */
  retries?: number;
  /** First backoff delay. Default 500 ms; doubles each retry, with jitter. */
  minRetryDelayMs?: number;
  /** Longest backoff delay, and the cap on an honoured Retry-After. Default 20 s. */
  maxRetryDelayMs?: number;
}

export interface RetryInfo {
  attempt: number;
  retriesLeft: number;
  error: Error;
  delayMs: number;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  generateAppProofs?: boolean | undefined;
  timeoutMs?: number | undefined;
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

/** A failure of one attempt that another attempt may not meet (reset, refused, timed out). */
class TransientNetworkError extends TurnkeyClientError {}

function zodIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: "", message: "invalid" };
  // "Invalid input: expected string, received undefined" says less than "required (a string)".
  const missing = /^Invalid input: expected (\w+), received undefined$/.exec(issue.message);
  const type = missing?.[1];
  const message = type ? `required (${/^[aeiou]/.test(type) ? "an" : "a"} ${type})` : issue.message;
  return { path: issue.path.map(String).join("."), message };
}

/**
 * Checks an operation's input (an activity's `parameters`, a query's fields beyond
 * organizationId) against the table's request schema; returns the parsed input or throws a
 * RequestValidationError naming the field and what was expected. Nothing is sent.
 */
export function validateInput(name: OperationName, input: unknown): unknown {
  const op = getOperation(name);
  const schema = op.kind === "activity" ? op.params : op.request;
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const { path, message } = zodIssue(parsed.error);
  throw new RequestValidationError(
    name,
    op.kind === "activity" && path ? `parameters.${path}` : path,
    message,
  );
}

/** Retry-After as seconds or an HTTP date, in ms from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describeNetworkCause(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.cause?.code) return e.cause.code;
  if (e?.cause?.message) return excerpt(e.cause.message, 120);
  return excerpt(e?.message ?? String(err), 120);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class TurnkeyClient {
  readonly baseUrl: string;
  readonly organizationId: string;
  readonly authProxyUrl: string | undefined;
  readonly authProxyConfigId: string | undefined;
  private readonly apiKey: ApiKeyPair | undefined;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly minRetryDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(options: ClientOptions) {
    // The URL policy holds here too, whoever builds the client: https, or http to loopback only.
    this.baseUrl = checkedUrl(options.baseUrl, "base URL");
    this.organizationId = options.organizationId;
    this.apiKey = options.apiKey;
    this.authProxyUrl =
      options.authProxyUrl === undefined
        ? undefined
        : checkedUrl(options.authProxyUrl, "auth-proxy URL");
    this.authProxyConfigId = options.authProxyConfigId;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = options.retries ?? 4;
    this.minRetryDelayMs = options.minRetryDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 20_000;
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
  buildRequest(
    name: OperationName,
    input: unknown,
    options: Pick<CallOptions, "generateAppProofs"> = {},
  ): { url: string; headers: Record<string, string>; body: string } {
    const op = getOperation(name);
    const checked = validateInput(name, input);
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
    if (!this.apiKey) throw new TurnkeyClientError(`${name}: no API key to stamp the request with`);
    headers[STAMP_HEADER] = stampBody(body, this.apiKey);
    return { url: `${this.baseUrl}${op.path}`, headers, body };
  }

  async callWithMeta<N extends OperationName>(
    name: N,
    input: InputOf<N>,
    options: CallOptions = {},
  ): Promise<{ data: OutputOf<N>; meta: ResponseMeta }> {
    const request = this.buildRequest(name, input, options);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let attempts = 0;

    const attempt = async (): Promise<{ data: OutputOf<N>; meta: ResponseMeta }> => {
      attempts += 1;
      if (options.signal?.aborted) throw new AbortError(abortReason(options.signal));
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const sentAtWall = this.clock.now();
      const sentAtMonotonic = this.clock.monotonic();
      let response: Response;
      let text: string;
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
            getOperation(name).kind === "auth-proxy" ? "--auth-proxy-url" : "--base-url",
          );
        }
        text = await response.text();
      } catch (err) {
        if (options.signal?.aborted) throw new AbortError(abortReason(options.signal));
        if (err instanceof RedirectError) throw err;
        if (timeout.aborted) {
          throw new TransientNetworkError(
            `${name}: no response within ${Math.round(timeoutMs / 100) / 10}s`,
          );
        }
        throw new TransientNetworkError(`${name}: ${describeNetworkCause(err)}`, { cause: err });
      }
      const receivedAtWall = this.clock.now();
      const receivedAtMonotonic = this.clock.monotonic();
      if (!response.ok) {
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), receivedAtWall);
        throw parseErrorBody(response.status, text, name, retryAfterMs);
      }
      const data = decodeResponse(name, text) as OutputOf<N>;
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
      return { data, meta };
    };

    const isRetryable = (error: Error) =>
      error instanceof TransientNetworkError ||
      (error instanceof TurnkeyApiError && error.retryable);

    try {
      return await pRetry(attempt, {
        retries: this.retries,
        minTimeout: 0,
        maxTimeout: 0,
        randomize: false,
        ...(options.signal ? { signal: options.signal } : {}),
        shouldRetry: ({ error }) => isRetryable(error),
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (!isRetryable(error) || retriesLeft <= 0) return;
          const backoff = Math.min(
            this.maxRetryDelayMs,
            this.minRetryDelayMs * 2 ** (attemptNumber - 1),
          );
          const jittered = backoff / 2 + Math.random() * (backoff / 2);
          const retryAfter = error instanceof TurnkeyApiError ? error.retryAfterMs : undefined;
          const delayMs = Math.round(
            retryAfter === undefined
              ? jittered
              : Math.min(this.maxRetryDelayMs, Math.max(retryAfter, 0)),
          );
          options.onRetry?.({ attempt: attemptNumber, retriesLeft, error, delayMs });
          try {
            await sleep(delayMs, options.signal);
          } catch {
            throw new AbortError(abortReason(options.signal));
          }
        },
      });
    } catch (err) {
      if (err instanceof TransientNetworkError) {
        throw new NetworkError(
          `${err.message} (gave up after ${attempts} attempts)`,
          attempts,
          err,
        );
      }
      if (options.signal?.aborted && !(err instanceof TurnkeyClientError)) {
        throw options.signal.reason instanceof Error ? options.signal.reason : new Error("aborted");
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

/** Parses and validates a successful response body of an operation; throws ResponseShapeError. */
export function decodeResponse(name: OperationName, text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(name, "", `not JSON (${excerpt(text, 80) || "empty"})`);
  }
  return validateResponse(name, getOperation(name), json);
}

function validateResponse(name: OperationName, op: Operation, json: unknown): unknown {
  if (FAST_GUARDS[name]?.(json)) return json;
  if (op.kind !== "activity") {
    const parsed = op.response.safeParse(json);
    if (!parsed.success) {
      const { path, message } = zodIssue(parsed.error);
      throw new ResponseShapeError(name, path, message);
    }
    return parsed.data;
  }
  const envelope = (json as { activity?: unknown } | null)?.activity;
  const parsed = activitySchema.safeParse(envelope);
  if (!parsed.success) {
    const { path, message } = zodIssue(parsed.error);
    throw new ResponseShapeError(name, path ? `activity.${path}` : "activity", message);
  }
  const result = parsed.data.result[op.resultKey];
  if (result !== undefined) {
    const checked = op.result.safeParse(result);
    if (!checked.success) {
      const { path, message } = zodIssue(checked.error);
      throw new ResponseShapeError(
        name,
        `activity.result.${op.resultKey}${path ? `.${path}` : ""}`,
        message,
      );
    }
  }
  return { ...(json as object), activity: parsed.data };
}
