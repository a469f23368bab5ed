import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/tvcwatch", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs bin/tvcwatch as a user would, with a clean Turnkey environment: no TURNKEY_* variables and
 * an empty XDG_CONFIG_HOME, so the developer's own config file and tkcli keys stay out of it.
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    input?: string;
    timeoutMs?: number;
    /** Told each piece of stderr as it comes, for a test that waits for what is said. */
    onStderr?: (text: string) => void;
  } = {},
): Promise<CliResult> {
  const env: Record<string, string> = {
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-xdg-")),
  };
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("TURNKEY_") || k.startsWith("TVC_")) continue;
    if (k === "TVCWATCH_CONFIG" || k === "XDG_CONFIG_HOME") continue;
    env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...options.env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      options.onStderr?.(String(d));
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
