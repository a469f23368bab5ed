/**
 * Typed errors of the client. Turnkey's error body is grpc-gateway's `{code, message, details}`;
 * `turnkeyErrorCode` sits either at the top level or in a details entry of type
 * `type.googleapis.com/errors.v1.TurnkeyErrorDetail`; field violations in `google.rpc.BadRequest`.
 */

import { formatByteSize } from "../text/byte-size.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { CODE_OF_STATUS, GRPC_CODE_NAMES } from "./grpc-codes.js";
import type { NetworkFailureKind } from "./network-errors.js";

export class TurnkeyClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface FieldViolation {
  field: string;
  description: string;
}

export class TurnkeyApiError extends TurnkeyClientError {
  readonly httpStatus: number;
  readonly grpcCode: number | undefined;
  readonly codeName: string;
  readonly turnkeyErrorCode: string | undefined;
  readonly details: unknown[];
  readonly fieldViolations: FieldViolation[];
  /** The operation that failed, when known. */
  readonly operation: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** What the client adds for a person, e.g. why it did not retry. */
  readonly advice: string | undefined;

  constructor(init: {
    httpStatus: number;
    grpcCode?: number | undefined;
    message: string;
    turnkeyErrorCode?: string | undefined;
    details?: unknown[];
    fieldViolations?: FieldViolation[];
    operation?: string | undefined;
    retryAfterMs?: number | undefined;
    advice?: string | undefined;
  }) {
    super(init.message);
    this.httpStatus = init.httpStatus;
    this.grpcCode = init.grpcCode ?? CODE_OF_STATUS[init.httpStatus];
    this.codeName =
      this.grpcCode === undefined
        ? `HTTP_${init.httpStatus}`
        : (GRPC_CODE_NAMES[this.grpcCode] ?? `CODE_${this.grpcCode}`);
    this.turnkeyErrorCode = init.turnkeyErrorCode;
    this.details = init.details ?? [];
    this.fieldViolations = init.fieldViolations ?? [];
    this.operation = init.operation;
    this.retryAfterMs = init.retryAfterMs;
    this.advice = init.advice;
  }

  /** The same error with advice for a person appended to its line. */
  withAdvice(advice: string): TurnkeyApiError {
    return new TurnkeyApiError({
      httpStatus: this.httpStatus,
      grpcCode: this.grpcCode,
      message: this.message,
      turnkeyErrorCode: this.turnkeyErrorCode,
      details: this.details,
      fieldViolations: this.fieldViolations,
      operation: this.operation,
      retryAfterMs: this.retryAfterMs,
      advice,
    });
  }

  /** One line for a person: `UNAUTHENTICATED (HTTP 401): could not verify api key signature`. */
  describe(): string {
    const parts = [`${this.codeName} (HTTP ${this.httpStatus}): ${this.message}`];
    for (const v of this.fieldViolations) {
      // A violation that only repeats the message adds nothing to the line.
      if (!this.message.includes(v.description)) parts.push(`[${v.field}: ${v.description}]`);
    }
    if (this.turnkeyErrorCode) parts.push(`[turnkeyErrorCode ${this.turnkeyErrorCode}]`);
    const line = parts.join(" ");
    return this.advice ? `${line}; ${this.advice}` : line;
  }
}

/**
 * A connection failure or timeout: of one attempt, or one that outlasted the retries. `kind` says
 * what failed (./network-errors.ts); whether another attempt can help is ./retry-decision.ts's to
 * say (not for a port fetch refuses, a certificate not trusted, a large body cut off).
 */
export class NetworkError extends TurnkeyClientError {
  readonly attempts: number;
  readonly kind: NetworkFailureKind;
  constructor(
    message: string,
    attempts: number,
    cause?: unknown,
    kind: NetworkFailureKind = "other",
  ) {
    super(message, { cause });
    this.attempts = attempts;
    this.kind = kind;
  }
}

/**
 * A response the client refuses to use, which another attempt would only repeat: a redirect (the
 * client never follows one: the stamped request would go where nobody configured it to). Never
 * retried, and a follower stops on it.
 */
export class RefusedResponseError extends TurnkeyClientError {}

/**
 * A 3xx answer. `host` is the Location's host (sanitized), when it had one; `setting` the URL
 * setting the request went to ("base URL" or "auth-proxy URL").
 */
