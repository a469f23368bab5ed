/**
 * The simulator's service as the options ask for it: the organization of a --state file when
 * there is one (a flag that says otherwise is named, not ignored), else a new one from the seed.
 */
import { randomInt } from "node:crypto";
import type { Clock } from "../api/clock.js";
import { removeStaleTempFiles } from "../config/atomic-file.js";
import { readStateFile, StateFileError } from "./organization/state-file.js";
import { SimService } from "./service.js";
import type { SimulatorOptions } from "./simulator-options.js";

export interface OpenedService {
  service: SimService;
  /** The seed the data derives from (drawn at random when none was given). */
  seed: number;
}

export function serviceFromOptions(
  options: SimulatorOptions,
  clock: Clock,
  log: (message: string) => void,
): OpenedService {
  if (options.statePath) removeStaleTempFiles(options.statePath);
  const saved = options.statePath ? readStateFile(options.statePath) : undefined;
  if (saved) {
    // What the file holds wins; a flag that says otherwise is a mistake to name, not to ignore.
    const clash = (flag: string, given: unknown, held: unknown) => {
      if (given !== undefined && given !== held) {
        throw new StateFileError(
          `--state ${options.statePath} holds an organization with ${flag} ${held}; drop ${flag} ${given} or use another state file`,
        );
      }
    };
    clash("--seed", options.seed, saved.seed);
    clash("--scenario", options.scenario, saved.scenario);
    clash("--root-quorum", options.rootQuorumThreshold, saved.rootQuorum.threshold);
  }
  const seed = saved?.seed ?? options.seed ?? randomInt(0, 2 ** 31);
  const service = new SimService({
    seed,
    scenario: saved?.scenario ?? options.scenario ?? "demo",
    savedState: saved,
    statePath: options.statePath,
    rootQuorumThreshold: options.rootQuorumThreshold,
    clock,
    clockSkewMs: options.clockSkewMs ?? 0,
    replicas: options.replicas ?? 3,
    logRate: options.logRate ?? 5,
    retentionMs: options.retentionMs ?? 3_600_000,
    ingestLagMs: options.ingestLagMs ?? 0,
    truthFile: options.truthFile,
    log,
  });
  return { service, seed };
}
