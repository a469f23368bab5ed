/**
 * Network failures named plainly and the same way in every command (issues #10 item 11, #17):
 * no ECONNREFUSED or "fetch failed"; an untrusted certificate and a large body the server cut
 * off are one line at once, not retried five times; ports Node's fetch refuses work.
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-net",
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

const commands = [
  { name: "call", args: ["call", "whoami"], op: "whoami" },
  {
    name: "tail",
    args: ["tail", "--deployment", "dep", "--since", "1m"],
    op: "get_tvc_deployment_debug_logs",
  },
];

function lastLine(stderr: string): string {
  return stderr.trim().split("\n").at(-1) ?? "";
}

describe("network failures, in plain words", () => {
  it("uses ports that Node's fetch refuses (6000, 6665-6669), like any other", async () => {
    // The client's transport is node:http, not fetch: an API behind port 6000 is reachable.
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            organizationId: "org-net",
            organizationName: "net",
            userId: "u-1",
            username: "ops",
          }),
        );
      });
    });
    const port = await new Promise<number>((resolve, reject) => {
      const ports = [6000, 6665, 6666, 6667, 6668, 6669];
      const tryNext = () => {
        const p = ports.shift();
        if (p === undefined) return reject(new Error("no port of 6000, 6665-6669 is free"));
        server.once("error", tryNext);
        server.listen(p, "127.0.0.1", () => {
          server.off("error", tryNext);
          resolve(p);
        });
      };
      tryNext();
    });
    closers.push(() => new Promise((r) => server.close(() => r())));
    const r = await runCli(["--base-url", `http://127.0.0.1:${port}`, "call", "whoami"], {
      env: credentials,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ organizationId: "org-net", username: "ops" });
  });

  it("connection refused names the host and port the same way in call and tail", async () => {
    const s = await scriptedServer(() => {});
    await s.close();
    const where = new URL(s.url).host;
    // Both commands at once: each waits out its retries' back-off, which takes no CPU.
    const results = await Promise.all(
      commands.map((c) =>
        runCli(["--base-url", s.url, ...c.args], { env: credentials, timeoutMs: 60_000 }),
      ),
    );
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(lastLine(r.stderr)).toContain(`connection refused by ${where}`);
      expect(r.stderr).not.toMatch(/ECONNREFUSED|fetch failed/);
    }
  }, 90_000);

  it("an untrusted TLS certificate is named as such, at once, exit 2", async () => {
    const server = createHttpsServer(
      {
        cert: readFileSync(new URL("../fixtures/self-signed-cert.pem", import.meta.url)),
        key: readFileSync(new URL("../fixtures/self-signed-key.pem", import.meta.url)),
      },
      (_req, res) => res.end("{}"),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const c of commands) {
      const r = await runCli(["--base-url", url, ...c.args], { env: credentials });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(
        /TLS certificate of 127\.0\.0\.1 not trusted \(self-signed certificate\)/,
      );
    }
  });

  it("a large body the server cuts off is not uploaded again", async () => {
    // Cut the connection as soon as a large request's headers arrive, as a proxy with a body limit does.
    const big = await (async () => {
      const { createServer } = await import("node:http");
      let requests = 0;
      const server = createServer((req) => {
        requests += 1;
        req.socket.destroy();
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests: () => requests,
        close: () => new Promise<void>((r) => server.close(() => r())),
      };
    })();
    closers.push(big.close);
    const body = JSON.stringify({ userTagName: "x".repeat(5 * 1024 * 1024), userIds: [] });
    const r = await runCli(["--base-url", big.url, "call", "create_user_tag", "--body", "-"], {
      env: credentials,
      input: body,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /closed the connection while the 5\.0 MiB request body was being sent .*not resent/,
    );
    expect(big.requests()).toBe(1);
  });

  it("a 413 or 400 for a body over the server's limit is not retried", async () => {
    for (const status of [413, 400]) {
      const s = await scriptedServer((_r, res) =>
        json(res, status, { code: 3, message: "request body too large" }),
      );
      closers.push(s.close);
      const r = await runCli(["--base-url", s.url, "call", "create_user_tag", "--body", "-"], {
        env: credentials,
        input: JSON.stringify({ userTagName: "x".repeat(5 * 1024 * 1024), userIds: [] }),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/INVALID_ARGUMENT \(HTTP (413|400)\): request body too large/);
      expect(s.requests).toHaveLength(1);
    }
  });
});
