/**
 * Reads the config file for doctor. A file that holds apiPrivateKey and is readable by others is
 * refused by every other command; doctor reports that on the key's own line and reads the file
 * anyway, so the checks after it can run.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ConfigFile } from "../../config/config-file.js";
import { configFileSchema } from "../../config/config-file.js";
import { readConfigFile } from "../../config/resolve.js";
import { fileMode, isOpenToOthers } from "./key-inspection.js";

export type ConfigInspection = { file: ConfigFile } | { problem: string };

export async function inspectConfigFile(path: string): Promise<ConfigInspection> {
  try {
    return { file: await readConfigFile(path) };
  } catch (err) {
    const mode = existsSync(path) ? fileMode(path) : undefined;
    if (mode !== undefined && isOpenToOthers(mode)) {
      // readConfigFile checks the mode last, after the contents passed: they are valid.
      const parsed = configFileSchema.safeParse(safeJson(path));
      if (parsed.success) return { file: parsed.data };
    }
    return { problem: (err as Error).message };
  }
}

function safeJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}
