/**
 * What `tvcwatch sim` does once its flags are parsed: start the simulator, write the config files,
 * say where it listens and with what credentials, and run until SIGINT or SIGTERM.
 */
import { isLoopbackHost } from "../../../api/url-policy.js";
import { fileProblem } from "../../../config/file-problem.js";
import { StateFileError } from "../../../sim/organization/state-file.js";
import type { RunningSimulator } from "../../../sim/server.js";
import { startSimulator } from "../../../sim/server.js";
import { sayAs } from "../../../text/stderr.js";
import { CliError } from "../../cli-error.js";
import { writeConfigFiles } from "./config-files.js";
import type { SimFlags } from "./sim-flags.js";
import { checkHeldLines } from "./sim-flags.js";
import type { WrittenConfigs } from "./startup-lines.js";
import { startupLines } from "./startup-lines.js";

/** The simulator's messages on stderr: `tvcwatch sim: ...`. */
const saySim = sayAs("sim");

/** Starts the simulator the flags describe; a failure to is said in one line (exit 2). */
async function startFromFlags(flags: SimFlags): Promise<RunningSimulator> {
  try {
    return await startSimulator({
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
}

function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export async function runSim(flags: SimFlags): Promise<void> {
  checkHeldLines(flags);
  if (!isLoopbackHost(flags.host)) {
    saySim(
      `warning: listening on ${flags.host}, not loopback; anyone who can reach it can use the demo key`,
    );
  }
  const sim = await startFromFlags(flags);
  // Ready means ready: the config files exist, whole, before the listening line.
  let configs: WrittenConfigs | undefined;
  if (flags.writeConfig) {
    try {
      configs = { first: flags.writeConfig, second: writeConfigFiles(flags.writeConfig, sim) };
    } catch (err) {
      await sim.close();
      throw err;
    }
  }
  // Its own credentials, ids and names (sanitized: a --state file keeps names).
  for (const line of startupLines(sim, configs, flags.state)) process.stdout.write(`${line}\n`);
  await untilInterrupted();
  await sim.close();
  saySim("stopped");
}
