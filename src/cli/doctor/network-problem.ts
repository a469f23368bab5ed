/**
 * A failed connection in plain words, with what to do about it: "api.turnkey.com could not be
 * resolved", not ENOTFOUND. Doctor's own wording until the client's network errors say the
 * same (the network owner's src/api errors); then this should call theirs.
 */

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
const TIMED_OUT = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT"]);
const CLOSED = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]);
const NOT_TLS = new Set([
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "EPROTO",
  "ERR_SSL_PACKET_LENGTH_TOO_LONG",
]);

/** The host and port a URL connects to: `api.turnkey.com`, `127.0.0.1:8787`. */
export function hostOf(url: URL): string {
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

/** What went wrong reaching `url`, and the fix. `what` names the setting the URL came from. */
export function describeNetworkProblem(err: unknown, url: URL, what: string): Problem {
  const code = networkErrorCode(err);
  const host = url.hostname;
  const hostPort = hostOf(url);
  if (code && NOT_RESOLVED.has(code)) {
    return {
      message: `${host} could not be resolved`,
      fix: `check the host name in the ${what} and this machine's DNS and network`,
    };
  }
  if (code === "ECONNREFUSED") {
    return {
      message: `${hostPort} refused the connection (nothing listens there)`,
      fix: `check the port in the ${what}, and that the server is running`,
    };
  }
  if (code && NO_ROUTE.has(code)) {
    return {
      message: `${host} cannot be reached from this machine (no route)`,
      fix: "check this machine's network, VPN or proxy",
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  if ((code && TIMED_OUT.has(code)) || /no response within/.test(message)) {
    return {
      message: `${hostPort} did not answer in time`,
      fix: "check this machine's network, proxy or firewall (or allow more with --timeout)",
    };
  }
  if (code && CLOSED.has(code)) {
    return {
      message: `${hostPort} closed the connection`,
      fix: `check that the ${what} points at Turnkey's API, and any proxy in between`,
    };
  }
  if (code && NOT_TLS.has(code)) {
    return {
      message: `${hostPort} does not speak TLS (https) on that port`,
      fix: `check the scheme and port in the ${what}`,
    };
  }
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS/.test(code)) {
    return {
      message: `${host}'s TLS certificate was not accepted (${code})`,
      fix: "behind a TLS-inspecting proxy, point NODE_EXTRA_CA_CERTS at its CA certificate file",
    };
  }
  return {
    message: `${hostPort} could not be reached (${code ?? message.split("\n")[0]})`,
    fix: `check the ${what} and this machine's network`,
  };
}
