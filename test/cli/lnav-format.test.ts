/**
 * lnav itself reads what `tail -o json` prints with the format `tvcwatch lnav-format` prints:
 * installed into a HOME of its own (the user's lnav configuration is never touched), then asked
 * headless (`-n`) for the rows of its tvcwatch_log table.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatEvent } from "../../src/logs/formats/stream-format.js";
import type { LogEvent } from "../../src/logs/model/log-line.js";
import { runCli } from "../helpers/run-cli.js";

function lnavVersion(): string | undefined {
  try {
    return execFileSync("lnav", ["-V"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}
const version = lnavVersion();

const json = { output: "json", timestamps: false, utc: true, colour: false } as const;
const at = (seconds: number, content: string, replica = 1, deploymentId?: string): LogEvent => ({
  kind: "line",
  replicaLabel: `replica ${replica}/3`,
  seconds: String(seconds),
  nanos: 123_456_789,
  sortKey: seconds * 1000 + 123.456789,
  content,
  late: false,
  ...(deploymentId ? { deploymentId } : {}),
});

describe(version ? `lnav (${version})` : "lnav", () => {
  it.skipIf(version === undefined)(
    version
      ? "parses tail -o json with the printed format: time, level, body, replica and deployment"
      : "is not installed here (apt-get install lnav, as .ci/run does): lnav's reading is not checked",
    async () => {
      const home = mkdtempSync(join(tmpdir(), "tvcwatch-lnav-"));
      const env = {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local", "share"),
        XDG_STATE_HOME: join(home, ".local", "state"),
        XDG_CACHE_HOME: join(home, ".cache"),
      };
      const printed = await runCli(["lnav-format"]);
      expect(printed.code).toBe(0);
      const formatFile = join(home, "tvcwatch.json");
      writeFileSync(formatFile, printed.stdout);
      execFileSync("lnav", ["-i", formatFile], { env, stdio: "pipe" });

      const events: LogEvent[] = [
        at(1_795_000_000, "TRACE entering sign"),
        at(1_795_000_001, "DEBUG nonce=7", 2),
        at(1_795_000_002, '{"level":"info","msg":"settled transfer"}', 3),
        at(1_795_000_003, "WARN slow upstream", 1, "9463b1f2-7c1e-4f4e-9d8e-2a1b3c4d5e6f"),
        at(1_795_000_004, "ERROR upstream timeout after 5000ms", 2),
        at(1_795_000_005, "FATAL out of memory", 3),
        {
          kind: "gap",
          from: 1_795_000_006_000,
          to: 1_795_000_009_000,
          reason: "no answer from the server",
          sortKey: 1_795_000_009_000,
        },
        at(1_795_000_010, "INFO back", 1),
      ];
      const file = join(home, "app.ndjson");
      writeFileSync(file, `${events.map((e) => formatEvent(e, json)).join("\n")}\n`);
      const out = execFileSync(
        "lnav",
        [
          "-n",
          "-c",
          ";SELECT log_time, log_level, log_body, replicaLabel, deploymentId, event, reason FROM tvcwatch_log",
          "-c",
          ":write-json-to -",
          file,
        ],
        { env, encoding: "utf8", timeout: 30_000 },
      );
      const rows = JSON.parse(out) as Record<string, string | null>[];
      expect(rows.map((r) => [r.log_time, r.log_level, r.replicaLabel, r.log_body])).toEqual([
        ["2026-11-18 11:06:40.123", "trace", "replica 1/3", "TRACE entering sign"],
        ["2026-11-18 11:06:41.123", "debug", "replica 2/3", "DEBUG nonce=7"],
        [
          "2026-11-18 11:06:42.123",
          "info",
          "replica 3/3",
          '{"level":"info","msg":"settled transfer"}',
        ],
        ["2026-11-18 11:06:43.123", "warning", "replica 1/3", "WARN slow upstream"],
        ["2026-11-18 11:06:44.123", "error", "replica 2/3", "ERROR upstream timeout after 5000ms"],
        ["2026-11-18 11:06:45.123", "fatal", "replica 3/3", "FATAL out of memory"],
        ["2026-11-18 11:06:49.000", "info", null, null],
        ["2026-11-18 11:06:50.123", "info", "replica 1/3", "INFO back"],
      ]);
      expect(rows[3]?.deploymentId).toBe("9463b1f2-7c1e-4f4e-9d8e-2a1b3c4d5e6f");
      expect(rows[6]).toMatchObject({ event: "gap", reason: "no answer from the server" });
    },
  );
});
