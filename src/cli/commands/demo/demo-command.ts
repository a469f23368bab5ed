import type { Command } from "commander";
import { Option } from "commander";
import { TurnkeyClient } from "../../../api/client.js";
import { SCENARIOS, type ScenarioName } from "../../../sim/scenario.js";
import { startSimulator } from "../../../sim/server.js";
import { sayAs } from "../../../text/stderr.js";
import { commandSummary } from "../../command-summaries.js";
import { deploymentsToFollow, deploymentWatch } from "../../deployment-scope.js";
import { collectText, integerFlag, textFlag } from "../../flag-parsers.js";
import type { WatchCommandFlags } from "../watch/watch-command.js";
import { openDashboard, requireTerminal } from "../watch/watch-command.js";

/** What the simulator reported, said once the terminal is restored: `tvcwatch sim: ...`. */
const saySim = sayAs("sim");

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .summary(commandSummary("demo"))
    .description(
      "Start the local simulator of Turnkey's API in this process, on a free loopback port, and open the dashboard on it with every pane live. Everything shown is generated: it is a demo.",
    )
    .option("--seed <n>", "seed for the generated data", integerFlag(0, 2 ** 31 - 1))
    .addOption(
      new Option("--scenario <name>", "what the organization is going through")
        .choices(SCENARIOS)
        .default("demo"),
    )
    .option(
      "--deployment <id>",
      "simulated deployment to watch (default: the payments-signer's live one); repeat it to merge several",
      collectText,
    )
    .addOption(
      new Option(
        "--app <app-id>",
        "every debug-mode deployment of this simulated app (id or name, e.g. payments-signer), merged",
      )
        .argParser(textFlag)
        .conflicts(["deployment", "all"]),
    )
    .addOption(
      new Option(
        "--all",
        "every debug-mode deployment of the simulated organization, merged",
      ).conflicts("deployment"),
    )
    .option(
      "--max-deployments <n>",
      "with --app or --all, the most deployments followed (1 to 10000, default 50): the first by app, live first, newest first; the rest are left out, said in one line",
      integerFlag(1, 10_000),
    )
    .option("--no-bell", "do not ring the terminal bell when activities newly await votes")
    .option(
      "--clipboard",
      "c copies the cursor's log line to the terminal's clipboard (OSC 52; some terminals refuse it)",
    )
    .action(
      async (flags: {
        seed?: number;
        scenario: ScenarioName;
        bell: boolean;
        clipboard?: boolean;
        deployment?: string[];
        app?: string;
        all?: boolean;
        maxDeployments?: number;
      }) => {
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
          since: 600_000,
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