export class RedirectError extends RefusedResponseError {
  readonly httpStatus: number;
  readonly host: string | undefined;
  readonly setting: string;
  constructor(operation: string, httpStatus: number, host: string | undefined, setting: string) {
    super(
      `${operation}: the server answered HTTP ${httpStatus}, a redirect ${host ? `to ${host}` : "without a Location"}; tvcwatch never follows redirects (check the ${setting})`,
    );
    this.httpStatus = httpStatus;
    this.host = host;
    this.setting = setting;
  }
}

/** A response body over the client's size limit: reading stopped there, the request aborted. */
export class ResponseTooLargeError extends RefusedResponseError {
  readonly limitBytes: number;
  constructor(operation: string, limitBytes: number, declared: boolean) {
    super(
      `${operation}: the server's answer is ${declared ? "announced as " : ""}larger than the response size limit (${formatByteSize(limitBytes)}); ${declared ? "not read" : "stopped reading"}`,
    );
    this.limitBytes = limitBytes;
  }
}

/** A response that does not have the shape the operation documents. */
export class ResponseShapeError extends TurnkeyClientError {
  readonly path: string;
  constructor(operation: string, path: string, expected: string) {
    super(
      `${operation}: the server's response has an unexpected ${excerpt(path, 200) || "body"}: ${excerpt(expected, 200)}`,
    );
    this.path = path;
  }
}

/** A successful response body parsed as JSON; a ResponseShapeError when it is not JSON. */
export function parseResponseJson(operation: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseShapeError(operation, "", `not JSON (${excerpt(text, 80) || "empty"})`);
  }
}

/** Input that fails the operation's request schema, caught before anything is sent. */
export class RequestValidationError extends TurnkeyClientError {
  readonly path: string;
  constructor(operation: string, path: string, expected: string) {
    super(
      `${operation}: ${path ? `field ${excerpt(path, 200)}` : "the body"}: ${excerpt(expected)}`,
    );
    this.path = path;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Untrusted text (a server's message, a field name) for a one-line message: line breaks and
 * tabs become spaces, it is shortened, and every control, bidi or zero-width character left is
 * shown escaped by the terminal sanitizer (`\x1b[2J`, `\u200e`), never passed to the terminal.
 */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/[\t\n\r\v\f\u2028\u2029]+/g, " ").trim();
  let cut = flat;
  if (flat.length > max) {
    // Not between the two halves of a surrogate pair.
    const end = /[\ud800-\udbff]/.test(flat.charAt(max - 1)) ? max - 1 : max;
    cut = `${flat.slice(0, end)}…`;
  }
  return sanitizeForTerminal(cut);
}

/** Builds a TurnkeyApiError from an HTTP status and the raw body text. */
export function parseErrorBody(
  httpStatus: number,
  bodyText: string,
  operation?: string,
  retryAfterMs?: number,
): TurnkeyApiError {
  let body: Record<string, unknown> | undefined;
  try {
    body = asRecord(JSON.parse(bodyText));
  } catch {
    body = undefined;
  }
  if (!body) {
    const text = excerpt(bodyText);
    return new TurnkeyApiError({
      httpStatus,
      message: text ? `non-JSON error body: ${text}` : "empty error body",
      operation,
      retryAfterMs,
    });
  }
  const details = Array.isArray(body.details) ? body.details : [];
  let turnkeyErrorCode =
    typeof body.turnkeyErrorCode === "string" ? body.turnkeyErrorCode : undefined;
  const fieldViolations: FieldViolation[] = [];
  for (const d of details) {
    const rec = asRecord(d);
    if (!rec) continue;
    if (!turnkeyErrorCode && typeof rec.turnkeyErrorCode === "string")
      turnkeyErrorCode = rec.turnkeyErrorCode;
    if (Array.isArray(rec.fieldViolations)) {
      for (const fv of rec.fieldViolations) {
        const v = asRecord(fv);
        if (v)
          fieldViolations.push({
            field: excerpt(String(v.field ?? ""), 80),
            description: excerpt(String(v.description ?? ""), 160),
          });
      }
    }
  }
  const rawMessage =
    typeof body.message === "string"
      ? body.message
      : typeof body.error === "string"
        ? body.error
        : "";
  return new TurnkeyApiError({
    httpStatus,
    grpcCode: typeof body.code === "number" ? body.code : undefined,
    message: excerpt(rawMessage) || `HTTP ${httpStatus}`,
    turnkeyErrorCode: turnkeyErrorCode ? excerpt(turnkeyErrorCode, 80) : undefined,
    details,
    fieldViolations,
    operation,
    retryAfterMs,
  });
}
