/**
 * Where settings come from, in order: flags, then environment, then the config file, then
 * tkcli's key files. Every failure is a one-line Error naming what to fix.
 */
import { join } from "node:path";
import type { ApiKeyPair } from "../api/stamp.js";
import { assertKeyPair, StampError } from "../api/stamp.js";
import { checkServiceUrl } from "../api/url-policy.js";
import { configuredSecrets, withoutKeyMaterial } from "../text/key-material.js";
import type { ConfigFile } from "./config-file.js";
import { isConfigFile } from "./config-file-guard.js";
import { parseJsonQuietly } from "./json-syntax.js";
import {
  assertPrivateMode,
  defaultConfigHome,
  defaultKeysFolder,
  readKeyFiles,
} from "./key-files.js";
import { entryExists, READ_LIMITS, readNamedFile } from "./named-file.js";

export type { ConfigFile };

export const DEFAULT_BASE_URL = "https://api.turnkey.com";
export const DEFAULT_AUTH_PROXY_URL = "https://authproxy.turnkey.com";

export interface GlobalFlags {
  baseUrl?: string | undefined;
  organization?: string | undefined;
  config?: string | undefined;
  keyName?: string | undefined;
  keysFolder?: string | undefined;
  authProxyUrl?: string | undefined;
  authProxyConfigId?: string | undefined;
  /** --max-response-size, in bytes. */
  maxResponseSize?: number | undefined;
}

/** Flags of the commands that watch something; each can also come from the config file. */
export interface WatchFlags {
  deployment?: string | undefined;
  email?: string[] | undefined;
  solAddress?: string[] | undefined;
  caip2?: string | undefined;
}

export interface ResolvedConfig {
  baseUrl: string;
  organizationId: string;
  apiKey: ApiKeyPair;
  authProxyUrl: string;
  authProxyConfigId?: string | undefined;
  deploymentId?: string | undefined;
  emails: string[];
  solanaAddresses: string[];
  caip2?: string | undefined;
  /** The config file read, if any. */
  configPath?: string | undefined;
  /** The response size limit, when one was given. */
  maxResponseBytes?: number | undefined;
}

export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  return join(defaultConfigHome(env), "tvcwatch", "config.json");
}

/**
 * Reads and checks a config file; throws naming the file and the field. One that holds
 * apiPrivateKey and is readable by others is refused unless `refuseOpenMode` is false (doctor
 * reports the mode on a line of its own).
 */
export async function readConfigFile(
  path: string,
  options: { refuseOpenMode?: boolean } = {},
): Promise<ConfigFile> {
  const read = readNamedFile(path, "config file", READ_LIMITS.config, {
    directoryHint: `--config and TVCWATCH_CONFIG take the file itself (e.g. ${join(path, "config.json")})`,
  });
  // The file may hold apiPrivateKey: a syntax error names the line and column, never the text.
  const json = parseJsonQuietly(read.text, `config file ${path}`);
  const file = isConfigFile(json)
    ? json
    : (await import("./config-file.js")).checkConfigFile(path, json);
  if (file.apiPrivateKey && options.refuseOpenMode !== false)
    assertPrivateMode(path, "config file holding apiPrivateKey", read.mode);
  return file;
}

function locateConfig(flags: GlobalFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.config) return flags.config;
  if (env.TVCWATCH_CONFIG) return env.TVCWATCH_CONFIG;
  const fallback = defaultConfigPath(env);
  return entryExists(fallback) ? fallback : undefined;
}

function nonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v !== "");
}

export interface ResolveOptions {
  /** Skip the API key (for commands that send nothing stamped). */
  needApiKey?: boolean;
  /** Skip the organization (the auth proxy knows it from the config ID). */
  needOrganization?: boolean;
}

