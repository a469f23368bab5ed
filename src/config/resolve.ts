/**
 * The settings of a command, in the order ./setting-sources.ts gives them (flags, then the
 * environment's TURNKEY_* then TVC_* names, then the config file, then tkcli's key files, then
 * the default), read and checked. Every failure is a one-line Error naming what to fix.
 */
import { join } from "node:path";
import type { ApiKeyPair } from "../api/stamp.js";
import { assertKeyPair, StampError } from "../api/stamp.js";
import { checkServiceUrl } from "../api/url-policy.js";
import { configuredSecrets, withoutKeyMaterial } from "../text/key-material.js";
import type { ConfigFile } from "./config-file.js";
import { isConfigFile } from "./config-file-guard.js";
import { parseJsonQuietly } from "./json-syntax.js";
import { assertPrivateMode, readKeyFiles } from "./key-files.js";
import { READ_LIMITS, readNamedFile } from "./named-file.js";
import {
  type ApiKeySource,
  describeTvcGap,
  locateConfigFile,
  type SettingSources,
  settingSources,
  TURNKEY_ENV,
  TVC_ENV,
  TVC_GAP_FIX,
} from "./setting-sources.js";

export type { ConfigFile };

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

export interface ResolveOptions {
  /** Skip the API key (for commands that send nothing stamped). */
  needApiKey?: boolean;
  /** Skip the organization (the auth proxy knows it from the config ID). */
  needOrganization?: boolean;
}

/** The API key pair where the sources point: read from the key files, or as set. */
function readApiKey(source: ApiKeySource): ApiKeyPair {
  switch (source.kind) {
    case "key-files":
      return readKeyFiles(source.folder, source.name);
    case "env": {
      const { names } = source;
      if (!source.publicKey || !source.privateKey)
        throw new Error(
          `set both ${names.publicKey} and ${names.privateKey} (only ${source.publicKey ? "the public" : "the private"} key is set)`,
        );
      return { publicKey: source.publicKey, privateKey: source.privateKey };
    }
    case "config-file":
      if (!source.publicKey || !source.privateKey)
        throw new Error(`config file ${source.path}: set both apiPublicKey and apiPrivateKey`);
      return { publicKey: source.publicKey, privateKey: source.privateKey };
    case "none":
      throw new Error(
        `no API key: set ${TURNKEY_ENV.publicKey} and ${TURNKEY_ENV.privateKey} (or ${TVC_ENV.organization}, ${TVC_ENV.publicKey} and ${TVC_ENV.privateKey}, as Turnkey's tvc CLI has them), or put apiPublicKey and apiPrivateKey ` +
          "in a config file (--config FILE or TVCWATCH_CONFIG), or use tkcli key files with --key-name NAME " +
          `(looked for ${source.lookedFor}; create one with: tvcwatch keys generate --name ${source.name})`,
      );
  }
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
  configuredSecrets.add(env[TURNKEY_ENV.privateKey]);
  configuredSecrets.add(env[TVC_ENV.privateKey]);
  const location = locateConfigFile(flags, env);
  const configPath = location.found ? location.path : undefined;
  const file = configPath ? await readConfigFile(configPath) : undefined;
  configuredSecrets.add(file?.apiPrivateKey);
  const sources: SettingSources = settingSources(flags, env, file, configPath);
  if (sources.tvcCredentials)
    throw new Error(`${describeTvcGap(sources.tvcCredentials)}: ${TVC_GAP_FIX}`);

  const baseUrl = checkServiceUrl(sources.baseUrl.value, "base URL");
  const authProxyUrl = checkServiceUrl(sources.authProxyUrl.value, "auth-proxy URL");
  const organizationId = sources.organizationId?.value;
  if (!organizationId && options.needOrganization !== false) {
    throw new Error(
      `no organization: pass --organization ID, set ${TURNKEY_ENV.organization} (or ${TVC_ENV.organization}), or put organizationId in the config file`,
    );
  }

  let apiKey: ApiKeyPair = { publicKey: "", privateKey: "" };
  if (options.needApiKey !== false) {
    apiKey = readApiKey(sources.apiKey);
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
    authProxyConfigId: sources.authProxyConfigId?.value,
    deploymentId: sources.deploymentId?.value,
    emails: flags.email && flags.email.length > 0 ? flags.email : (file?.emails ?? []),
    solanaAddresses:
      flags.solAddress && flags.solAddress.length > 0
        ? flags.solAddress
        : (file?.solanaAddresses ?? []),
    caip2: flags.caip2 || file?.caip2 || undefined,
    configPath,
    maxResponseBytes: flags.maxResponseSize,
  };
}
