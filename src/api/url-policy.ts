import { isIP } from "node:net";

/** True for localhost, 127.0.0.0/8 and ::1: the hosts where plain http cannot be intercepted. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1";
  return false;
}

/**
 * Checks a service URL: it must parse, be https (or http to a loopback host), and carry no
 * credentials, query or fragment. Returns it without a trailing slash; throws a one-line Error.
 */
export function checkServiceUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `${what} ${JSON.stringify(value)} is not a URL (expected e.g. https://api.turnkey.com)`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`${what} ${value} must use https://`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new Error(
      `${what} ${value} uses plain http to a non-loopback host; use https:// (http is allowed only for localhost, 127.0.0.0/8 and ::1)`,
    );
  }
  if (url.username || url.password)
    throw new Error(`${what} must not carry a user name or password`);
  if (url.search || url.hash) throw new Error(`${what} must not have a query or fragment`);
  return url.toString().replace(/\/+$/, "");
}
