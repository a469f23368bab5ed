/**
 * `tvcwatch sim` and `tvcwatch demo` as a user runs them: every flag has a range and a value
 * outside it is one line naming the flag; an unknown demo scenario is refused; a body over the
 * simulator's limit is answered with its 400 (the client gets it once, and does not re-upload);
 * the --write-config files exist before the listening line; the two-vote flow by hand.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationNames } from "../../src/api/operations.js";
import type { RunningSimulator, SimConfig } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { BIN, runCli } from "../helpers/run-cli.js";

describe("tvcwatch sim flags", () => {
  const refused: [string[], RegExp][] = [
    [
      ["--log-rate", "1e6"],
      /option '--log-rate <n>' argument '1e6' is invalid\. expected a number from 0\.01 to 1000/,
    ],
    [["--log-rate", "0"], /--log-rate .*expected a number from 0\.01 to 1000/],
    [["--latency", "1-99999999999"], /option '--latency <min-max>' .*from 0 to 60000/],
    [["--retention", "400d"], /option '--retention <duration>' .*from 10s to 24h/],
    [["--retention", "9".repeat(400)], /option '--retention <duration>' .*from 10s to 24h/],
    [["--clock-skew", "-25h"], /option '--clock-skew <duration>' .*from -24h to 24h/],
    [["--ingest-lag", "1h"], /option '--ingest-lag <duration>' .*from 0 to 10m/],
    [["--faults", "2"], /option '--faults <rate>' .*fraction from 0 to 1/],
    [["--outage", "30s"], /option '--outage <at\+for>' .*expected AT\+FOR, two durations/],
    [["--outage", "30s+0s"], /option '--outage <at\+for>' .*from 1s to 24h/],
    [["--replicas", "10"], /option '--replicas <k>' .*from 1 to 9/],
    [["--port", "70000"], /option '--port <port>' .*from 0 to 65535/],
  ];
  for (const [args, message] of refused) {
    it(`refuses ${args.join(" ").slice(0, 40)} in one line naming the flag`, async () => {
      const r = await runCli(["sim", "--port", "0", ...args]);
      expect(r.code).toBe(2);
      const [first] = r.stderr.split("\n");
      expect(first).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
    });
  }

  it("refuses flags that together would hold more log lines than it keeps, naming them", async () => {
    const r = await runCli(["sim", "--port", "0", "--log-rate", "1000", "--replicas", "9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "tvcwatch: --log-rate 1000 x --replicas 9 x --retention 1h holds 32,400,000 log lines; the simulator holds at most 5,000,000: lower one of them\n",
    );
  });
});

describe("tvcwatch sim --help", () => {
  it("says it is a test double and names every operation it serves, and no more", async () => {
    const r = await runCli(["sim", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/test double, not the real service/);
    expect(r.stdout).not.toMatch(/every operation of the API/i);
    expect(r.stdout).toMatch(
      new RegExp(
        `serves the ${operationNames.length} operations of the spec .*, and only those of\nTurnkey's API`,
      ),
    );
    const listed = r.stdout.replace(/\s+/g, " ");
    for (const name of operationNames) expect(listed).toMatch(new RegExp(`[ :]${name}[,.]`));
  });
});

describe("tvcwatch demo", () => {
  it("refuses an unknown scenario in one line listing the known ones", async () => {
    const r = await runCli(["demo", "--scenario", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe(
      "tvcwatch: error: option '--scenario <name>' argument 'nope' is invalid. Allowed choices are demo, quiet, incident.",
    );
  });
});

describe("a body over the simulator's 4 MiB limit", () => {
  let sim: RunningSimulator;
  let proxy: Server;
  /** Connections the client opened: each upload of a refused body is one (it is closed after). */
  let connections = 0;
  let config: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: 12 });
    const target = new URL(sim.url);
    // A pass-through on loopback that counts the client's connections.
    proxy = createServer((client) => {
      connections++;
      const upstream = connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const address = proxy.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}`;
    config = join(mkdtempSync(join(tmpdir(), "tvcwatch-sim-big-")), "sim.json");
    writeFileSync(config, JSON.stringify({ ...sim.config, baseUrl: url, authProxyUrl: url }), {
      mode: 0o600,
    });
  });
  afterAll(async () => {
    proxy.close();
    await sim.close();
  });

  it("is answered with INVALID_ARGUMENT 400 in Turnkey's shape, uploaded once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-big-body-"));
    const bodyFile = join(dir, "body.json");
    writeFileSync(
      bodyFile,
      JSON.stringify({ userTagName: "x".repeat(5 * 1024 * 1024), userIds: [] }),
    );
    connections = 0;
    const r = await runCli(
      ["--config", config, "call", "create_user_tag", "--body-file", bodyFile],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `tvcwatch: create_user_tag: INVALID_ARGUMENT (HTTP 400): request body is larger than the simulator's limit of 4 MiB (4194304 bytes)\n`,
    );
    expect(connections).toBe(1);

    // The same through fetch: the 400 body arrives, nothing is reset.
    const res = await fetch(`${sim.url}/public/v1/submit/create_user_tag`, {
      method: "POST",
      body: "x".repeat(6 * 1024 * 1024),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 3,
      message: "request body is larger than the simulator's limit of 4 MiB (4194304 bytes)",
      details: [],
    });
  });
});

