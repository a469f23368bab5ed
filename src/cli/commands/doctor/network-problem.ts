/**
 * A failed connection as a doctor line: the words are the client's (src/api/network-errors.ts,
 * the one wording every command uses: "api.turnkey.com could not be resolved", "connection
 * refused by 127.0.0.1:8787"), and doctor adds what to do about it, naming the setting the URL
 * came from.
 */
import { NetworkError } from "../../../api/errors.js";
import { describeNetworkFailure } from "../../../api/network-errors.js";

export interface Problem {
  message: string;
  fix: string;
}

/** The system error code at the bottom of a failure (fetch wraps it in one or more causes). */
export function networkErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const NOT_RESOLVED = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const NO_ROUTE = new Set(["EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ENETDOWN", "EHOSTDOWN"]);
const CLOSED = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED"]);

/** `whoami: connection refused by …` without the operation's name: the line names the check. */
function withoutOperation(message: string): string {
  return message.replace(/^[a-z][a-z0-9_]*: /, "");
}

/**
 * What went wrong reaching `url`, and the fix. `err` is the client's NetworkError or a raw
 * system error (a DNS lookup's); `what` names the setting the URL came from.
 */
export function describeNetworkProblem(err: unknown, url: URL, what: string): Problem {
  const message =
    err instanceof NetworkError
      ? withoutOperation(err.message)
      : describeNetworkFailure(err, { url: url.toString(), bodyBytes: 0 }).message;
  return { message, fix: fixFor(networkErrorCode(err), message, what) };
}

function fixFor(code: string | undefined, message: string, what: string): string {
  if (code && NOT_RESOLVED.has(code)) {
    return `check the host name in the ${what} and this machine's DNS and network`;
  }
  if (code === "ECONNREFUSED")
    return `check the port in the ${what}, and that the server is running`;
  if (code && NO_ROUTE.has(code)) return "check this machine's network, VPN or proxy";
  if (/^port \d+ of .* fetch refuses/.test(message)) return `change the port in the ${what}`;
  if (/^TLS certificate of /.test(message)) {
    return "behind a TLS-inspecting proxy, point NODE_EXTRA_CA_CERTS at its CA certificate file";
  }
  if (/^TLS handshake with /.test(message)) return `check the scheme and port in the ${what}`;
  if (/did not (answer|finish its answer|accept the connection)/.test(message)) {
    return "check this machine's network, proxy or firewall (or allow more with --timeout)";
  }
  if (code && CLOSED.has(code)) {
    return `check that the ${what} points at Turnkey's API, and any proxy in between`;
  }
  return `check the ${what} and this machine's network`;
}