function resolveApiKey(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  file: ConfigFile | undefined,
  configPath: string | undefined,
): ApiKeyPair {
  const keysFolder = flags.keysFolder ?? defaultKeysFolder(env);
  const keyName = flags.keyName ?? file?.keyName ?? "default";
  // An explicit --key-name / --keys-folder is a flag: it wins over env and the config file.
  if (flags.keyName !== undefined || flags.keysFolder !== undefined)
    return readKeyFiles(keysFolder, keyName);

  const envPublic = nonEmpty(env.TURNKEY_API_PUBLIC_KEY);
  const envPrivate = nonEmpty(env.TURNKEY_API_PRIVATE_KEY);
  if (envPublic || envPrivate) {
    if (!envPublic || !envPrivate) {
      throw new Error(
        `set both TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY (only ${envPublic ? "the public" : "the private"} key is set)`,
      );
    }
    return { publicKey: envPublic.toLowerCase(), privateKey: envPrivate.toLowerCase() };
  }
  if (file?.apiPublicKey || file?.apiPrivateKey) {
    if (!file.apiPublicKey || !file.apiPrivateKey) {
      throw new Error(`config file ${configPath}: set both apiPublicKey and apiPrivateKey`);
    }
    return {
      publicKey: file.apiPublicKey.toLowerCase(),
      privateKey: file.apiPrivateKey.toLowerCase(),
    };
  }
  if (entryExists(join(keysFolder, `${keyName}.private`))) return readKeyFiles(keysFolder, keyName);
  throw new Error(
    "no API key: set TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY, or put apiPublicKey and apiPrivateKey " +
      "in a config file (--config FILE or TVCWATCH_CONFIG), or use tkcli key files with --key-name NAME " +
      `(looked for ${join(keysFolder, `${keyName}.private`)}; create one with: tvcwatch keys generate --name ${keyName})`,
  );
}

/**
 * The settings of a command. Every error is one line saying what to fix, and never echoes key
 * material, whichever setting it was put in by mistake.
 */
export async function resolveConfig(
  flags: GlobalFlags & WatchFlags,
  env: NodeJS.ProcessEnv = process.env,
  options: ResolveOptions = {},
): Promise<ResolvedConfig> {
  try {
    return await resolveSettings(flags, env, options);
  } catch (err) {
    throw withoutKeyMaterial(err);
  }
}

async function resolveSettings(
  flags: GlobalFlags & WatchFlags,
  env: NodeJS.ProcessEnv,
  options: ResolveOptions,
): Promise<ResolvedConfig> {
  // The private key's settings are secret by what they are: registered before any other setting
  // is checked, so an error about a setting it was put in by mistake does not echo it.
  configuredSecrets.add(env.TURNKEY_API_PRIVATE_KEY);
  const configPath = locateConfig(flags, env);
  const file = configPath ? await readConfigFile(configPath) : undefined;
  configuredSecrets.add(file?.apiPrivateKey);

  const baseUrl = checkServiceUrl(
    nonEmpty(flags.baseUrl, env.TURNKEY_BASE_URL, file?.baseUrl) ?? DEFAULT_BASE_URL,
    "base URL",
  );
  const authProxyUrl = checkServiceUrl(
    nonEmpty(flags.authProxyUrl, env.TURNKEY_AUTH_PROXY_URL, file?.authProxyUrl) ??
      DEFAULT_AUTH_PROXY_URL,
    "auth-proxy URL",
  );
  const organizationId = nonEmpty(
    flags.organization,
    env.TURNKEY_ORGANIZATION_ID,
    file?.organizationId,
  );
  if (!organizationId && options.needOrganization !== false) {
    throw new Error(
      "no organization: pass --organization ID, set TURNKEY_ORGANIZATION_ID, or put organizationId in the config file",
    );
  }

  let apiKey: ApiKeyPair = { publicKey: "", privateKey: "" };
  if (options.needApiKey !== false) {
    apiKey = resolveApiKey(flags, env, file, configPath);
    try {
      assertKeyPair(apiKey);
    } catch (err) {
      if (err instanceof StampError) throw new Error(`API key: ${err.message}`);
      throw err;
    }
  }

  return {
    baseUrl,
    organizationId: organizationId ?? "",
    apiKey,
    authProxyUrl,
    authProxyConfigId: nonEmpty(
      flags.authProxyConfigId,
      env.TURNKEY_AUTH_PROXY_CONFIG_ID,
      file?.authProxyConfigId,
    ),
    deploymentId: nonEmpty(flags.deployment, file?.deploymentId),
    emails: flags.email && flags.email.length > 0 ? flags.email : (file?.emails ?? []),
    solanaAddresses:
      flags.solAddress && flags.solAddress.length > 0
        ? flags.solAddress
        : (file?.solanaAddresses ?? []),
    caip2: nonEmpty(flags.caip2, file?.caip2),
    configPath,
    maxResponseBytes: flags.maxResponseSize,
  };
}
