import type { Command } from "commander";
import { Option } from "commander";
import { LOG_LEVELS } from "../../text/log-level.js";
import { commandSummary } from "../command-summaries.js";
import {
  collectRegex,
  collectText,
  integerFlag,
  intervalFlag,
  overlapFlag,
  sinceFlag,
  textFlag,
} from "../flag-parsers.js";
import type { TailFlags } from "../tail/tail-flags.js";

/** The most context lines -A, -B and -C take. */
const MAX_TAIL_CONTEXT = 1000;

/**
 * `tvcwatch tail`: its flags. What it does is in ../tail/run-tail.ts, loaded when it runs, so
 * `tail --help` loads no client, schemas or follower.
 */
export function registerTailCommand(program: Command): void {
  program
    .command("tail")
    .summary(commandSummary("tail"))
    .description(
      "Print a TVC deployment's debug logs, every replica's lines merged by timestamp, each line exactly once. With -f, follow until Ctrl-C, through network faults, slow responses and server clock skew. Without --since or --tail, starts with the last 10 minutes.",
    )
    .option(
      "--deployment <id>",
      "deployment ID (default: deploymentId from the config file); repeat it to merge several",
      collectText,
    )
    .addOption(
      new Option(
        "--app <app-id>",
        "every debug-mode deployment of this app (its id or name), new ones as they appear",
      )
        .argParser(textFlag)
        .conflicts(["deployment", "all"]),
    )
    .addOption(
      new Option(
        "--all",
        "every debug-mode deployment of the organization, new ones as they appear",
      ).conflicts("deployment"),
    )
    .option(
      "--max-deployments <n>",
      "with --app or --all, the most deployments followed (1 to 10000, default 50): the first by app, live first, newest first; the rest are left out, said in one line",
      integerFlag(1, 10_000),
    )
    .option(
      "--max-concurrent <n>",
      "with several deployments, the most requests in flight at once (1 to 64, default 4)",
      integerFlag(1, 64),
    )
    .option("-f, --follow", "keep polling for new lines until interrupted")
    .option(
      "--since <duration>",
      "only lines newer than this, e.g. 30s, 10m, 1h (1s to 7d)",
      sinceFlag,
    )
    .option(
      "--tail <n>",
      "only the last N lines of each replica to start with",
      integerFlag(1, 2_147_483_647),
    )
    .option(
      "--replica <label>",
      "only this replica: its label or its number (repeatable)",
      collectText,
    )
    .option(
      "--grep <regex>",
      "only lines matching this regular expression; repeat it to keep lines matching any (smart case: all lower case ignores case)",
      collectRegex,
    )
    .option(
      "--exclude <regex>",
      "drop lines matching this regular expression; repeat it to drop lines matching any (smart case)",
      collectRegex,
    )
    .addOption(
      new Option(
        "--level <level>",
        "only lines of this level or more severe (a line stating none counts as info; the lines that continue a kept one, such as stack frames, are kept with it)",
      ).choices(LOG_LEVELS),
    )
    .option(
      "-C, --context <n>",
      "with --grep, --exclude or --level, N lines around each kept line, as grep -C (0 to 1000)",
      integerFlag(0, MAX_TAIL_CONTEXT),
    )
    .option(
      "-A, --after-context <n>",
      "N lines after each kept line, as grep -A",
      integerFlag(0, MAX_TAIL_CONTEXT),
    )
    .option(
      "-B, --before-context <n>",
      "N lines before each kept line, as grep -B",
      integerFlag(0, MAX_TAIL_CONTEXT),
    )
    .option(
      "--highlight <regex>",
      "mark what this regular expression matches, on a terminal with colour (repeatable; smart case)",
      collectRegex,
    )
    .option("--timestamps", "prefix each line with its RFC 3339 timestamp")
    .option("--utc", "timestamps in UTC instead of the local zone")
    .addOption(
      new Option(
        "-o, --output <format>",
        "text, json (one object per line), or otlp (to an OpenTelemetry collector: --otlp-endpoint)",
      )
        .choices(["text", "json", "otlp"])
        .default("text"),
    )
    .addOption(
      new Option("--interval <duration>", "base poll interval (250ms to 10m)")
        .argParser(intervalFlag)
        .default(2000, "2s"),
    )
    .addOption(
      new Option(
        "--overlap <duration>",
        "the most a window reaches back for late-arriving lines; it stays small while none come late (0 to 5m)",
      )
        .argParser(overlapFlag)
        .default(5000, "5s"),
    )
    .option(
      "--otlp-endpoint <url>",
      "with -o otlp, the collector's OTLP/HTTP base URL, e.g. http://localhost:4318 (default: OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)",
      textFlag,
    )
    .option(
      "--checkpoint <file>",
      "with -f, record after each batch written what a restart needs, and resume from FILE when it exists: no line printed twice, none missed (see the README)",
      textFlag,
    )
    .option(
      "--output-file <file>",
      "append the lines (-o text or json) to FILE instead of stdout; with --checkpoint, each line is in FILE exactly once across restarts, even after a kill -9 (see the README)",
      textFlag,
    )
    .option(
      "-v, --verbose",
      "with -f, write the follow's figures to stderr every 10 s (rate, latency, window, overlap, late lines)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  tvcwatch tail --deployment DEP -f\n  tvcwatch tail -f --since 1h --grep ERROR --grep WARN -C 2 --replica 2\n  tvcwatch tail -f -o json | jq -r .content\n  tvcwatch tail -f -o json --checkpoint /var/lib/tvcwatch/dep.checkpoint --output-file /var/log/dep.ndjson",
    )
    .action(async (flags: TailFlags, cmd: Command) => {
      if ((flags.deployment?.length ?? 0) > 1 || flags.app !== undefined || flags.all) {
        const { runManyTail } = await import("../tail/follow-many.js");
        return runManyTail(flags, cmd);
      }
      const { runTail } = await import("../tail/run-tail.js");
      await runTail(flags, cmd);
    });
}
