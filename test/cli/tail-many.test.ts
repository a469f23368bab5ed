import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

let sim: RunningSimulator;
let config: string;
let appId: string;

beforeAll(async () => {
  const clock = movableClock();
  sim = await startSimulator({ port: 0, seed: 11, logRate: 20, clock });
  // 16 s of lines at once: the merge of a follow at --interval 10s holds lines for the interval
  // and a second, so the simulator must have older ones to show.
  clock.offset = 16_000;
  config = join(mkdtempSync(join(tmpdir(), "tvcwatch-many-")), "config.json");
  writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
  const apps = await runCli(["--config", config, "call", "list_tvc_apps"]);
  appId = (JSON.parse(apps.stdout) as { tvcApps: { id: string; name: string }[] }).tvcApps.find(
    (a) => a.name === "payments-signer",
  )?.id as string;
});
afterAll(() => sim.close());

/** This process's environment with an API key and an organization, for a local server. */
const keyEnv = (key: { publicKey: string; privateKey: string }) => ({
  ...process.env,
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org",
});

describe("tail over several deployments", () => {
  it("--app merges the app's debug-mode deployments by timestamp, each line once, with deploymentId", async () => {
    const r = await runCli([
      "--config",
      config,
      "tail",
      "--app",
      appId,
      "--since",
      "1m",
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            deploymentId: string;
            replicaLabel: string;
            ts: { seconds: string; nanos: string };
            content: string;
          },
      );
    const deployments = new Set(lines.map((l) => l.deploymentId));
    expect(deployments).toEqual(new Set([sim.config.deploymentId, expect.any(String)]));
    // What each deployment is, as its records say: the app's live one and the canary beside it.
    const described = new Set(
      lines.map((l) => {
        const d = l as unknown as { deploymentVersion: string; deploymentRole: string };
        return `${l.deploymentId === sim.config.deploymentId ? "main" : "other"} ${d.deploymentVersion} ${d.deploymentRole}`;
      }),
    );
    expect(described).toEqual(new Set(["main 0.7.2 live", "other 0.8.0 canary"]));
    expect(deployments.size).toBe(2);
    // The simulator prints some identical lines at one timestamp on purpose (heartbeats): those
    // are several lines; every other line is unique.
    const ids = lines
      .filter((l) => l.content !== "heartbeat ok")
      .map((l) => JSON.stringify([l.deploymentId, l.replicaLabel, l.ts, l.content]));
    expect(new Set(ids).size).toBe(ids.length);
    // In timestamp order across deployments (lines without a timestamp sit by their neighbours).
    const times = lines
      .filter((l) => l.ts !== null)
      .map((l) => Number(l.ts.seconds) * 1e3 + Number(l.ts.nanos) / 1e6);
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as number))).toBe(true);
  });

  it("repeated --deployment labels each line with the shortest unique id prefix, its version and role", async () => {
    const json = await runCli([
      "--config",
      config,
      "tail",
      "--app",
      appId,
      "--since",
      "5s",
      "-o",
      "json",
    ]);
    const other = (
      json.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).deploymentId) as string[]
    ).find((d) => d !== sim.config.deploymentId) as string;
    const r = await runCli([
      "--config",
      config,
      "tail",
      "--deployment",
      sim.config.deploymentId,
      "--deployment",
      other,
      "--since",
      "10s",
    ]);
    expect(r.code).toBe(0);
    const labels = new Set(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => /^\[(.+) replica \d\/\d\] /.exec(l)?.[1]),
    );
    expect(labels).toEqual(
      new Set([
        `${sim.config.deploymentId.slice(0, 6)} 0.7.2 live`,
        `${other.slice(0, 6)} 0.8.0 canary`,
      ]),
    );
  });

  it("refuses another follow's checkpoint, --app beside --deployment, and an app with none to follow", async () => {
    const other = join(mkdtempSync(join(tmpdir(), "tvcwatch-many-")), "other.checkpoint");
    writeFileSync(
      other,
      JSON.stringify({ format: 1, deploymentId: "dep-x", newest: 0, lines: [] }),
    );
    const cp = await runCli(["--config", config, "tail", "--app", appId, "--checkpoint", other]);
    expect(cp.code).toBe(2);
    expect(cp.stderr.trim()).toMatch(
      /^tvcwatch: checkpoint \S+ was written for deployment dep-x, not \S+, \S+: name another file for these$/,
    );
    const both = await runCli(["--config", config, "tail", "--app", appId, "--deployment", "d"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--app.*cannot be used with.*--deployment/);
    const none = await runCli(["--config", config, "tail", "--app", "no-such-app"]);
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      "tvcwatch: app no-such-app has no debug-mode deployment: only those in debug mode have logs to read",
    );
  });

  it("keeps at most --max-concurrent requests in flight, and spreads the polls", async () => {
    let inFlight = 0;
    let most = 0;
    const starts: number[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        starts.push(Date.now());
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(200, {
            "content-type": "application/json",
            date: new Date().toUTCString(),
          });
          res.end('{"entries":[]}');
        }, 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = generateKeyPair();
    const deployments = Array.from({ length: 10 }, (_, i) => ["--deployment", `dep-${i}`]).flat();
    const child = spawn(
      process.execPath,
      [
        BIN,
        "--base-url",
        url,
        "tail",
        ...deployments,
        "-f",
        "--interval",
        "1s",
        "--max-concurrent",
        "2",
      ],
      { env: keyEnv(key) },
    );
    child.stdout.resume();
    child.stderr.resume();
    await waitFor(() => starts.length > 15, "more than 15 polls", {
      detail: () => `${starts.length} polls`,
    });
    const exited = new Promise((r) => child.on("close", r));
    child.kill("SIGINT");
    await exited;
    server.closeAllConnections();
    server.close();
    expect(starts.length).toBeGreaterThan(15);
    expect(most).toBeLessThanOrEqual(2);
    // Spread: the first ten requests did not all start within a few milliseconds.
    const first = starts.slice(0, 10);
    expect((first.at(-1) as number) - (first[0] as number)).toBeGreaterThan(300);
  }, 30_000);

  it("prints the first lines as soon as every deployment answered, and Ctrl-C stops at once", async () => {
    // The simulator has 16 s of lines (beforeAll): older than the merge holds at --interval 10s.
    const child = spawn(
      process.execPath,
      [BIN, "--config", config, "tail", "--app", appId, "-f", "--interval", "10s"],
      { env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-xdg-")) } },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.resume();
    // The two deployments' first polls go out together: lines at once, not after 5 s (half the
    // interval, the second deployment's place in the spread of the later polls).
    const started = Date.now();
    while (out === "" && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    const firstAfterMs = Date.now() - started;
    expect(out).not.toBe("");
    expect(firstAfterMs).toBeLessThan(3500);
    const labels = () => new Set([...out.matchAll(/^\[(\w+) [^\]]*replica/gm)].map((m) => m[1]));
    await waitFor(() => labels().size === 2, "lines of both deployments", {
      timeoutMs: 2000,
      detail: () => [...labels()].join(", "),
    });
    // Now both followers wait for their second poll (one of them half an interval more).
    const exited = new Promise<number | null>((r) => child.on("close", r));
    const sentAt = Date.now();
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(3000);
  }, 40_000);

  it("prints in timestamp order when one deployment's first answer comes seconds after another's", async () => {
    const startedAt = Date.now();
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        const { deploymentId } = JSON.parse(body) as { deploymentId: string };
        // Each deployment has a line every 500 ms of the 20 s before the start; dep-b's first
        // answer takes 3 s, longer than the merge holds lines (the interval and a second).
        const entries: unknown[] = [];
        for (let t = startedAt - 20_000; t < startedAt - 2_000; t += 500) {
          const ms = t + (deploymentId === "dep-b" ? 250 : 0);
          entries.push({
            line: {
              content: `${deploymentId} ${ms}`,
              ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
            },
            replicaLabel: "replica 1/1",
          });
        }
        const first = !(deploymentId in answered);
        answered[deploymentId] = true;
        setTimeout(
          () => {
            res.writeHead(200, {
              "content-type": "application/json",
              date: new Date().toUTCString(),
            });
            res.end(JSON.stringify({ entries }));
          },
          deploymentId === "dep-b" && first ? 3000 : 0,
        );
      });
    });
    const answered: Record<string, boolean> = {};
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = generateKeyPair();
    const child = spawn(
      process.execPath,
      [
        BIN,
        "--base-url",
        url,
        "tail",
        "--deployment",
        "dep-a",
        "--deployment",
        "dep-b",
        "-f",
        "--interval",
        "1s",
        "-o",
        "json",
      ],
      { env: keyEnv(key) },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.resume();
    // Both deployments' 36 lines each, once dep-b's slow first answer is in.
    await waitFor(() => out.split("\n").length > 72, "72 lines", {
      detail: () => `${out.split("\n").length - 1} lines`,
    });
    const exited = new Promise((r) => child.on("close", r));
    child.kill("SIGINT");
    await exited;
    server.closeAllConnections();
    server.close();
    const stamps = out
      .trim()
      .split("\n")
      .map((l) => Number((JSON.parse(l) as { content: string }).content.split(" ")[1]));
    expect(stamps.length).toBe(72);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  }, 30_000);
});
