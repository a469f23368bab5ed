import type { Command } from "commander";
import { TurnkeyClient } from "../../../api/client.js";
import { SCENARIOS, type ScenarioName } from "../../../sim/scenario.js";
import { startSimulator } from "../../../sim/server.js";
import { sayAs } from "../../../text/stderr.js";
import type { TimeBound } from "../../../text/time-bound.js";
import { commandSummary } from "../../command-summaries.js";
import { deploymentsToFollow, deploymentWatch } from "../../deployment-scope.js";
import { integerFlag } from "../../flag-parsers.js";
import { addFlags, type FlagRow } from "../../flag-table.js";
import { followFlags } from "../../follow-flags.js";
import { followWindow } from "../../time-range.js";
import type { WatchCommandFlags } from "../watch/watch-command.js";
import { openDashboard, requireTerminal } from "../watch/watch-command.js";

/** What the simulator reported, said once the terminal is restored: `tvcwatch sim: ...`. */
const saySim = sayAs("sim");

/** `tvcwatch demo`'s flags, in the order its help lists them (the follow flags: ../../follow-flags.ts). */
const DEMO_FLAG_TABLE: readonly FlagRow[] = [
  {
    flags: "--seed <n>",
    description: "seed for the generated data",
    parse: integerFlag(0, 2 ** 31 - 1),
  },
  {
    flags: "--scenario <name>",
    description: "what the organization is going through",
    choices: SCENARIOS,
    default: { value: "demo" },
  },
  ...followFlags("demo", "deployment", "app", "all", "maxDeployments", "since", "until"),
  ...followFlags("demo", "bell", "clipboard"),
];

export function registerDemoCommand(program: Command): void {
  const demo = program
    .command("demo")
    .summary(commandSummary("demo"))
    .description(
      "Start the local simulator of Turnkey's API in this process, on a free loopback port, and open the dashboard on it with every pane live. Everything shown is generated: it is a demo.",
    );
  addFlags(demo, DEMO_FLAG_TABLE).action(
    async (flags: {
      seed?: number;
      scenario: ScenarioName;
      bell: boolean;
      clipboard?: boolean;
      deployment?: string[];
      app?: string;
      all?: boolean;
      maxDeployments?: number;
      since?: TimeBound;
      until?: TimeBound;
    }) => {
      // The flags are checked before anything starts.
      followWindow(flags, Date.now());
      requireTerminal();
      // What the simulator reports would tear the full-screen dashboard: kept (the latest 100)
      // and printed once the terminal is restored.
      const reported: string[] = [];
      const sim = await startSimulator({
        log: (message) => {
          reported.push(message.split("\n")[0] ?? message);
          if (reported.length > 100) reported.shift();
        },
        port: 0,
        scenario: flags.scenario,
        logRate: 8,
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      });
      const c = sim.config;
      const client = new TurnkeyClient({
        baseUrl: c.baseUrl,
        organizationId: c.organizationId,
        apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
        authProxyUrl: c.authProxyUrl,
        authProxyConfigId: c.authProxyConfigId,
      });
      const watchFlags: WatchCommandFlags = {
        since: flags.since,
        interval: 1000,
        bufferLines: 100_000,
        bell: flags.bell !== false,
        clipboard: flags.clipboard === true,
      };
      try {
        const scope = await deploymentsToFollow(client, flags, c.deploymentId);
        await openDashboard(
          client,
          {
            deploymentIds: scope.ids,
            watch: deploymentWatch(client, flags, scope.listing),
            emails: c.emails,
            solanaAddresses: c.solanaAddresses,
            caip2: c.caip2,
          },
          watchFlags,
          "demo (simulated) · ",
        );
      } finally {
        await sim.close();
        for (const message of reported) saySim(message);
      }
    },
  );
}
