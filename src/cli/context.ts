import type { Command } from "commander";
import { TurnkeyClient } from "../api/client.js";
import type { GlobalFlags, ResolvedConfig, ResolveOptions, WatchFlags } from "../config/resolve.js";
import { resolveConfig } from "../config/resolve.js";
import { CliError } from "./cli-error.js";
import { byteSizeFlag, textFlag } from "./flag-parsers.js";

/** Range of --max-response-size: a JavaScript string holds at most about 512 MiB. */
const MIN_RESPONSE_LIMIT = 1024;
const MAX_RESPONSE_LIMIT = 512 * 1024 * 1024;

/** Declares the options every command that talks to Turnkey shares, on the root program. */
export function addGlobalOptions(program: Command): Command {
  return program
    .option(
      "--base-url <url>",
      "Turnkey API base URL (env TURNKEY_BASE_URL; default https://api.turnkey.com)",
      textFlag,
    )
    .option("--organization <id>", "organization ID (env TURNKEY_ORGANIZATION_ID)", textFlag)
    .option(
      "--config <file>",
      "config file (env TVCWATCH_CONFIG; default $XDG_CONFIG_HOME/tvcwatch/config.json when it exists)",
      textFlag,
    )
    .option(
      "--key-name <name>",
      "tkcli API key name to read from the keys folder (default: default)",
      textFlag,
    )
    .option(
      "--keys-folder <dir>",
      "tkcli keys folder (default $XDG_CONFIG_HOME/turnkey/keys)",
      textFlag,
    )
    .option(
      "--auth-proxy-url <url>",
      "auth proxy URL (env TURNKEY_AUTH_PROXY_URL; default https://authproxy.turnkey.com)",
      textFlag,
    )
    .option(
      "--auth-proxy-config-id <id>",
      "auth-proxy configuration ID (env TURNKEY_AUTH_PROXY_CONFIG_ID)",
      textFlag,
    )
    .option(
      "--max-response-size <size>",
      "largest response read, 1KiB to 512MiB; a larger one is an error (default 256MiB)",
      byteSizeFlag(MIN_RESPONSE_LIMIT, MAX_RESPONSE_LIMIT),
    );
}

/** The resolved configuration for a command, or a one-line CliError saying what to fix. */
export function configFromCommand(cmd: Command, options: ResolveOptions = {}): ResolvedConfig {
  const flags = cmd.optsWithGlobals() as GlobalFlags & WatchFlags;
  try {
    return resolveConfig(flags, process.env, options);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
}

export function clientFor(config: ResolvedConfig): TurnkeyClient {
  return new TurnkeyClient({
    baseUrl: config.baseUrl,
    organizationId: config.organizationId,
    apiKey: config.apiKey,
    authProxyUrl: config.authProxyUrl,
    authProxyConfigId: config.authProxyConfigId,
    ...(config.maxResponseBytes !== undefined ? { maxResponseBytes: config.maxResponseBytes } : {}),
  });
}

export function clientFromCommand(cmd: Command): { client: TurnkeyClient; config: ResolvedConfig } {
  const config = configFromCommand(cmd);
  return { client: clientFor(config), config };
}
