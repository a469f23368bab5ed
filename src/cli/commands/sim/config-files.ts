/** `tvcwatch sim --write-config`: the config files that point at the running simulator. */
import { extname } from "node:path";
import { removeStaleTempFiles, writeFileAtomically } from "../../../config/atomic-file.js";
import { fileProblem } from "../../../config/file-problem.js";
import type { RunningSimulator } from "../../../sim/server.js";
import { CliError } from "../../cli-error.js";

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
export function writeConfigFiles(path: string, sim: RunningSimulator): string {
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
