/**
 * Where each setting comes from, in the order resolve.ts applies (flags, then environment, then
 * the config file, then tkcli's key files, then the default), without reading key files and
 * without stopping at the first problem: what `tvcwatch doctor` reports line by line.
 * resolve.ts stays the one that decides; a test keeps the two in agreement.
 */
import { join } from "node:path";
import { defaultKeysFolder } from "./key-files.js";
import { entryExists } from "./named-file.js";
import type { ConfigFile, GlobalFlags } from "./resolve.js";
import { DEFAULT_AUTH_PROXY_URL, DEFAULT_BASE_URL, defaultConfigPath } from "./resolve.js";

export type SettingSource =
  | { kind: "flag"; flag: string }
  | { kind: "env"; variable: string }
  | { kind: "config-file"; path: string; key: string }
  | { kind: "default" };

export interface Sourced<T> {
  value: T;
  source: SettingSource;
}

/** Where the config file was found, or where it was looked for. */
export type ConfigLocation =
  | { found: true; path: string; source: SettingSource }
  | { found: false; lookedAt: string };

/** Where the API key pair is read from. Nothing is read here. */
export type ApiKeySource =
  | {
      kind: "key-files";
      folder: string;
      name: string;
      privatePath: string;
      publicPath: string;
      /** What chose the key files: a flag, the config file's keyName, or the default name. */
      chosenBy: SettingSource;
    }
  | { kind: "env"; publicKey?: string; privateKey?: string }
  | { kind: "config-file"; path: string; publicKey?: string; privateKey?: string }
  | { kind: "none"; lookedFor: string };

export interface SettingSources {
  baseUrl: Sourced<string>;
  organizationId?: Sourced<string>;
  apiKey: ApiKeySource;
  authProxyUrl: Sourced<string>;
  authProxyConfigId?: Sourced<string>;
  deploymentId?: Sourced<string>;
}

export function locateConfigFile(flags: GlobalFlags, env: NodeJS.ProcessEnv): ConfigLocation {
  if (flags.config)
    return { found: true, path: flags.config, source: { kind: "flag", flag: "--config" } };
  if (env.TVCWATCH_CONFIG)
    return {
      found: true,
      path: env.TVCWATCH_CONFIG,
      source: { kind: "env", variable: "TVCWATCH_CONFIG" },
    };
  const fallback = defaultConfigPath(env);
  return entryExists(fallback)
    ? { found: true, path: fallback, source: { kind: "default" } }
    : { found: false, lookedAt: fallback };
}

const present = (v: string | undefined): v is string => v !== undefined && v !== "";

/** The first place that has a value: flag, environment variable, config file key, default. */
function pick(candidates: [string | undefined, SettingSource][]): Sourced<string> | undefined {
  for (const [value, source] of candidates) if (present(value)) return { value, source };
  return undefined;
}

