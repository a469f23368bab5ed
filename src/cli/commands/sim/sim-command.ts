/** `tvcwatch sim`: its flags. What it does is in ../sim/run-sim.ts. */
import type { Command } from "commander";
import { Option } from "commander";
import { SCENARIOS } from "../../../sim/scenario.js";
import { commandSummary } from "../../command-summaries.js";
import {
  boundedDurationFlag,
  boundedNumberFlag,
  boundedRangeMsFlag,
  boundedSignedDurationFlag,
  fractionFlag,
  integerFlag,
} from "../../flag-parsers.js";
import { runSim } from "./run-sim.js";
import type { SimFlags } from "./sim-flags.js";
import { HOUR, outageFlag, SIM_LIMITS } from "./sim-flags.js";
import { simHelpText } from "./sim-help.js";

export function registerSimCommand(program: Command): void {
  program
    .command("sim")
    .summary(commandSummary("sim"))
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
      new Option(
        "--scenario <name>",
        "what the organization is going through (default: demo)",
      ).choices(SCENARIOS),
    )
    .option(
      "--state <file>",
      "keep the organization (users, keys, wallets, activities, ...) in this file: loaded at start, saved atomically after every change",
    )
    .option(
      "--root-quorum <n>",
      "root users (of 2) that must approve set_organization_feature, for a new organization (default: 2)",
      integerFlag(1, 2),
    )
    .option(
      "--write-config <file>",
      "write a tvcwatch --config file (mode 0600) that points at this simulator",
    )
    .option("--replicas <k>", "replicas of the debug deployment", integerFlag(1, 9), 3)
    .option(
      "--log-rate <n>",
      `log lines per second per replica (${SIM_LIMITS.logRate.min} to ${SIM_LIMITS.logRate.max})`,
      boundedNumberFlag(SIM_LIMITS.logRate.min, SIM_LIMITS.logRate.max),
      5,
    )
    .addOption(
      new Option("--retention <duration>", "how long log lines are kept (10s to 24h)")
        .argParser(boundedDurationFlag(SIM_LIMITS.retentionMs.min, SIM_LIMITS.retentionMs.max))
        .default(HOUR, "1h"),
    )
    .option(
      "--faults <rate>",
      "fraction of requests answered by 500, 503, 429 or a dropped connection",
      fractionFlag,
      0,
    )
    .option(
      "--latency <min-max>",
      "added latency per request in ms, e.g. 50-300 (at most 60000)",
      boundedRangeMsFlag(SIM_LIMITS.latencyMs),
    )
    .option(
      "--outage <at+for>",
      "every request answered 503 for a while: from AT after the start, for FOR, e.g. 30s+20s",
      outageFlag,
    )
    .option(
      "--clock-skew <duration>",
      "the server's clock against this host's, e.g. 45s or -2m (at most 24h either way)",
      boundedSignedDurationFlag(SIM_LIMITS.clockSkewMs),
      0,
    )
    .option(
      "--ingest-lag <duration>",
      "a log line becomes visible up to this long after its timestamp (at most 10m)",
      boundedDurationFlag(0, SIM_LIMITS.ingestLagMs),
      0,
    )
    .option(
      "--truth-file <file>",
      "write every generated log line as NDJSON {replicaLabel, ts, content} (see below)",
    )
    .addHelpText("after", simHelpText())
    .action((flags: SimFlags) => runSim(flags));
}
