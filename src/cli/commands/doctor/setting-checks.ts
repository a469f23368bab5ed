/**
 * Doctor's lines for each setting: its value and where it came from (a flag, a TURNKEY_* or
 * TVC_* variable, the config file, key files, the default), and a partial set of TVC_*
 * credentials first when there is one.
 */
import type { ApiKeySource, SettingSources } from "../../../config/setting-sources.js";
import {
  describeSource,
  describeTvcGap,
  originOf,
  TURNKEY_ENV,
  TVC_ENV,
  TVC_GAP_FIX,
} from "../../../config/setting-sources.js";
import type { CheckResult } from "./check.js";
import { fail, pass, skip } from "./check.js";
import { keyPairMatches } from "./key-checks.js";
import type { KeyInspection } from "./key-inspection.js";

function keySourceText(source: ApiKeySource): string {
  switch (source.kind) {
    case "key-files":
      return `key files ${source.privatePath} and ${source.publicPath}, chosen by ${describeSource(source.chosenBy)}`;
    case "env":
      return `${source.names.publicKey} and ${source.names.privateKey}`;
    case "config-file":
      return `apiPublicKey and apiPrivateKey in config file ${source.path}`;
    case "none":
      return "nowhere";
  }
}

function apiKeyCheck(sources: SettingSources, key: KeyInspection): CheckResult {
  if (!key.pair) {
    return fail(
      "setting.apiKey",
      "API key",
      key.problem?.message ?? "no API key",
      key.problem?.fix ?? "see docs/configuration.md",
    );
  }
  // Shown in full only once it is known to be the private key's public key: a private key put
  // where the public key goes must not be printed.
  const shownPublicKey = keyPairMatches(key.pair)
    ? key.pair.publicKey
    : `${key.pair.publicKey.slice(0, 8)}… (not shown in full until it matches the private key)`;
  return pass(
    "setting.apiKey",
    "API key",
    `public key ${shownPublicKey} (from ${keySourceText(sources.apiKey)})`,
    {
      publicKey: shownPublicKey,
      source: sources.apiKey.kind,
      ...(key.privateKeyFile ? { privateKeyFile: key.privateKeyFile } : {}),
    },
  );
}

/** One line per setting, in the order the README lists them. */
export function settingChecks(sources: SettingSources, key: KeyInspection): CheckResult[] {
  const { baseUrl, organizationId: org, authProxyUrl, authProxyConfigId: configId } = sources;
  const checks: CheckResult[] = [
    pass("setting.baseUrl", "base URL", `${baseUrl.value} (${originOf(baseUrl)})`, {
      value: baseUrl.value,
      source: baseUrl.source,
    }),
    org
      ? pass("setting.organizationId", "organization", `${org.value} (${originOf(org)})`, {
          value: org.value,
          source: org.source,
        })
      : fail(
          "setting.organizationId",
          "organization",
          "not set",
          `pass --organization ID, set ${TURNKEY_ENV.organization} (or ${TVC_ENV.organization}), or put organizationId in the config file`,
        ),
    apiKeyCheck(sources, key),
    pass(
      "setting.authProxyUrl",
      "auth proxy URL",
      `${authProxyUrl.value} (${originOf(authProxyUrl)})`,
      { value: authProxyUrl.value, source: authProxyUrl.source },
    ),
    configId
      ? pass(
          "setting.authProxyConfigId",
          "auth-proxy config ID",
          `${configId.value} (${originOf(configId)})`,
          { value: configId.value, source: configId.source },
        )
      : skip(
          "setting.authProxyConfigId",
          "auth-proxy config ID",
          "not set (--auth-proxy-config-id or TURNKEY_AUTH_PROXY_CONFIG_ID), so the auth proxy is not checked",
        ),
  ];
  if (sources.tvcCredentials) {
    // Every other command refuses to start: said here with the settings it would have used.
    checks.unshift(
      fail(
        "setting.tvcCredentials",
        "TVC_* credentials",
        describeTvcGap(sources.tvcCredentials),
        TVC_GAP_FIX,
        { ...sources.tvcCredentials },
      ),
    );
  }
  const deployment = sources.deploymentId;
  if (deployment) {
    checks.push(
      pass("setting.deploymentId", "deployment", `${deployment.value} (${originOf(deployment)})`, {
        value: deployment.value,
        source: deployment.source,
      }),
    );
  }
  return checks;
}
