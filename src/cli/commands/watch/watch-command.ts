import type { Command } from "commander";
import type { TurnkeyClient } from "../../../api/client.js";
import { SOLANA_CAIP2 } from "../../../api/schemas.js";
import { createDashboardSources, type DeploymentWatch } from "../../../feeds/dashboard-sources.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../../../tail/request-limit.js";
import { shouldColour } from "../../../text/colour.js";
import type { TimeBound } from "../../../text/time-bound.js";
import { CliError } from "../../cli-error.js";
import { toCliError } from "../../client-errors.js";
import { commandSummary } from "../../command-summaries.js";
import { clientFor, configFromCommand } from "../../context.js";
import { deploymentsToFollow, deploymentWatch } from "../../deployment-scope.js";
import { integerFlag } from "../../flag-parsers.js";
import { addFlags, type FlagRow } from "../../flag-table.js";
import { followFlags } from "../../follow-flags.js";
import { governHeap, holdYoungGeneration } from "../../heap-governor.js";
import { followWindow } from "../../time-range.js";

export interface WatchCommandFlags {
  deployment?: string[];
  app?: string;
  all?: boolean;
  email?: string[];
  solAddress?: string[];
  caip2?: string;
  /** A duration back, a clock time or RFC 3339 (src/text/time-bound.ts); default 10 minutes. */
  since?: TimeBound | undefined;
  /** Refused: the dashboard follows (src/cli/time-range.ts followWindow). */
  until?: TimeBound | undefined;
  interval: number;
  bufferLines: number;
  maxConcurrent?: number;
  maxDeployments?: number;
  bell: boolean;
  clipboard?: boolean;
}

export function requireTerminal(): void {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new CliError(
      "the dashboard needs a terminal; to print or pipe logs use: tvcwatch tail -f",
      2,
    );
  }
}

export function checkCaip2(value: string | undefined): string {
  const caip2 = value ?? "solana:mainnet";
  if (!(SOLANA_CAIP2 as readonly string[]).includes(caip2)) {
    throw new CliError(
      `--caip2 ${caip2} is not a Solana network; use one of ${SOLANA_CAIP2.join(", ")}`,
      2,
    );
  }
  return caip2;
}

/** `tvcwatch watch`'s flags, in the order its help lists them (the follow flags: ../../follow-flags.ts). */
const WATCH_FLAG_TABLE: readonly FlagRow[] = [
  ...followFlags("watch", "deployment", "app", "all", "email", "solAddress", "caip2"),
  ...followFlags("watch", "since", "until", "interval"),
  {
    flags: "--buffer-lines <n>",
    description: "log lines kept in memory",
    parse: integerFlag(100, 10_000_000),
    default: { value: 100_000 },
  },
  ...followFlags("watch", "maxDeployments", "maxConcurrent", "bell", "clipboard"),
];

export function addWatchOptions(cmd: Command): Command {
  return addFlags(cmd, WATCH_FLAG_TABLE);
}

/** Opens the dashboard for a client and settings; starts at the picker when no deployment is set. */
export async function openDashboard(
  client: TurnkeyClient,
  settings: {
    /** What to watch (several: merged); none: the picker. */
    deploymentIds: readonly string[];
    /** `--app` / `--all`: list the deployments again while watching. */
    watch?: DeploymentWatch | undefined;
    emails: string[];
    solanaAddresses: string[];
    caip2?: string | undefined;
  },
  flags: WatchCommandFlags,
  title?: string,
): Promise<void> {
  // Hours at thousands of lines a second: keep the heap near what the dashboard holds, its young
  // generation at its start-up size (before Ink and React load).
  holdYoungGeneration();
  governHeap();
  const { runDashboard } = await import("../../../tui/app/run-dashboard.js");
  const window = followWindow(flags, Date.now());
  const sources = createDashboardSources(client, {
    emails: settings.emails,
    solanaAddresses: settings.solanaAddresses,
    caip2: checkCaip2(settings.caip2),
    sinceMs: window.sinceMs,
    range: window.range,
    intervalMs: flags.interval,
    bufferLines: flags.bufferLines,
    maxConcurrent: flags.maxConcurrent,
  });
  const exit = await runDashboard({
    sources,
    deploymentIds: settings.deploymentIds,
    watch: settings.watch,
    title,
    colour: shouldColour(process.stdout.isTTY),
    bell: flags.bell !== false,
    clipboard: flags.clipboard === true,
  });
  if (exit.error !== undefined) throw toCliError(exit.error);
}

export function registerWatchCommand(program: Command): void {
  const cmd = program
    .command("watch", { isDefault: true })
    .summary(commandSummary("watch"))
    .description(
      "Open the dashboard: the deployment's merged log tail beside the activity queue, email delivery events and Solana transfers. Press ? inside for every key. Without a deployment, pick one.",
    );
  addWatchOptions(cmd).action(async (flags: WatchCommandFlags, command: Command) => {
    // The flags are checked before the configuration is read.
    followWindow(flags, Date.now());
    const config = await configFromCommand(command);
    checkCaip2(config.caip2);
    requireTerminal();
    const client = clientFor(config);
    // The listing's requests in flight stay within --max-concurrent, as the follow's do.
    const limit = new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
    const scope = await deploymentsToFollow(client, flags, config.deploymentId, limit);
    await openDashboard(
      client,
      {
        ...config,
        deploymentIds: scope.ids,
        watch: deploymentWatch(client, flags, scope.listing),
      },
      flags,
    );
  });
}
