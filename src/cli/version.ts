import { fileURLToPath } from "node:url";
import { READ_LIMITS, readNamedFile } from "../config/named-file.js";

/** The version in package.json, read once at start-up. */
export function readVersion(): string {
  const path = fileURLToPath(new URL("../../package.json", import.meta.url));
  const pkg = JSON.parse(readNamedFile(path, "package.json", READ_LIMITS.config).text) as {
    version?: unknown;
  };
  return typeof pkg.version === "string" ? pkg.version : "0.0.0";
}
