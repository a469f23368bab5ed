/** The auth proxy, when a config ID is set: it answers, and for the configured organization. */
import { TurnkeyClient } from "../../../api/client.js";
import type { Clock } from "../../../api/clock.js";
import { NetworkError, TurnkeyApiError, TurnkeyClientError } from "../../../api/errors.js";
import { checkServiceUrl } from "../../../api/url-policy.js";
import type { Sourced } from "../../../config/setting-sources.js";
import { originOf } from "../../../config/setting-sources.js";
import { formatDuration } from "../../../text/duration.js";
import type { CheckResult } from "./check.js";
import { fail, pass } from "./check.js";
import { describeNetworkProblem } from "./network-problem.js";

export interface RequestOptions {
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
}

export async function authProxyCheck(
  url: Sourced<string>,
  configId: Sourced<string>,
  organizationId: string | undefined,
  options: RequestOptions,
): Promise<CheckResult> {
  const title = "auth proxy";
  const what = `auth-proxy URL (${originOf(url)})`;
  let checked: URL;
  try {
    checked = new URL(checkServiceUrl(url.value, "auth-proxy URL"));
  } catch (err) {
    return fail("auth-proxy", title, (err as Error).message, `change the ${what}`);
  }
  const client = new TurnkeyClient({
    baseUrl: checked.origin,
    organizationId: organizationId ?? "",
    authProxyUrl: checked.toString().replace(/\/+$/, ""),
    authProxyConfigId: configId.value,
    timeoutMs: options.timeoutMs,
    retries: 1,
    minRetryDelayMs: 250,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  try {
    const { data, meta } = await client.callWithMeta("wallet_kit_config", {});
    const latencyMs = Math.round(meta.receivedAtMonotonic - meta.sentAtMonotonic);
    const summary = {
      latencyMs,
      organizationId: data.organizationId,
      enabledProviders: data.enabledProviders,
    };
    if (organizationId && data.organizationId !== organizationId) {
      return fail(
        "auth-proxy",
        title,
        `config ID ${configId.value} belongs to organization ${data.organizationId}, not ${organizationId}`,
        `use the auth-proxy config ID of organization ${organizationId} (${originOf(configId)})`,
        summary,
      );
    }
    const providers = data.enabledProviders.length ? data.enabledProviders.join(", ") : "none";
    return pass(
      "auth-proxy",
      title,
      `${checked.host} answered in ${formatDuration(latencyMs)} for config ID ${configId.value}: organization ${data.organizationId}, providers ${providers}`,
      summary,
    );
  } catch (err) {
    if (err instanceof NetworkError) {
      const { message, fix } = describeNetworkProblem(err, checked, what);
      return fail("auth-proxy", title, message, fix);
    }
    if (err instanceof TurnkeyApiError) {
      return fail(
        "auth-proxy",
        title,
        `the auth proxy answered ${err.describe()} for config ID ${configId.value}`,
        `check the auth-proxy config ID (${originOf(configId)}) in the Turnkey dashboard`,
      );
    }
    if (err instanceof TurnkeyClientError)
      return fail("auth-proxy", title, err.message, `check the ${what}`);
    throw err;
  }
}
