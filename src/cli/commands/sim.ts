import { extname } from "node:path";
import type { Command } from "commander";
import { InvalidArgumentError, Option } from "commander";
import { getOperation, operationNames } from "../../api/operations.js";
import { isLoopbackHost } from "../../api/url-policy.js";
import { removeStaleTempFiles, writeFileAtomically } from "../../config/atomic-file.js";
import { fileProblem } from "../../config/file-problem.js";
import type { OrgState } from "../../sim/organization/org-state.js";
import { StateFileError } from "../../sim/organization/state-file.js";
import type { ScenarioName } from "../../sim/scenario.js";
import { SCENARIOS } from "../../sim/scenario.js";
import type { RunningSimulator, SimConfig } from "../../sim/server.js";
import { startSimulator } from "../../sim/server.js";
import { formatDuration } from "../../text/duration.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { sayAs } from "../../text/stderr.js";
import { CliError } from "../cli-error.js";
import { commandSummary } from "../command-summaries.js";
import {
  boundedDurationFlag,
  boundedNumberFlag,
  boundedRangeMsFlag,
  boundedSignedDurationFlag,
  fractionFlag,
  integerFlag,
} from "../flag-parsers.js";

/** The simulator's messages on stderr: `tvcwatch sim: ...`. */
const saySim = sayAs("sim");

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Ranges of the flags that size the simulator's work and memory or hold its answers back. */
export const SIM_LIMITS = {
  logRate: { min: 0.01, max: 1000 },
  retentionMs: { min: 10 * SECOND, max: 24 * HOUR },
  latencyMs: 60 * SECOND,
  clockSkewMs: 24 * HOUR,
  ingestLagMs: 10 * MINUTE,
  /** Log lines held at once (rate × replicas × retention): about 1 GB of memory. */
  heldLines: 5_000_000,
} as const;

/** --outage AT+FOR: from AT after the start (0 to 24h), for FOR (1s to 24h). */
function outageFlag(value: string): { fromMs: number; toMs: number } {
  const [at, length, ...rest] = value.split("+");
  if (at === undefined || length === undefined || rest.length > 0)
    throw new InvalidArgumentError(
      `expected AT+FOR, two durations (30s+20s: from 30 s after the start, for 20 s), got ${JSON.stringify(value.slice(0, 24))}`,
    );
  const fromMs = boundedDurationFlag(0, 24 * HOUR)(at);
  return { fromMs, toMs: fromMs + boundedDurationFlag(SECOND, 24 * HOUR)(length) };
}

