import { lookup } from "node:dns/promises";
import type { Command } from "commander";
import { Option } from "commander";
import { shouldColour } from "../../../text/colour.js";
import { commandSummary } from "../../command-summaries.js";
import { durationFlag } from "../../flag-parsers.js";
import { doctorPassed, formatReportJson, formatReportText } from "./report.js";
import type { DoctorFlags } from "./run-doctor.js";
import { runDoctor } from "./run-doctor.js";

interface DoctorCommandFlags {
  output: "text" | "json";
  timeout: number;
  deployment?: string;
}

/** dns.lookup, every address, given up on after `ms` (getaddrinfo has no timeout of its own). */
function lookupWithin(ms: number): (host: string) => Promise<string[]> {
  return async (host) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        // What getaddrinfo says when the name server does not answer.
        () =>
          reject(Object.assign(new Error(`getaddrinfo EAI_AGAIN ${host}`), { code: "EAI_AGAIN" })),
        ms,
      );
    });
    try {
      const found = await Promise.race([lookup(host, { all: true }), timeout]);
      return found.map((a) => a.address);
    } finally {
      clearTimeout(timer);
    }
  };
}

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .summary(commandSummary("doctor"))
    .description(
      "Check the setup, one line per check with ✓ or ✗ and the fix: where each setting came from (flag, environment, config file, key files), the private key's file mode, that the key pair matches, that the base URL is allowed and resolves, a whoami round trip (latency, user, organization), the server's clock against this machine's, the organization's TVC deployments and which can be tailed (debug mode), and the auth proxy when configured.",
    )
    .option(
      "--deployment <id>",
      "also check that this deployment can be tailed (default: deploymentId from the config file)",
    )
    .addOption(
      new Option("-o, --output <format>", "text, or json for scripts")
        .choices(["text", "json"])
        .default("text"),
    )
    .addOption(
      new Option("--timeout <duration>", "how long to wait for each answer")
        .argParser(durationFlag)
        .default(10_000, "10s"),
    )
    .addHelpText(
      "after",
      "\nExit status: 0 when every check passed (skipped ones aside), 1 when one failed.\n\nExamples:\n  tvcwatch doctor\n  tvcwatch --config /tmp/sim.json doctor\n  tvcwatch doctor -o json | jq '.checks[] | select(.status == \"fail\")'",
    )
    .action(async (flags: DoctorCommandFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as DoctorFlags;
      const results = await runDoctor({
        flags: { ...globals, deployment: flags.deployment },
        env: process.env,
        timeoutMs: flags.timeout,
        lookup: lookupWithin(flags.timeout),
      });
      const tty = process.stdout.isTTY === true;
      process.stdout.write(
        flags.output === "json"
          ? formatReportJson(results, tty)
          : formatReportText(results, shouldColour(tty)),
      );
      process.exitCode = doctorPassed(results) ? 0 : 1;
    });
}
