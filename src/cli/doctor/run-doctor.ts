/**
 * `tvcwatch doctor`'s checks, in the order a person would go through them: where each setting
 * came from, the key (file mode, pair), the base URL (allowed, resolves), a whoami round trip,
 * the server's clock, the TVC deployments that can be tailed, and the auth proxy. Every check
 * runs that can; one that cannot for want of an earlier one says so. Nothing here prints.
 */
import type { ResponseMeta } from "../../api/client.js";
import { TurnkeyClient } from "../../api/client.js";
import type { Clock } from "../../api/clock.js";
import type { OutputOf } from "../../api/operations.js";
import type { ApiKeyPair } from "../../api/stamp.js";
import { assertKeyPair } from "../../api/stamp.js";
import { checkServiceUrl } from "../../api/url-policy.js";
import { isOpenToOthers } from "../../config/key-files.js";
import type { ConfigFile, GlobalFlags } from "../../config/resolve.js";
import type { ApiKeySource } from "../../config/setting-sources.js";
import {
  describeSource,
  locateConfigFile,
  originOf,
  settingSources,
} from "../../config/setting-sources.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { listDeploymentChoices } from "../../feeds/deployment-list.js";
import { formatDuration } from "../../text/duration.js";
import { apiFailure } from "./api-failure.js";
import { authProxyCheck } from "./auth-proxy-check.js";
import type { CheckResult } from "./check.js";
import { fail, pass, skip } from "./check.js";
import { CLOCK_TOLERANCE_MS, clockOffset, describeOffset } from "./clock-offset.js";
import { inspectConfigFile } from "./config-inspection.js";
import { deploymentCheck, tvcCheck } from "./deployment-checks.js";
import { fileMode, inspectApiKey } from "./key-inspection.js";
import { describeNetworkProblem } from "./network-problem.js";

export interface DoctorFlags extends GlobalFlags {
  deployment?: string | undefined;
}

export interface DoctorOptions {
  flags: DoctorFlags;
  env: NodeJS.ProcessEnv;
  /** Per request. */
  timeoutMs: number;
  /** The addresses a host name resolves to; throws as dns.lookup does. */
  lookup: (host: string) => Promise<string[]>;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
}

function keySourceText(source: ApiKeySource): string {
  switch (source.kind) {
    case "key-files":
      return `key files ${source.privatePath} and ${source.publicPath}, chosen by ${describeSource(source.chosenBy)}`;
    case "env":
      return "TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY";
    case "config-file":
      return `apiPublicKey and apiPrivateKey in config file ${source.path}`;
    case "none":
      return "nowhere";
  }
}

function keyPairMatches(pair: ApiKeyPair): boolean {
  try {
    assertKeyPair(pair);
    return true;
  } catch {
    return false;
  }
}

function publicKeyHome(source: ApiKeySource): string {
  switch (source.kind) {
    case "key-files":
      return source.publicPath;
    case "env":
      return "TURNKEY_API_PUBLIC_KEY";
    case "config-file":
      return `apiPublicKey in config file ${source.path}`;
    case "none":
      return "the public key";
  }
}

