/**
 * `tvcwatch doctor`'s checks, in the order a person would go through them: where each setting
 * came from, the key (file mode, pair), the base URL (allowed, resolves), a whoami round trip,
 * the server's clock, the TVC deployments that can be tailed, and the auth proxy. Every check
 * runs that can; one that cannot for want of an earlier one says so. Nothing here prints.
 */
import type { Clock } from "../../../api/clock.js";
import type { GlobalFlags } from "../../../config/resolve.js";
import { locateConfigFile, originOf, settingSources } from "../../../config/setting-sources.js";
import { authProxyCheck } from "./auth-proxy-check.js";
import type { Lookup } from "./base-url-checks.js";
import { baseUrlCheck, resolveCheck } from "./base-url-checks.js";
import type { CheckResult } from "./check.js";
import { skip } from "./check.js";
import { configFileCheck } from "./config-file-check.js";
import { keyFileModeCheck, keyPairCheck } from "./key-checks.js";
import { inspectApiKey } from "./key-inspection.js";
import { roundTripCheck } from "./round-trip-check.js";
import { serverClockCheck } from "./server-clock-check.js";
import { settingChecks } from "./setting-checks.js";
import { tailableChecks } from "./tailable-checks.js";

export interface DoctorFlags extends GlobalFlags {
  deployment?: string | undefined;
}

export interface DoctorOptions {
  flags: DoctorFlags;
  env: NodeJS.ProcessEnv;
  /** Per request. */
  timeoutMs: number;
  lookup: Lookup;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
}

export async function runDoctor(options: DoctorOptions): Promise<CheckResult[]> {
  const { flags, env } = options;
  const results: CheckResult[] = [];

  // Where the settings came from.
  const location = locateConfigFile(flags, env);
  const config = await configFileCheck(location);
  results.push(config.check);
  const sources = settingSources(
    flags,
    env,
    config.file,
    location.found ? location.path : undefined,
  );
  const key = inspectApiKey(sources.apiKey);
  results.push(...settingChecks(sources, key));

  // The key.
  results.push(keyFileModeCheck(key));
  const keyPair = keyPairCheck(key, sources.apiKey);
  results.push(keyPair.check);

  // The base URL.
  const baseWhat = `base URL (${originOf(sources.baseUrl)})`;
  const base = baseUrlCheck(sources.baseUrl.value, baseWhat);
  results.push(base.check);
  results.push(
    base.url
      ? await resolveCheck(base.url, baseWhat, options.lookup)
      : skip("base-url-dns", "base URL resolves", "the base URL is not usable"),
  );

  // A round trip, then what it tells: the server's clock and what can be tailed.
  const roundTrip = await roundTripCheck({
    baseUrl: base.url,
    baseWhat,
    organizationId: sources.organizationId?.value,
    pair: keyPair.pair,
    authProxyUrl: sources.authProxyUrl.value,
    authProxyConfigId: sources.authProxyConfigId?.value,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    clock: options.clock,
  });
  results.push(roundTrip.check);
  results.push(serverClockCheck(roundTrip.reached));
  results.push(...(await tailableChecks(roundTrip.reached, sources.deploymentId)));

  // The auth proxy.
  const configId = sources.authProxyConfigId;
  results.push(
    configId
      ? await authProxyCheck(sources.authProxyUrl, configId, sources.organizationId?.value, options)
      : skip("auth-proxy", "auth proxy", "not configured"),
  );
  return results;
}
