/**
 * Bounds on fan-out in `tail --all` / `--app`: at most --max-deployments followed (the first by
 * app, newest first), the rest said in one line naming the flag; the deployment listing (one
 * list_tvc_app_deployments per app) within --max-concurrent. Against a loopback server with
 * three apps of 40 debug-mode deployments each.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

const APPS = ["gamma", "alpha", "beta"];
const PER_APP = 40;
const idOf = (app: string, i: number) => `${app}-deployment-${String(i).padStart(3, "0")}`;

let server: Server;
let url = "";
let listsInFlight = 0;
let mostListsInFlight = 0;
let listed: string[] = [];
let polled = new Set<string>();
/** Lists each app's first deployment twice (a server repeating an id). */
let repeatFirst = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const op = (req.url ?? "").split("/").pop();
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      const send = (value: unknown) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (op === "list_tvc_apps")
        return send({
          tvcApps: APPS.map((name) => ({ id: `app-${name}`, organizationId: "org", name })),
        });
      if (op === "list_tvc_app_deployments") {
        const app = String(body.appId).slice("app-".length);
        listed.push(app);
        listsInFlight += 1;
        mostListsInFlight = Math.max(mostListsInFlight, listsInFlight);
        // Slow enough that the three lists would overlap without the limit.
        setTimeout(() => {
          listsInFlight -= 1;
          const tvcDeployments = Array.from({ length: PER_APP }, (_, i) => ({
            id: idOf(app, i),
            organizationId: "org",
            appId: body.appId,
            debugMode: true,
            // Deployment i was created i seconds after the first: the newest has the largest i.
            createdAt: { seconds: String(1_700_000_000 + i), nanos: "0" },
          }));
          send({
            tvcDeployments: repeatFirst ? [...tvcDeployments, tvcDeployments[0]] : tvcDeployments,
          });
        }, 150);
        return;
      }
      if (op === "get_tvc_deployment_debug_logs") {
        polled.add(body.deploymentId as string);
        const seconds = String(Math.floor(Date.now() / 1000) - 5);
        return send({
          entries: [
            {
              replicaLabel: "replica 1/1",
              line: { content: `hello from ${body.deploymentId}`, ts: { seconds, nanos: "0" } },
            },
          ],
        });
      }
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ code: 5, message: "not found" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const key = generateKeyPair();
async function tail(...args: string[]) {
  listed = [];
  polled = new Set();
  mostListsInFlight = 0;
  return runCli(["--base-url", url, "tail", "--since", "1m", ...args], {
    env: {
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
      TURNKEY_ORGANIZATION_ID: "org",
    },
  });
}

describe("tail --all over 120 deployments", () => {
  it("follows the first 50 (by app, newest first) and says how many --max-deployments left out", async () => {
    const r = await tail("--all", "--max-concurrent", "2");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "tvcwatch: following 50 of 120 debug-mode deployments (by app, live first, newest first): 70 left out by --max-deployments 50; raise it to follow more\n",
    );
    const alpha = Array.from({ length: PER_APP }, (_, i) => idOf("alpha", PER_APP - 1 - i));
    const beta = Array.from({ length: 10 }, (_, i) => idOf("beta", PER_APP - 1 - i));
    expect([...polled].sort()).toEqual([...alpha, ...beta].sort());
    expect(r.stdout.trim().split("\n")).toHaveLength(50);
    // One list per app, never more than --max-concurrent at once.
    expect(listed.sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(mostListsInFlight).toBe(2);
  });

  it("--max-deployments N follows N; --app lists only that app's deployments", async () => {
    const r = await tail("--all", "--max-deployments", "3", "--max-concurrent", "1");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/: 117 left out by --max-deployments 3; raise it to follow more\n$/);
    expect([...polled].sort()).toEqual([idOf("alpha", 37), idOf("alpha", 38), idOf("alpha", 39)]);
    expect(mostListsInFlight).toBe(1);
    const app = await tail("--app", "app-beta", "--max-deployments", "100");
    expect(app.code).toBe(0);
    expect(app.stderr).toBe("");
    expect(listed).toEqual(["beta"]);
    expect(polled.size).toBe(PER_APP);
  });

  it("follows a deployment the server lists twice once: SIGTERM ends the follow", async () => {
    repeatFirst = true;
    try {
      const child = spawn(
        process.execPath,
        [BIN, "--base-url", url, "tail", "-f", "--app", "app-gamma"],
        {
          env: {
            ...process.env,
            TURNKEY_API_PUBLIC_KEY: key.publicKey,
            TURNKEY_API_PRIVATE_KEY: key.privateKey,
            TURNKEY_ORGANIZATION_ID: "org",
          },
        },
      );
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      await waitFor(() => stdout.includes("\n"), "a first line on stdout", {
        timeoutMs: 15_000,
        everyMs: 100,
        detail: () => stdout,
      });
      child.kill("SIGTERM");
      const code = await Promise.race([
        exited,
        new Promise<"hung">((r) => setTimeout(() => r("hung"), 10_000)),
      ]);
      if (code === "hung") child.kill("SIGKILL");
      expect(code).toBe(0);
      // Each line once: gamma-deployment-000 has one follower (a second one was never stopped).
      expect(new Set(stdout.trim().split("\n")).size).toBe(stdout.trim().split("\n").length);
    } finally {
      repeatFirst = false;
    }
  });

  it("refuses a --max-deployments out of its range", async () => {
    const r = await tail("--all", "--max-deployments", "0");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-deployments/);
  });
});