export async function runDoctor(options: DoctorOptions): Promise<CheckResult[]> {
  const { flags, env } = options;
  const results: CheckResult[] = [];
  const add = (r: CheckResult) => results.push(r);

  // --- Where the settings came from -----------------------------------------------------
  const location = locateConfigFile(flags, env);
  let file: ConfigFile | undefined;
  if (!location.found) {
    add(
      pass(
        "config-file",
        "config file",
        `none (no --config or TVCWATCH_CONFIG, and no ${location.lookedAt})`,
      ),
    );
  } else {
    const inspected = await inspectConfigFile(location.path);
    if ("file" in inspected) {
      file = inspected.file;
      add(
        pass(
          "config-file",
          "config file",
          `${location.path} (from ${describeSource(location.source)})`,
          {
            path: location.path,
          },
        ),
      );
    } else {
      add(
        fail(
          "config-file",
          "config file",
          inspected.problem,
          `correct it, or point ${describeSource(location.source)} at another file`,
        ),
      );
    }
  }
  const configPath = location.found ? location.path : undefined;
  const sources = settingSources(flags, env, file, configPath);

  add(
    pass("setting.baseUrl", "base URL", `${sources.baseUrl.value} (${originOf(sources.baseUrl)})`, {
      value: sources.baseUrl.value,
      source: sources.baseUrl.source,
    }),
  );
  const org = sources.organizationId;
  add(
    org
      ? pass("setting.organizationId", "organization", `${org.value} (${originOf(org)})`, {
          value: org.value,
          source: org.source,
        })
      : fail(
          "setting.organizationId",
          "organization",
          "not set",
          "pass --organization ID, set TURNKEY_ORGANIZATION_ID, or put organizationId in the config file",
        ),
  );
  const key = inspectApiKey(sources.apiKey);
  // Shown in full only once it is known to be the private key's public key: a private key put
  // where the public key goes must not be printed.
  const shownPublicKey = key.pair
    ? keyPairMatches(key.pair)
      ? key.pair.publicKey
      : `${key.pair.publicKey.slice(0, 8)}… (not shown in full until it matches the private key)`
    : undefined;
  add(
    key.pair
      ? pass(
          "setting.apiKey",
          "API key",
          `public key ${shownPublicKey} (from ${keySourceText(sources.apiKey)})`,
          {
            publicKey: shownPublicKey,
            source: sources.apiKey.kind,
            ...(key.privateKeyFile ? { privateKeyFile: key.privateKeyFile } : {}),
          },
        )
      : fail(
          "setting.apiKey",
          "API key",
          key.problem?.message ?? "no API key",
          key.problem?.fix ?? "see README: Configuration",
        ),
  );
  const configId = sources.authProxyConfigId;
  add(
    pass(
      "setting.authProxyUrl",
      "auth proxy URL",
      `${sources.authProxyUrl.value} (${originOf(sources.authProxyUrl)})`,
      { value: sources.authProxyUrl.value, source: sources.authProxyUrl.source },
    ),
  );
  add(
    configId
      ? pass(
          "setting.authProxyConfigId",
          "auth-proxy config ID",
          `${configId.value} (${originOf(configId)})`,
          {
            value: configId.value,
            source: configId.source,
          },
        )
      : skip(
          "setting.authProxyConfigId",
          "auth-proxy config ID",
          "not set (--auth-proxy-config-id or TURNKEY_AUTH_PROXY_CONFIG_ID), so the auth proxy is not checked",
        ),
  );
  if (sources.deploymentId) {
    add(
      pass(
        "setting.deploymentId",
        "deployment",
        `${sources.deploymentId.value} (${originOf(sources.deploymentId)})`,
        { value: sources.deploymentId.value, source: sources.deploymentId.source },
      ),
    );
  }

  // --- The key --------------------------------------------------------------------------
  const keyFileMode = key.privateKeyFile === undefined ? undefined : fileMode(key.privateKeyFile);
  if (key.privateKeyFile !== undefined && keyFileMode === undefined) {
    add(
      skip(
        "key-file-mode",
        "private key file",
        `${key.privateKeyFile} is no regular file to check (the API key line says why)`,
      ),
    );
  } else if (key.privateKeyFile !== undefined && keyFileMode !== undefined) {
    const path = key.privateKeyFile;
    const mode = keyFileMode;
    const octal = mode.toString(8).padStart(4, "0");
    add(
      isOpenToOthers(mode)
        ? fail(
            "key-file-mode",
            "private key file",
            `${path} is readable by others (mode ${octal}); every other command refuses it`,
            `chmod 600 ${path}`,
            { path, mode: octal },
          )
        : pass(
            "key-file-mode",
            "private key file",
            `${path} is mode ${octal} (only its owner can read it)`,
            {
              path,
              mode: octal,
            },
          ),
    );
  } else if (key.pair) {
    add(
      skip(
        "key-file-mode",
        "private key file",
        "the private key comes from TURNKEY_API_PRIVATE_KEY, not a file",
      ),
    );
  } else {
    add(skip("key-file-mode", "private key file", "no private key was found"));
  }

  let pair: ApiKeyPair | undefined;
  if (key.pair) {
    try {
      assertKeyPair(key.pair);
      pair = key.pair;
      add(pass("key-pair", "key pair", "the public key belongs to the private key"));
    } catch (err) {
      add(
        fail(
          "key-pair",
          "key pair",
          (err as Error).message,
          `put the public key that belongs to the private key in ${publicKeyHome(sources.apiKey)}`,
        ),
      );
      // The API is still asked, with the pair as configured: it says what it makes of it.
      pair = key.pair;
    }
  } else {
    add(skip("key-pair", "key pair", "no key pair to check"));
  }

  // --- The base URL ---------------------------------------------------------------------
  const baseWhat = `base URL (${originOf(sources.baseUrl)})`;
  let baseUrl: URL | undefined;
  try {
    baseUrl = new URL(checkServiceUrl(sources.baseUrl.value, "base URL"));
    add(
      pass(
        "base-url",
        "base URL allowed",
        baseUrl.protocol === "https:"
          ? "https"
          : `plain http, allowed because ${baseUrl.hostname} is this machine (loopback)`,
      ),
    );
  } catch (err) {
    add(fail("base-url", "base URL allowed", (err as Error).message, `change the ${baseWhat}`));
  }

  if (baseUrl) add(await resolveCheck(baseUrl, baseWhat, options.lookup));
  else add(skip("base-url-dns", "base URL resolves", "the base URL is not usable"));

  // --- A round trip ---------------------------------------------------------------------
  /** The API as reached by the round trip, for the checks that ask it more. */
  let reached:
    | {
        client: TurnkeyClient;
        baseUrl: URL;
        organizationId: string;
        pair: ApiKeyPair;
        whoami: { data: OutputOf<"whoami">; meta: ResponseMeta };
      }
    | undefined;
  if (!baseUrl || !org || !pair) {
    const missing = !baseUrl ? "a usable base URL" : !org ? "an organization" : "an API key";
    add(skip("api", "API round trip", `not tried without ${missing}`));
  } else {
    const client = new TurnkeyClient({
      baseUrl: baseUrl.toString().replace(/\/+$/, ""),
      organizationId: org.value,
      apiKey: pair,
      authProxyUrl: sources.authProxyUrl.value,
      authProxyConfigId: configId?.value,
      timeoutMs: options.timeoutMs,
      retries: 1,
      minRetryDelayMs: 250,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    try {
      const whoami = await client.callWithMeta("whoami", {});
      reached = { client, baseUrl, organizationId: org.value, pair, whoami };
      const { data, meta } = whoami;
      const latencyMs = Math.round(meta.receivedAtMonotonic - meta.sentAtMonotonic);
      const otherOrg =
        data.organizationId !== org.value ? `; the configured organization is ${org.value}` : "";
      add(
        pass(
          "api",
          "API round trip",
          `whoami answered in ${formatDuration(latencyMs)}: user ${data.username} (${data.userId}) in organization ${data.organizationName} (${data.organizationId})${otherOrg}`,
          {
            latencyMs,
            attempts: meta.attempts,
            userId: data.userId,
            username: data.username,
            organizationId: data.organizationId,
            organizationName: data.organizationName,
          },
        ),
      );
    } catch (err) {
      add(apiFailure(err, baseUrl, baseWhat, org.value, pair));
    }
  }

  // --- The server's clock ---------------------------------------------------------------
  if (!reached) {
    add(skip("clock", "server clock", "no answer from the API to read its clock from"));
  } else {
    const measured = clockOffset(reached.whoami.meta);
    if (!measured) {
      add(skip("clock", "server clock", "the API's answer carried no Date header"));
    } else {
      const { offsetMs, uncertaintyMs } = measured;
      const text = `the server's clock ${describeOffset(offsetMs, uncertaintyMs)}`;
      const data = { offsetMs, uncertaintyMs };
      add(
        Math.abs(offsetMs) - uncertaintyMs > CLOCK_TOLERANCE_MS
          ? fail(
              "clock",
              "server clock",
              text,
              "if this machine's clock is wrong, sync it (e.g. timedatectl set-ntp true); tail is unaffected, but activity timestamps (timestampMs) and the times shown are off by as much",
              data,
            )
          : pass("clock", "server clock", text, data),
      );
    }
  }

  // --- What can be tailed ---------------------------------------------------------------
  if (!reached) {
    add(skip("tvc", "TVC deployments", "not listed without an API answer"));
    if (sources.deploymentId)
      add(skip("deployment", "tail deployment", "not checked without an API answer"));
  } else {
    let choices: DeploymentChoice[] | undefined;
    try {
      choices = await listDeploymentChoices(reached.client);
    } catch (err) {
      const { baseUrl: url, organizationId, pair: used } = reached;
      const problem = apiFailure(err, url, baseWhat, organizationId, used);
      add({ ...problem, id: "tvc", title: "TVC deployments" });
    }
    if (choices) {
      add(tvcCheck(choices));
      if (sources.deploymentId) add(deploymentCheck(sources.deploymentId, choices));
    } else if (sources.deploymentId) {
      add(
        skip("deployment", "tail deployment", "not checked: the deployments could not be listed"),
      );
    }
  }

  // --- The auth proxy -------------------------------------------------------------------
  if (!configId) {
    add(skip("auth-proxy", "auth proxy", "not configured"));
  } else {
    add(await authProxyCheck(sources.authProxyUrl, configId, org?.value, options));
  }
  return results;
}

async function resolveCheck(
  url: URL,
  what: string,
  lookup: DoctorOptions["lookup"],
): Promise<CheckResult> {
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
