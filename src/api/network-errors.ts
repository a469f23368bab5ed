/**
 * Network failures in plain words, the same in every command: "api.turnkey.com could not be
 * resolved", "connection refused by 127.0.0.1:8787", "127.0.0.1:8787 did not answer within 30s",
 * "TLS certificate of api.example.com not trusted (self-signed certificate)", rather than fetch's
 * "fetch failed" and a system error code.
 */
import { formatDuration } from "../text/duration.js";
import { sanitizeForTerminal } from "../text/sanitize.js";

/**
 * What failed, for ./retry-decision.ts to say whether another attempt can fare better (not for a
 * port fetch refuses, a certificate not trusted, a large request body the server cut off).
 */
export type NetworkFailureKind =
  | "timeout"
  | "bad-port"
  | "tls-certificate"
  | "tls-handshake"
  | "not-resolved"
  | "refused"
  | "unreachable"
  | "connect-timeout"
  | "closed"
  | "closed-large-body"
  | "other";

export interface NetworkFailure {
  /** One line, without the operation's name. */
  message: string;
  kind: NetworkFailureKind;
}

export interface FailureContext {
  /** The request's URL. */
  url: string;
  /** The per-attempt timeout, when that is what ended the attempt. */
  timedOutAfterMs?: number | undefined;
  /** Whether the response's headers had arrived (so it was the body that did not finish). */
  headersReceived?: boolean;
  /** Bytes of the request body. */
  bodyBytes: number;
}

/** Request bodies from this size on are not resent after the server cut the connection. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Certificate problems (OpenSSL's verify codes as Node reports them). */
const CERT_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "INVALID_CA",
  "HOSTNAME_MISMATCH",
]);

interface Cause {
  code?: string;
  message?: string;
  errors?: unknown[];
  cause?: unknown;
}

/** The innermost error that carries a code (fetch wraps the system error in "fetch failed"). */
function rootCause(err: unknown): Cause {
  let current = err as Cause | undefined;
  let best: Cause = current ?? {};
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code) best = current;
    const next: unknown = current.cause ?? current.errors?.[0];
    if (!next || typeof next !== "object") break;
    current = next as Cause;
    if (!best.code) best = current;
  }
  return best;
}

/** `host:port` of a URL, with the scheme's default port when none is written. */
export function hostPort(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** One plain line for a failed attempt, and what kind of failure it is. */
export function describeNetworkFailure(err: unknown, context: FailureContext): NetworkFailure {
  const url = new URL(context.url);
  const host = url.hostname;
  const where = hostPort(url);
  if (context.timedOutAfterMs !== undefined) {
    const within = formatDuration(context.timedOutAfterMs);
    return {
      message: context.headersReceived
        ? `${where} did not finish its answer within ${within}`
        : `${where} did not answer within ${within}`,
      kind: "timeout",
    };
  }
  const cause = rootCause(err);
  const code = cause.code ?? "";
  const detail = sanitizeForTerminal((cause.message ?? String(err)).split("\n")[0] ?? "");
  if (/bad port/i.test(detail)) {
    return {
      message: `port ${url.port} of ${url.origin} is one that fetch refuses to use ("bad port", as for 1, 6000 or 6665-6669); serve the API on another port`,
      kind: "bad-port",
    };
  }
  if (CERT_CODES.has(code) || /certificate/i.test(detail)) {
    return {
      message: `TLS certificate of ${host} not trusted (${detail})`,
      kind: "tls-certificate",
    };
  }
  if (code.startsWith("ERR_SSL") || code === "EPROTO" || code.startsWith("ERR_TLS")) {
    return {
      message: `TLS handshake with ${where} failed (${detail}); is it an https server?`,
      kind: "tls-handshake",
    };
  }
  switch (code) {
    case "ENOTFOUND":
      return { message: `${host} could not be resolved`, kind: "not-resolved" };
    case "EAI_AGAIN":
      return {
        message: `${host} could not be resolved (name server not answering)`,
        kind: "not-resolved",
      };
    case "ECONNREFUSED":
      return { message: `connection refused by ${where}`, kind: "refused" };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ENETDOWN":
      return { message: `${where} is unreachable from here (no route)`, kind: "unreachable" };
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return { message: `${where} did not accept the connection in time`, kind: "connect-timeout" };
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      // A server that refuses a large body often just closes the connection while it is being
      // sent: sending the same body again would only repeat that, five times over.
      if (!context.headersReceived && context.bodyBytes >= LARGE_BODY_BYTES) {
        return {
          message: `${where} closed the connection while the ${mib(context.bodyBytes)} request body was being sent (the server may refuse bodies that large); not resent`,
          kind: "closed-large-body",
        };
      }
      return {
        message: context.headersReceived
          ? `${where} closed the connection in the middle of its answer`
          : `${where} closed the connection before answering`,
        kind: "closed",
      };
    default:
      return {
        message: `${where}: ${code ? `${code} ` : ""}${detail}`.trim(),
        kind: "other",
      };
  }
}