interface SimFlags {
  host: string;
  port: number;
  seed?: number;
  scenario?: ScenarioName;
  state?: string;
  rootQuorum?: number;
  writeConfig?: string;
  replicas: number;
  logRate: number;
  retention: number;
  faults: number;
  latency?: [number, number];
  outage?: { fromMs: number; toMs: number };
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

/**
 * Ids a user needs for `tvcwatch call` that no query of the API lists. Names come from the
 * organization's activities (a --state file keeps them): escaped as log lines are.
 */
export function organizationLines(state: OrgState): string[] {
  const users = state.users.map((u) => `${u.userName} ${u.userId}`).join(", ");
  const wallets = state.wallets.map((w) => `${w.walletName} ${w.walletId}`).join(", ");
  const secrets = state.secrets.map((x) => `${x.secretName} ${x.secretId}`).join(", ");
  const profiles = state.sessionProfiles
    .map((p) => `${p.sessionProfileName} ${p.sessionProfileId}`)
    .join(", ");
  const credentials = state.oauth2Credentials
    .map((c) => `${c.provider} ${c.oauth2CredentialId}`)
    .join(", ");
  return [
    `# users: ${users} (root quorum: ${state.rootQuorum.threshold} of ${state.rootQuorum.userIds.length})`,
    `# wallets: ${wallets}`,
    `# secrets: ${secrets}`,
    `# session profiles: ${profiles}`,
    `# OAuth 2.0 credentials: ${credentials}`,
  ].map(sanitizeForTerminal);
}

/** `/tmp/sim.json` -> `/tmp/sim.sre-lead.json`: the config file of another user beside it. */
export function siblingConfigPath(path: string, userName: string): string {
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}.${userName}${ext}`;
}

/**
 * Writes the --config file for the demo key and, beside it, the second root user's, each
 * owner-only (0600) and atomically (a reader sees no file or the whole file), so both are there
 * before the listening line. Returns the second file's path.
 */
function writeConfigFiles(path: string, sim: RunningSimulator): string {
  const second = siblingConfigPath(path, sim.service.scenario.secondRootKey.userName);
  for (const [file, config] of [
    [path, sim.config],
    [second, sim.secondRootConfig],
  ] as const) {
    try {
      // It holds a private key: owner-only from its creation (atomic-file.ts).
      removeStaleTempFiles(file);
      writeFileAtomically(file, `${JSON.stringify(config, null, 2)}\n`);
    } catch (err) {
      throw new CliError(
        `cannot write --write-config ${file}: ${fileProblem(err as NodeJS.ErrnoException)}`,
        2,
      );
    }
  }
  return second;
}

/** The operations the simulator serves, by kind, from the operation table, wrapped for --help. */
export function servedOperationsText(): string {
  const wrap = (head: string, names: string[]) => {
    const lines: string[] = [];
    let line = head;
    for (const name of names) {
      const next = `${line} ${name},`;
      if (next.length > 96) {
        lines.push(line);
        line = `  ${name},`;
      } else line = next;
    }
    lines.push(line.replace(/,$/, "."));
    return lines.join("\n");
  };
  const of = (kind: string) => operationNames.filter((n) => getOperation(n).kind === kind);
  return [
    `It serves the ${operationNames.length} operations of the spec (tvcwatch call --list), and only those of`,
    "Turnkey's API; any other path answers NOT_FOUND in Turnkey's error shape, naming the path.",
    wrap("Activities:", of("activity")),
    wrap("Queries:", of("query")),
    wrap("Auth proxy:", of("auth-proxy")),
    "Each response has the fields, types and enums of Turnkey's published swagger.",
  ].join("\n");
}

/** Refuses flags that together would hold more log lines than the simulator keeps. */
function checkHeldLines(flags: SimFlags): void {
  const held = flags.logRate * flags.replicas * (flags.retention / SECOND);
  if (held > SIM_LIMITS.heldLines) {
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    throw new CliError(
      `--log-rate ${flags.logRate} x --replicas ${flags.replicas} x --retention ${formatDuration(flags.retention)} holds ${n(held)} log lines; the simulator holds at most ${n(SIM_LIMITS.heldLines)}: lower one of them`,
      2,
    );
  }
}

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
    .addHelpText(
      "after",
      `
Scenarios: demo (steady traffic), quiet (little traffic), incident (busier; replica 2 crashes
at 45 s and restarts 6 s later, and a fourth replica joins at 90 s).

Log lines are generated lazily: a line is generated (stored, and written to --truth-file) when
the first request arrives after its timestamp has passed on the server's clock. With
--ingest-lag a generated line stays invisible to queries until up to that long after its
timestamp, so the truth file can hold lines a query does not return yet.

${servedOperationsText()}

The organization starts with two root users, oncall-root (whose API key is printed at start-up)
and sre-lead (whose key --write-config writes to a second file beside the first), plus
ci-deployer; private keys on each curve, two wallets, two secrets, tags, session profiles, a
webhook endpoint, an OAuth 2.0 credential, and two set_organization_feature activities awaiting
the root quorum (one sre-lead approved, one that needs both root users).
Activities change it: keys created with create_api_keys, stamp_login or oauth stamp at once;
deleted or expired ones are refused. An identical body is the same activity (its fingerprint
is sha256: + the body's SHA-256). set_organization_feature waits in CONSENSUS_NEEDED until
--root-quorum root users approved it (the submitter's stamp counts); reject_activity rejects it.

Encrypted outputs (oauth credentialBundle, export_wallet exportBundle, export_secrets payloads)
use Turnkey's formats and are signed by the simulator's own enclave key, printed at start-up as
signerPublicKey (and written by --write-config): open them with @turnkey/crypto, passing it as
dangerouslyOverrideSignerPublicKey. Session JWTs (stamp_login, create_read_only_session) are
signed with the same key.

Without --state the organization lives in memory and a restart starts afresh from the seed.

Examples:
  tvcwatch sim --port 0 --write-config /tmp/sim.json
  tvcwatch sim --state ~/.local/state/tvcwatch-sim.json
  tvcwatch --config /tmp/sim.json tail -f
  tvcwatch --config /tmp/sim.sre-lead.json call approve_activity --body '{"fingerprint":"sha256:..."}'
  tvcwatch sim --faults 0.2 --latency 50-300 --clock-skew 45s --ingest-lag 3s --truth-file /tmp/truth.ndjson
  tvcwatch sim --outage 30s+20s    (every request answered 503 from 30 s after the start, for 20 s)`,
    )
    .action(async (flags: SimFlags) => {
      checkHeldLines(flags);
      if (!isLoopbackHost(flags.host)) {
        saySim(
          `warning: listening on ${flags.host}, not loopback; anyone who can reach it can use the demo key`,
        );
      }
      let sim: Awaited<ReturnType<typeof startSimulator>>;
      try {
        sim = await startSimulator({
          log: saySim,
          host: flags.host,
          port: flags.port,
          ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
          ...(flags.scenario ? { scenario: flags.scenario } : {}),
          ...(flags.state ? { statePath: flags.state } : {}),
          ...(flags.rootQuorum ? { rootQuorumThreshold: flags.rootQuorum } : {}),
          replicas: flags.replicas,
          logRate: flags.logRate,
          retentionMs: flags.retention,
          faultRate: flags.faults,
          ...(flags.latency ? { latencyMs: flags.latency } : {}),
          ...(flags.outage ? { outage: flags.outage } : {}),
          clockSkewMs: flags.clockSkew,
          ingestLagMs: flags.ingestLag,
          ...(flags.truthFile ? { truthFile: flags.truthFile } : {}),
        });
      } catch (err) {
        if (err instanceof StateFileError) throw new CliError(err.message, 2);
        const e = err as NodeJS.ErrnoException;
        if (e.code === "EADDRINUSE")
          throw new CliError(
            `port ${flags.port} is in use; pick another with --port (0 = any free port)`,
            2,
          );
        if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND")
          throw new CliError(`cannot listen on --host ${flags.host}: no such local address`, 2);
        if (flags.truthFile && e.path === flags.truthFile)
          throw new CliError(`cannot write --truth-file ${flags.truthFile}: ${fileProblem(e)}`, 2);
        throw new CliError(`cannot start the simulator: ${e.message}`, 2);
      }
      // Ready means ready: the config files exist, whole, before the listening line.
      let secondConfig: string | undefined;
      if (flags.writeConfig) {
        try {
          secondConfig = writeConfigFiles(flags.writeConfig, sim);
        } catch (err) {
          await sim.close();
          throw err;
        }
      }
      process.stdout.write(`tvcwatch sim listening on ${sim.url}\n`);
      if (flags.writeConfig && secondConfig) {
        process.stdout.write(
          `wrote ${flags.writeConfig}; use it with: tvcwatch --config ${flags.writeConfig} ...\n`,
        );
        process.stdout.write(
          `wrote ${secondConfig}, the same as ${sim.service.scenario.secondRootKey.userName} (the second root user): approve as them with tvcwatch --config ${secondConfig} call approve_activity ...\n`,
        );
      }
      process.stdout.write(
        `# the simulator's demo credentials (a test double's key, worthless elsewhere), for copy-paste:\n${envLines(sim.config).join("\n")}\n`,
      );
      process.stdout.write(
        `# seed ${sim.seed} (--seed ${sim.seed} gives the same data), scenario ${sim.service.scenario.name}\n`,
      );
      process.stdout.write(
        `# signerPublicKey ${sim.config.signerPublicKey} (the simulator's enclave key: pass it to @turnkey/crypto as dangerouslyOverrideSignerPublicKey)\n`,
      );
      for (const line of organizationLines(sim.service.state)) process.stdout.write(`${line}\n`);
      if (flags.state) {
        const users = sim.service.state.users.length;
        const keys = sim.service.state.apiKeys.length;
        const acts = sim.service.state.activities.length;
        process.stdout.write(
          `# state ${flags.state}: ${users} users, ${keys} API keys, ${acts} submitted activities\n`,
        );
      }
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
      saySim("stopped");
    });
}
