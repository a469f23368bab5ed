/** Doctor's lines on the base URL: whether it is allowed (https, or http to loopback) and resolves. */
import { checkServiceUrl } from "../../../api/url-policy.js";
import type { CheckResult } from "./check.js";
import { fail, pass } from "./check.js";
import { describeNetworkProblem } from "./network-problem.js";

export interface BaseUrlCheck {
  check: CheckResult;
  /** The URL, when it is allowed. */
  url?: URL;
}

/** `what` names the setting and where it came from, for the fix. */
export function baseUrlCheck(value: string, what: string): BaseUrlCheck {
  try {
    const url = new URL(checkServiceUrl(value, "base URL"));
    return {
      url,
      check: pass(
        "base-url",
        "base URL allowed",
        url.protocol === "https:"
          ? "https"
          : `plain http, allowed because ${url.hostname} is this machine (loopback)`,
      ),
    };
  } catch (err) {
    return {
      check: fail("base-url", "base URL allowed", (err as Error).message, `change the ${what}`),
    };
  }
}

/** The addresses a host name resolves to; throws as dns.lookup does. */
export type Lookup = (host: string) => Promise<string[]>;

export async function resolveCheck(url: URL, what: string, lookup: Lookup): Promise<CheckResult> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(host) || host.includes(":")) {
    return pass("base-url-dns", "base URL resolves", `${host} is an IP address`);
  }
  try {
    const addresses = await lookup(host);
    return pass(
      "base-url-dns",
      "base URL resolves",
      `${host} resolves to ${addresses.join(", ")}`,
      {
        addresses,
      },
    );
  } catch (err) {
    const problem = describeNetworkProblem(err, url, what);
    return fail("base-url-dns", "base URL resolves", problem.message, problem.fix);
  }
}