/** Starts `tvcwatch sim --write-config F`; resolves with the first line of stdout and the child. */
function startSimProcess(args: string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn(process.execPath, [BIN, "sim", "--port", "0", ...args]);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const newline = out.indexOf("\n");
      if (newline >= 0) resolve({ child, firstLine: out.slice(0, newline) });
    });
    child.on("exit", (code) => reject(new Error(`sim exited ${code}: ${out}`)));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.on("exit", r));
  child.kill("SIGTERM");
  await exited;
}

describe("tvcwatch sim --write-config", () => {
  // Eight simulators started one after another: more than the usual 30 s on a busy machine.
  it("has written both config files, whole, when the listening line appears (every time)", {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-ready-"));
    for (let i = 0; i < 8; i++) {
      const path = join(dir, `sim-${i}.json`);
      const { child, firstLine } = await startSimProcess([
        "--seed",
        String(i),
        "--write-config",
        path,
      ]);
      try {
        // Read at once, in the same tick as the line: no waiting, no retry.
        const config = JSON.parse(readFileSync(path, "utf8")) as SimConfig;
        const second = JSON.parse(
          readFileSync(join(dir, `sim-${i}.sre-lead.json`), "utf8"),
        ) as SimConfig;
        expect(firstLine).toBe(`tvcwatch sim listening on ${config.baseUrl}`);
        expect(second.baseUrl).toBe(config.baseUrl);
        expect(second.apiPublicKey).not.toBe(config.apiPublicKey);
        expect(statSync(path).mode & 0o777).toBe(0o600);
        expect(statSync(join(dir, `sim-${i}.sre-lead.json`)).mode & 0o777).toBe(0o600);
      } finally {
        await stopProcess(child);
      }
    }
    // Written atomically: no temporary file is left beside them.
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a file it cannot write is one line, and the simulator does not stay up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-ready-bad-"));
    const r = await runCli(["sim", "--port", "0", "--write-config", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tvcwatch: cannot write --write-config ${dir}: it is a directory\n`);
    expect(r.stdout).toBe("");
  });
});

describe("the two-vote flow by hand, with the two configs --write-config writes", () => {
  it("the demo key's approval, then the second root user's, completes an activity awaiting both", {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-votes-"));
    const demo = join(dir, "sim.json");
    const lead = join(dir, "sim.sre-lead.json");
    const { child } = await startSimProcess(["--seed", "5", "--write-config", demo]);
    try {
      const call = async (config: string, op: string, body: unknown) => {
        const r = await runCli(["--config", config, "call", op, "--body", JSON.stringify(body)]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        return JSON.parse(r.stdout);
      };
      expect((await call(lead, "whoami", {})).username).toBe("sre-lead");
      const waiting = (
        await call(demo, "list_activities", {
          filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
          filterByType: ["ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE"],
          paginationOptions: { limit: "100" },
        })
      ).activities as {
        id: string;
        fingerprint: string;
        votes: unknown[];
        canApprove: boolean;
        intent: Record<string, { name: string }>;
      }[];
      const otp = waiting.find(
        (a) => a.intent.setOrganizationFeatureIntent?.name === "FEATURE_NAME_OTP_EMAIL_AUTH",
      );
      const origins = waiting.find(
        (a) =>
          a.intent.setOrganizationFeatureIntent?.name === "FEATURE_NAME_WEBAUTHN_ORIGINS" &&
          a.votes.length === 1,
      );
      expect(otp?.votes).toEqual([]);
      expect(otp?.canApprove).toBe(true);

      // Submitted by ci-deployer (not a root user): it takes both root users' approvals.
      const first = await call(demo, "approve_activity", { fingerprint: otp?.fingerprint });
      expect(first.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect(
        first.activity.votes.map((v: { user: { userName: string } }) => v.user.userName),
      ).toEqual(["oncall-root"]);
      expect(first.activity.canApprove).toBe(false);
      const second = await call(lead, "approve_activity", { fingerprint: otp?.fingerprint });
      expect(second.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(second.activity.result.setOrganizationFeatureResult.features).toContainEqual({
        name: "FEATURE_NAME_OTP_EMAIL_AUTH",
        value: "true",
      });

      // Submitted and approved by sre-lead: the demo key's approval completes it.
      const done = await call(demo, "approve_activity", { fingerprint: origins?.fingerprint });
      expect(done.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(
        done.activity.votes.map((v: { user: { userName: string } }) => v.user.userName),
      ).toEqual(["sre-lead", "oncall-root"]);
    } finally {
      await stopProcess(child);
    }
  });
});
