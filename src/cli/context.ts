/**
 * What an action needs to talk to Turnkey: the resolved configuration and a client. Loaded by the
 * commands that call the API, when they run (the flags themselves are in global-options.ts).
 */
import type { Command } from "commander";
import { TurnkeyClient } from "../api/client.js";
import type { GlobalFlags, ResolvedConfig, ResolveOptions, WatchFlags } from "../config/resolve.js";
import { resolveConfig } from "../config/resolve.js";
import { CliError } from "./cli-error.js";

/** The resolved configuration for a command, or a one-line CliError saying what to fix. */
export async function configFromCommand(
  cmd: Command,
  options: ResolveOptions = {},
): Promise<ResolvedConfig> {
  const flags = cmd.optsWithGlobals() as GlobalFlags & WatchFlags;
  // `tail --deployment` is repeatable: the config names the first (several go to follow-many).
  const deployment = flags.deployment as string | string[] | undefined;
  const first = Array.isArray(deployment) ? deployment[0] : deployment;
  try {
    return await resolveConfig({ ...flags, deployment: first }, process.env, options);
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
