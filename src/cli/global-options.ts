/**
 * The options every command that talks to Turnkey shares, declared on the root program. Light
 * on purpose (flag parsers only): every start-up, `--help` included, loads it.
 */
import type { Command } from "commander";
import { byteSizeFlag, textFlag } from "./flag-parsers.js";

/** Range of --max-response-size: a JavaScript string holds at most about 512 MiB. */
const MIN_RESPONSE_LIMIT = 1024;
const MAX_RESPONSE_LIMIT = 512 * 1024 * 1024;

/** Declares the options every command that talks to Turnkey shares, on the root program. */
export function addGlobalOptions(program: Command): Command {
  return program
    .option(
      "--base-url <url>",
      "Turnkey API base URL (env TURNKEY_BASE_URL, then TVC_API_BASE_URL; default https://api.turnkey.com)",
      textFlag,
    )
    .option(
      "--organization <id>",
      "organization ID (env TURNKEY_ORGANIZATION_ID, then TVC_ORG_ID)",
      textFlag,
    )
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
