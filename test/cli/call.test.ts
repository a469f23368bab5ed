import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationNames } from "../../src/api/operations.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { runCli } from "../helpers/run-cli.js";

let sim: RunningSimulator;
let config: string;
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-cli-"));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 4 });
  config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
});
afterAll(() => sim.close());

describe("tvcwatch", () => {
  it("prints help listing the subcommands, and its version", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const cmd of ["tail", "call", "keys", "sim"])
      expect(help.stdout).toMatch(new RegExp(`\\n  ${cmd}\\b`));
    expect(help.stdout).not.toMatch(/not implemented/i);
    const version = await runCli(["--version"]);
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version,
    );
  });

  it("says plainly in sim's help that it is a local simulator", async () => {
    const help = await runCli(["sim", "--help"]);
    expect(help.stdout).toMatch(/LOCAL SIMULATOR/);
    expect(help.stdout).toMatch(/test double, not the real service/);
  });

  it("rejects a bad flag value in one line naming the flag", async () => {
    const r = await runCli(["tail", "--since", "ten"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--since/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("tvcwatch call", () => {
  it("lists every operation with its kind", async () => {
    const r = await runCli(["call", "--list"]);
    expect(r.code).toBe(0);
    for (const name of operationNames)
      expect(r.stdout).toMatch(new RegExp(`^${name}\\s+(activity|query|auth-proxy)`, "m"));
  });

  it("invokes an operation and prints one line of JSON when not on a terminal", async () => {
    const r = await runCli(["--config", config, "call", "whoami"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(r.stdout).organizationId).toBe(sim.config.organizationId);
  });

  it("takes the body from --body, --body-file and standard input", async () => {
    const body = JSON.stringify({ deploymentId: sim.config.deploymentId, tailLines: 2 });
    const a = await runCli([
      "--config",
      config,
      "call",
      "get_tvc_deployment_debug_logs",
      "--body",
      body,
    ]);
    expect(JSON.parse(a.stdout).entries.length).toBeGreaterThan(0);
    const file = join(dir, "body.json");
    writeFileSync(file, body);
    const b = await runCli([
      "--config",
      config,
      "call",
      "get_tvc_deployment_debug_logs",
      "--body-file",
      file,
    ]);
    expect(b.code).toBe(0);
    const c = await runCli(
      ["--config", config, "call", "get_tvc_deployment_debug_logs", "--body", "-"],
      { input: body },
    );
    expect(c.code).toBe(0);
  });

  it("suggests close matches for an unknown operation", async () => {
    const r = await runCli(["call", "list_activites"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean list_activities/);
  });

  it("names the field before sending a body that fails the schema", async () => {
    const r = await runCli([
      "--config",
      config,
      "call",
      "list_email_events",
      "--body",
      '{"emial":"x"}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/list_email_events: field (email|emial)/);
    const bad = await runCli(["--config", config, "call", "whoami", "--body", "{nope"]);
    expect(bad.stderr).toMatch(/--body is not valid JSON/);
  });

  it("prints an API error on one line with the code name and status, exit 1", async () => {
    const r = await runCli([
      "--config",
      config,
      "call",
      "get_tvc_deployment",
      "--body",
      '{"deploymentId":"nope"}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^tvcwatch: get_tvc_deployment: NOT_FOUND \(HTTP 404\): /);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("reports a network failure after retries on one line, exit 2", async () => {
    const closed = await startSimulator({ port: 0 });
    await closed.close();
    const r = await runCli(["--config", config, "--base-url", closed.url, "call", "whoami"], {
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    // Waits of a second or more are announced; the last line is the failure.
    for (const notice of lines.slice(0, -1))
      expect(notice).toMatch(
        /^tvcwatch: whoami: connection refused by 127\.0\.0\.1:\d+; retrying in \ds \(attempt [2-5] of 5\)$/,
      );
    expect(lines.at(-1)).toMatch(
      /^tvcwatch: whoami: connection refused by 127\.0\.0\.1:\d+ \(gave up after 5 attempts\)$/,
    );
  }, 60_000);

  it("never prints the private key, even in errors", async () => {
    const r = await runCli(["--config", config, "--organization", "other-org", "call", "whoami"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/PERMISSION_DENIED/);
    expect(r.stdout + r.stderr).not.toContain(sim.config.apiPrivateKey);
  });
});

describe("tvcwatch keys generate", () => {
  it("writes a tkcli key pair, prints the public key and never overwrites", async () => {
    const folder = join(dir, "keys");
    const r = await runCli(["--keys-folder", folder, "keys", "generate", "--name", "ci"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(readFileSync(join(folder, "ci.public"), "utf8").trim()).toBe(r.stdout.trim());
    expect(statSync(join(folder, "ci.private")).mode & 0o777).toBe(0o600);
    expect(r.stdout + r.stderr).not.toContain(
      readFileSync(join(folder, "ci.private"), "utf8").split(":")[0],
    );
    const again = await runCli(["--keys-folder", folder, "keys", "generate", "--name", "ci"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });
});
