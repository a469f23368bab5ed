import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { Option } from "commander";
import type { ScenarioName } from "../../sim/scenario.js";
import { SCENARIOS } from "../../sim/scenario.js";
import type { SimConfig } from "../../sim/server.js";
import { startSimulator } from "../../sim/server.js";
import { CliError } from "../cli-error.js";
import {
  durationFlag,
  fractionFlag,
  integerFlag,
  positiveNumberFlag,
  rangeMsFlag,
  signedDurationFlag,
} from "../flag-parsers.js";

interface SimFlags {
  host: string;
  port: number;
  seed?: number;
  scenario: ScenarioName;
  writeConfig?: string;
  replicas: number;
  logRate: number;
  retention: number;
  faults: number;
  latency?: [number, number];
  clockSkew: number;
  ingestLag: number;
  truthFile?: string;
}

export function envLines(config: SimConfig): string[] {
  return [
    `export TURNKEY_BASE_URL=${config.baseUrl}`,
    `export TURNKEY_ORGANIZATION_ID=${config.organizationId}`,
    `export TURNKEY_API_PUBLIC_KEY=${config.apiPublicKey}`,
    `export TURNKEY_API_PRIVATE_KEY=${config.apiPrivateKey}`,
    `export TURNKEY_AUTH_PROXY_URL=${config.authProxyUrl}`,
    `export TURNKEY_AUTH_PROXY_CONFIG_ID=${config.authProxyConfigId}`,
  ];
}

export function registerSimCommand(program: Command): void {
  program
    .command("sim")
    .summary("run a local simulator of Turnkey's API (a test double for demos and tests)")
    .description(
      "Run a LOCAL SIMULATOR of Turnkey's API on this machine, for demos, drills and tests. It is a test double, not the real service: its organization, API key, deployments, logs, activities, email events and Solana transfers are generated. It verifies real X-Stamp signatures with its own demo API key, which it prints (that key is worthless elsewhere).",
    )
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on; 0 picks a free one", integerFlag(0, 65535), 8787)
    .option(
      "--seed <n>",
      "seed for the generated data (same seed, same data)",
      integerFlag(0, 2 ** 31 - 1),
    )
    .addOption(
      new Option("--scenario <name>", "what the organization is going through")
        .choices(SCENARIOS)
        .default("demo"),
    )
    .option(
      "--write-config <file>",
      "write a tvcwatch --config file (mode 0600) that points at this simulator",
    )
    .option("--replicas <k>", "replicas of the debug deployment", integerFlag(1, 9), 3)
    .option("--log-rate <n>", "log lines per second per replica", positiveNumberFlag, 5)
    .addOption(
      new Option("--retention <duration>", "how long log lines are kept")
        .argParser(durationFlag)
        .default(3_600_000, "1h"),
    )
    .option(
      "--faults <rate>",
      "fraction of requests answered by 500, 503, 429 or a dropped connection",
      fractionFlag,
      0,
    )
    .option("--latency <min-max>", "added latency per request in ms, e.g. 50-300", rangeMsFlag)
    .option(
      "--clock-skew <duration>",
      "the server's clock against this host's, e.g. 45s or -2m",
      signedDurationFlag,
      0,
    )
    .option(
      "--ingest-lag <duration>",
      "a log line becomes visible up to this long after its timestamp",
      durationFlag,
      0,
    )
    .option(
      "--truth-file <file>",
      "write every generated log line as NDJSON {replicaLabel, ts, content}",
    )
    .action(async (flags: SimFlags) => {
      if (!/^(127\.|localhost$|::1$|\[::1\]$)/.test(flags.host)) {
        process.stderr.write(
          `tvcwatch sim: warning: listening on ${flags.host}, not loopback; anyone who can reach it can use the demo key\n`,
        );
      }
      let sim: Awaited<ReturnType<typeof startSimulator>>;
      try {
        sim = await startSimulator({
          host: flags.host,
          port: flags.port,
          ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
          scenario: flags.scenario,
          replicas: flags.replicas,
          logRate: flags.logRate,
          retentionMs: flags.retention,
          faultRate: flags.faults,
          ...(flags.latency ? { latencyMs: flags.latency } : {}),
          clockSkewMs: flags.clockSkew,
          ingestLagMs: flags.ingestLag,
          ...(flags.truthFile ? { truthFile: flags.truthFile } : {}),
        });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === "EADDRINUSE")
          throw new CliError(
            `port ${flags.port} is in use; pick another with --port (0 = any free port)`,
            2,
          );
        throw new CliError(`cannot start the simulator: ${e.message}`, 2);
      }
      process.stdout.write(`tvcwatch sim listening on ${sim.url}\n`);
      if (flags.writeConfig) {
        writeFileSync(flags.writeConfig, `${JSON.stringify(sim.config, null, 2)}\n`, {
          mode: 0o600,
        });
        process.stdout.write(
          `wrote ${flags.writeConfig}; use it with: tvcwatch --config ${flags.writeConfig} ...\n`,
        );
      }
      process.stdout.write(
        `# the simulator's demo credentials, for copy-paste:\n${envLines(sim.config).join("\n")}\n`,
      );
      process.stdout.write(`# debug deployment: ${sim.config.deploymentId}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await sim.close();
      process.stderr.write("tvcwatch sim: stopped\n");
    });
}
