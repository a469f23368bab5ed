/**
 * Reads the config file for doctor. A file that holds apiPrivateKey and is readable by others is
 * refused by every other command; doctor reports that on the key's own line and reads the file
 * anyway, so the checks after it can run.
 */
import type { ConfigFile } from "../../../config/config-file.js";
import { readConfigFile } from "../../../config/resolve.js";

export type ConfigInspection = { file: ConfigFile } | { problem: string };

export async function inspectConfigFile(path: string): Promise<ConfigInspection> {
  try {
    return { file: await readConfigFile(path, { refuseOpenMode: false }) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}