export function settingSources(
  flags: GlobalFlags & { deployment?: string | undefined },
  env: NodeJS.ProcessEnv,
  file: ConfigFile | undefined,
  configPath: string | undefined,
): SettingSources {
  const fromFile = (key: keyof ConfigFile): SettingSource => ({
    kind: "config-file",
    path: configPath ?? "",
    key,
  });
  const baseUrl = pick([
    [flags.baseUrl, { kind: "flag", flag: "--base-url" }],
    [env.TURNKEY_BASE_URL, { kind: "env", variable: "TURNKEY_BASE_URL" }],
    [file?.baseUrl, fromFile("baseUrl")],
  ]) ?? { value: DEFAULT_BASE_URL, source: { kind: "default" } };
  const authProxyUrl = pick([
    [flags.authProxyUrl, { kind: "flag", flag: "--auth-proxy-url" }],
    [env.TURNKEY_AUTH_PROXY_URL, { kind: "env", variable: "TURNKEY_AUTH_PROXY_URL" }],
    [file?.authProxyUrl, fromFile("authProxyUrl")],
  ]) ?? { value: DEFAULT_AUTH_PROXY_URL, source: { kind: "default" } };
  const organizationId = pick([
    [flags.organization, { kind: "flag", flag: "--organization" }],
    [env.TURNKEY_ORGANIZATION_ID, { kind: "env", variable: "TURNKEY_ORGANIZATION_ID" }],
    [file?.organizationId, fromFile("organizationId")],
  ]);
  const authProxyConfigId = pick([
    [flags.authProxyConfigId, { kind: "flag", flag: "--auth-proxy-config-id" }],
    [env.TURNKEY_AUTH_PROXY_CONFIG_ID, { kind: "env", variable: "TURNKEY_AUTH_PROXY_CONFIG_ID" }],
    [file?.authProxyConfigId, fromFile("authProxyConfigId")],
  ]);
  const deploymentId = pick([
    [flags.deployment, { kind: "flag", flag: "--deployment" }],
    [file?.deploymentId, fromFile("deploymentId")],
  ]);
  return {
    baseUrl,
    authProxyUrl,
    ...(organizationId ? { organizationId } : {}),
    ...(authProxyConfigId ? { authProxyConfigId } : {}),
    ...(deploymentId ? { deploymentId } : {}),
    apiKey: apiKeySource(flags, env, file, configPath),
  };
}

function apiKeySource(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  file: ConfigFile | undefined,
  configPath: string | undefined,
): ApiKeySource {
  const folder = flags.keysFolder ?? defaultKeysFolder(env);
  const name = flags.keyName ?? file?.keyName ?? "default";
  const keyFiles = (chosenBy: SettingSource): ApiKeySource => ({
    kind: "key-files",
    folder,
    name,
    privatePath: join(folder, `${name}.private`),
    publicPath: join(folder, `${name}.public`),
    chosenBy,
  });
  // An explicit --key-name / --keys-folder wins over the environment and the config file.
  if (flags.keyName !== undefined) return keyFiles({ kind: "flag", flag: "--key-name" });
  if (flags.keysFolder !== undefined) return keyFiles({ kind: "flag", flag: "--keys-folder" });
  const envPublic = present(env.TURNKEY_API_PUBLIC_KEY) ? env.TURNKEY_API_PUBLIC_KEY : undefined;
  const envPrivate = present(env.TURNKEY_API_PRIVATE_KEY) ? env.TURNKEY_API_PRIVATE_KEY : undefined;
  if (envPublic || envPrivate) {
    return {
      kind: "env",
      ...(envPublic ? { publicKey: envPublic.toLowerCase() } : {}),
      ...(envPrivate ? { privateKey: envPrivate.toLowerCase() } : {}),
    };
  }
  if (file?.apiPublicKey || file?.apiPrivateKey) {
    return {
      kind: "config-file",
      path: configPath ?? "",
      ...(file.apiPublicKey ? { publicKey: file.apiPublicKey.toLowerCase() } : {}),
      ...(file.apiPrivateKey ? { privateKey: file.apiPrivateKey.toLowerCase() } : {}),
    };
  }
  const chosen = keyFiles(
    file?.keyName
      ? { kind: "config-file", path: configPath ?? "", key: "keyName" }
      : { kind: "default" },
  );
  if (chosen.kind === "key-files" && entryExists(chosen.privatePath)) return chosen;
  return { kind: "none", lookedFor: join(folder, `${name}.private`) };
}

/** A source as a person reads it: `--base-url`, `TURNKEY_BASE_URL`, `baseUrl in config file F`. */
export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case "flag":
      return source.flag;
    case "env":
      return source.variable;
    case "config-file":
      return `${source.key} in config file ${source.path}`;
    case "default":
      return "default";
  }
}

/** Where a value came from, as it follows the value: `from --base-url`, `the default`. */
export function originOf(sourced: Sourced<unknown>): string {
  return sourced.source.kind === "default"
    ? "the default"
    : `from ${describeSource(sourced.source)}`;
}
