/**
 * Where each setting comes from, in the one order every command applies: flags, then the
 * environment (Turnkey's `TURNKEY_*` names, then the `TVC_*` names of Turnkey's `tvc` CLI), then
 * the config file, then tkcli's key files, then the default. Nothing is read here (no key file)
 * and nothing stops at the first problem: resolve.ts takes its values from here and refuses what
 * is wrong, `tvcwatch doctor` reports each line by line.
 *
 * The `TVC_*` credentials are all or none, as `tvc` has them: TVC_ORG_ID, TVC_API_KEY_PUBLIC and
 * TVC_API_KEY_PRIVATE together (TVC_API_BASE_URL is optional); some of them without the others is
 * a problem naming those missing. The `TURNKEY_*` key pair is both or neither
 * (TURNKEY_ORGANIZATION_ID may come alone, with a key from elsewhere). An empty variable counts
 * as unset.
 */
import { join } from "node:path";
import { defaultConfigHome, defaultKeysFolder } from "./key-files.js";
import { entryExists } from "./named-file.js";
import type { ConfigFile, GlobalFlags } from "./resolve.js";

export const DEFAULT_BASE_URL = "https://api.turnkey.com";
export const DEFAULT_AUTH_PROXY_URL = "https://authproxy.turnkey.com";

/** `$XDG_CONFIG_HOME/tvcwatch/config.json` (or `~/.config/...`): read when it exists. */
export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  return join(defaultConfigHome(env), "tvcwatch", "config.json");
}

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

/** The environment variables of one family of names. */
export interface EnvNames {
  /** How a person names the family: `TURNKEY_*`, `TVC_*`. */
  family: string;
  organization: string;
  publicKey: string;
  privateKey: string;
  baseUrl: string;
}

/** Turnkey's own names (its SDKs, tkcli). */
export const TURNKEY_ENV: EnvNames = {
  family: "TURNKEY_*",
  organization: "TURNKEY_ORGANIZATION_ID",
  publicKey: "TURNKEY_API_PUBLIC_KEY",
  privateKey: "TURNKEY_API_PRIVATE_KEY",
  baseUrl: "TURNKEY_BASE_URL",
};

/** The names of Turnkey's `tvc` CLI (`tvc deploy debug-logs`), read after Turnkey's own. */
export const TVC_ENV: EnvNames = {
  family: "TVC_*",
  organization: "TVC_ORG_ID",
  publicKey: "TVC_API_KEY_PUBLIC",
  privateKey: "TVC_API_KEY_PRIVATE",
  baseUrl: "TVC_API_BASE_URL",
};

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
  | {
      kind: "env";
      /** The family of the variables it is read from. */
      names: EnvNames;
      publicKey?: string;
      privateKey?: string;
    }
  | { kind: "config-file"; path: string; publicKey?: string; privateKey?: string }
  | { kind: "none"; lookedFor: string /** The key files' name looked for. */; name: string };

export interface SettingSources {
  baseUrl: Sourced<string>;
  organizationId?: Sourced<string>;
  apiKey: ApiKeySource;
  authProxyUrl: Sourced<string>;
  authProxyConfigId?: Sourced<string>;
  deploymentId?: Sourced<string>;
  /** Some of the `TVC_*` credentials set without the others; undefined: all three or none. */
  tvcCredentials?: TvcCredentialGap;
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

const andList = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/** The TVC_* credentials required together, in tvc's order. */
const TVC_REQUIRED = [TVC_ENV.organization, TVC_ENV.publicKey, TVC_ENV.privateKey] as const;

/** Some of the TVC_* credentials set without the others. */
export interface TvcCredentialGap {
  missing: string[];
  set: string[];
}

/**
 * Some of TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE without the others (which
 * Turnkey's `tvc` refuses); undefined when all three or none are set.
 */
export function tvcCredentialGap(env: NodeJS.ProcessEnv): TvcCredentialGap | undefined {
  const missing = TVC_REQUIRED.filter((name) => !present(env[name]));
  if (missing.length === 0 || missing.length === TVC_REQUIRED.length) return undefined;
  return { missing, set: TVC_REQUIRED.filter((name) => !missing.includes(name)) };
}

/** "TVC_API_KEY_PRIVATE is not set while TVC_ORG_ID and TVC_API_KEY_PUBLIC are". */
export function describeTvcGap(gap: TvcCredentialGap): string {
  const verb = (names: readonly string[]) => (names.length === 1 ? "is" : "are");
  return `${andList(gap.missing)} ${verb(gap.missing)} not set while ${andList(gap.set)} ${verb(gap.set)}`;
}

/** What to do about a gap, as `tvc` says it. */
export const TVC_GAP_FIX = `set all three of ${andList(TVC_REQUIRED)}, or none (as Turnkey's tvc CLI requires)`;

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
  const fromEnv = (variable: string): [string | undefined, SettingSource] => [
    env[variable],
    { kind: "env", variable },
  ];
  const baseUrl = pick([
    [flags.baseUrl, { kind: "flag", flag: "--base-url" }],
    fromEnv(TURNKEY_ENV.baseUrl),
    fromEnv(TVC_ENV.baseUrl),
    [file?.baseUrl, fromFile("baseUrl")],
  ]) ?? { value: DEFAULT_BASE_URL, source: { kind: "default" } };
  const authProxyUrl = pick([
    [flags.authProxyUrl, { kind: "flag", flag: "--auth-proxy-url" }],
    [env.TURNKEY_AUTH_PROXY_URL, { kind: "env", variable: "TURNKEY_AUTH_PROXY_URL" }],
    [file?.authProxyUrl, fromFile("authProxyUrl")],
  ]) ?? { value: DEFAULT_AUTH_PROXY_URL, source: { kind: "default" } };
  const organizationId = pick([
    [flags.organization, { kind: "flag", flag: "--organization" }],
    fromEnv(TURNKEY_ENV.organization),
    fromEnv(TVC_ENV.organization),
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
  const tvcCredentials = tvcCredentialGap(env);
  return {
    baseUrl,
    authProxyUrl,
    ...(organizationId ? { organizationId } : {}),
    ...(authProxyConfigId ? { authProxyConfigId } : {}),
    ...(deploymentId ? { deploymentId } : {}),
    apiKey: apiKeySource(flags, env, file, configPath),
    ...(tvcCredentials ? { tvcCredentials } : {}),
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
  // Turnkey's names, then tvc's: the first family with either half of a pair set.
  for (const names of [TURNKEY_ENV, TVC_ENV]) {
    const envPublic = env[names.publicKey];
    const envPrivate = env[names.privateKey];
    if (!present(envPublic) && !present(envPrivate)) continue;
    return {
      kind: "env",
      names,
      ...(present(envPublic) ? { publicKey: envPublic.toLowerCase() } : {}),
      ...(present(envPrivate) ? { privateKey: envPrivate.toLowerCase() } : {}),
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
  return { kind: "none", lookedFor: join(folder, `${name}.private`), name };
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
