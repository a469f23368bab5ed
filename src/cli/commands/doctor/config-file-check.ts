/** Doctor's first line: which config file was read, if any, and whether it could be. */
import type { ConfigFile } from "../../../config/resolve.js";
import type { ConfigLocation } from "../../../config/setting-sources.js";
import { describeSource } from "../../../config/setting-sources.js";
import type { CheckResult } from "./check.js";
import { fail, pass } from "./check.js";
import { inspectConfigFile } from "./config-inspection.js";

export interface ConfigFileCheck {
  check: CheckResult;
  /** The file as read, when there is one and it could be read. */
  file?: ConfigFile;
}

export async function configFileCheck(location: ConfigLocation): Promise<ConfigFileCheck> {
  if (!location.found) {
    return {
      check: pass(
        "config-file",
        "config file",
        `none (no --config or TVCWATCH_CONFIG, and no ${location.lookedAt})`,
      ),
    };
  }
  const inspected = await inspectConfigFile(location.path);
  if ("file" in inspected) {
    return {
      file: inspected.file,
      check: pass(
        "config-file",
        "config file",
        `${location.path} (from ${describeSource(location.source)})`,
        { path: location.path },
      ),
    };
  }
  return {
    check: fail(
      "config-file",
      "config file",
      inspected.problem,
      `correct it, or point ${describeSource(location.source)} at another file`,
    ),
  };
}
