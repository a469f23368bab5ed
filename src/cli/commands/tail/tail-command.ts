import type { Command } from "commander";
import { LOG_LEVELS } from "../../../text/log-level.js";
import { CliError } from "../../cli-error.js";
import { commandSummary } from "../../command-summaries.js";
import {
  collectQuery,
  collectRegex,
  collectText,
  fieldListFlag,
  integerFlag,
  overlapFlag,
  textFlag,
} from "../../flag-parsers.js";
import type { FlagRow } from "../../flag-table.js";
import { addFlags } from "../../flag-table.js";
import { followFlags } from "../../follow-flags.js";
import type { TailFlags } from "./tail-flags.js";

/** The most context lines -A, -B and -C take. */
const MAX_TAIL_CONTEXT = 1000;

/** `tvcwatch tail`'s flags, in the order its help lists them. */
const TAIL_FLAG_TABLE: readonly FlagRow[] = [
  ...followFlags("tail", "deployment", "app", "all", "maxDeployments", "maxConcurrent"),
  { flags: "-f, --follow", description: "keep polling for new lines until interrupted" },
  ...followFlags("tail", "since", "until"),
  {
    flags: "--tail <n>",
    description: "only the last N lines of each replica to start with",
    parse: integerFlag(1, 2_147_483_647),
  },
  {
    flags: "--replica <label>",
    description: "only this replica: its label or its number (repeatable)",
    parse: collectText,
  },
  {
    flags: "--grep <regex>",
    description:
      "only lines matching this regular expression; repeat it to keep lines matching any (smart case: all lower case ignores case)",
    parse: collectRegex,
  },
  {
    flags: "--exclude <regex>",
    description:
      "drop lines matching this regular expression; repeat it to drop lines matching any (smart case)",
    parse: collectRegex,
  },
  {
    flags: "--where <query>",
    description:
      "only lines whose fields match: FIELD OP VALUE with = != > >= < <= ~ (regex), joined by and, or, not and parentheses, e.g. 'latencyMs > 300 and fields.service = signer' or 'level >= warn'; JSON paths or key=value keys; a line without the field does not match (repeatable: all must hold)",
    parse: collectQuery,
  },
  {
    flags: "--level <level>",
    description:
      "only lines of this level or more severe (a line stating none counts as info; the lines that continue a kept one, such as stack frames, are kept with it)",
    choices: LOG_LEVELS,
  },
  {
    flags: "-C, --context <n>",
    description:
      "with --grep, --exclude or --level, N lines around each kept line, as grep -C (0 to 1000)",
    parse: integerFlag(0, MAX_TAIL_CONTEXT),
  },
  {
    flags: "-A, --after-context <n>",
    description: "N lines after each kept line, as grep -A",
    parse: integerFlag(0, MAX_TAIL_CONTEXT),
  },
  {
    flags: "-B, --before-context <n>",
    description: "N lines before each kept line, as grep -B",
    parse: integerFlag(0, MAX_TAIL_CONTEXT),
  },
  {
    flags: "--highlight <regex>",
    description:
      "mark what this regular expression matches, on a terminal with colour (repeatable; smart case)",
    parse: collectRegex,
  },
  {
    flags: "--fields <list>",
    description:
      "print these fields as aligned columns in place of each line, e.g. time,replica,level,msg,service,latencyMs: JSON paths or key=value keys, and time, replica, level and msg (the line's msg or message field, else the text of a line that is not JSON); a line without a field has an empty cell; a column is at most 40 wide (a longer value is cut with …, the last column never); stack frames print whole under their line",
    parse: fieldListFlag,
  },
  { flags: "--timestamps", description: "prefix each line with its RFC 3339 timestamp" },
  {
    flags: "--utc",
    description:
      "timestamps, and the clock times of --since and --until, in UTC instead of the local zone",
  },
  {
    flags: "-o, --output <format>",
    description:
      "text, json (one object per line), or otlp (to an OpenTelemetry collector: --otlp-endpoint)",
    choices: ["text", "json", "otlp"],
    default: { value: "text" },
  },
  ...followFlags("tail", "interval"),
  {
    flags: "--events",
    description:
      "print the side panes' events among the lines, in time order: activities created, their status changes and votes (always), email events (with --email), Solana transfers (with --sol-address) and the deployment's health (ready replicas, the live deployment); text: glyph, time, text; -o json: records with a kind. Polled at most every --interval; one deployment, to stdout",
  },
  ...followFlags("tail", "email", "solAddress", "caip2"),
  {
    flags: "--overlap <duration>",
    description:
      "the most a window reaches back for late-arriving lines; it stays small while none come late (0 to 5m)",
    parse: overlapFlag,
    default: { value: 5000, shown: "5s" },
  },
  {
    flags: "--otlp-endpoint <url>",
    description:
      "with -o otlp, the collector's OTLP/HTTP base URL, e.g. http://localhost:4318 (default: OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)",
    parse: textFlag,
  },
  {
    flags: "--checkpoint <file>",
    description:
      "with -f, record after each batch written what a restart needs, and resume from FILE when it exists: no line printed twice, none missed (docs/tail.md#checkpoint-restart-safe-following)",
    parse: textFlag,
  },
  {
    flags: "--start-over",
    description:
      "with --checkpoint, set aside what FILE records (one refused: ahead of the server's clock, older than the server keeps logs, or corrupt) and start afresh from --since or --tail: lines before that window that it had not handed on are skipped, lines within it that it had handed on come again; FILE is then written anew",
  },
  {
    flags: "--output-file <file>",
    description:
      "append the lines (-o text or json) to FILE instead of stdout; with --checkpoint, each line is in FILE exactly once across restarts, even after a kill -9 (docs/tail.md#output-file-exactly-once-into-a-file)",
    parse: textFlag,
  },
  {
    flags: "-v, --verbose",
    description:
      "with -f, write the follow's figures to stderr every 10 s (rate, latency, window, overlap, late lines)",
  },
];

/**
 * `tvcwatch tail`: its flags. What it does is in ../tail/run-tail.ts, loaded when it runs, so
 * `tail --help` loads no client, schemas or follower.
 */
export function registerTailCommand(program: Command): void {
  const tail = program
    .command("tail")
    .summary(commandSummary("tail"))
    .description(
      "Print a TVC deployment's debug logs, every replica's lines merged by timestamp, each line exactly once. With -f, follow until Ctrl-C, through network faults, slow responses and server clock skew. Without --since or --tail, starts with the last 10 minutes.",
    );
  addFlags(tail, TAIL_FLAG_TABLE)
    .addHelpText(
      "after",
      "\nExamples:\n  tvcwatch tail --deployment DEP -f\n  tvcwatch tail -f --since 1h --grep ERROR --grep WARN -C 2 --replica 2\n  tvcwatch tail -f -o json | jq -r .content\n  tvcwatch tail -f -o json --checkpoint /var/lib/tvcwatch/dep.checkpoint --output-file /var/log/dep.ndjson",
    )
    .action(async (flags: TailFlags, cmd: Command) => {
      if ((flags.deployment?.length ?? 0) > 1 || flags.app !== undefined || flags.all) {
        if (flags.events)
          throw new CliError(
            "--events prints one deployment's events: not with several --deployment, --app or --all",
            2,
          );
        const { runManyTail } = await import("./follow-many.js");
        return runManyTail(flags, cmd);
      }
      const { runTail } = await import("./run-tail.js");
      await runTail(flags, cmd);
    });
}
