/**
 * No stamped request leaves by a redirect: a server that answers 307 to another host gets a
 * one-line error naming that host, and the other host sees nothing (issue #10, item 1).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-redirect",
};

/** The host a redirect points at, on another loopback address: it counts what reaches it. */
let other: Server;
let otherHost: string;
let reachedOther = 0;
let redirecting: Awaited<ReturnType<typeof scriptedServer>>;

beforeAll(async () => {
  other = createServer((req, res) => {
    reachedOther += 1;
    req.resume();
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end('{"organizationId":"o","organizationName":"n","userId":"u","username":"x"}');
  });
  await new Promise<void>((r) => other.listen(0, "127.0.0.2", r));
  otherHost = `127.0.0.2:${(other.address() as AddressInfo).port}`;
  redirecting = await scriptedServer((req, res) => {
    res.writeHead(307, { Location: `http://${otherHost}${req.url}` });
    res.end();
  });
});
afterAll(async () => {
  await redirecting.close();
  other.closeAllConnections();
  await new Promise((r) => other.close(r));
});

function expectOneLineNamingHost(stderr: string): void {
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).toContain(otherHost);
  expect(stderr).toMatch(/never follows redirects/);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe("a redirect is never followed", () => {
  it("call whoami exits 1 with one line naming the Location's host; nothing reaches it", async () => {
    const before = redirecting.requests.length;
    const r = await runCli(["--base-url", redirecting.url, "call", "whoami"], { env: credentials });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expectOneLineNamingHost(r.stderr);
    expect(r.stderr).toMatch(/check the base URL/);
    expect(reachedOther).toBe(0);
    // Not retried either: the answer would be the same.
    expect(redirecting.requests.length - before).toBe(1);
  });

  it("the auth proxy's redirect is refused the same way, naming the auth-proxy URL", async () => {
    const r = await runCli([
      "--auth-proxy-url",
      redirecting.url,
      "--auth-proxy-config-id",
      "cfg",
      "call",
      "wallet_kit_config",
    ]);
    expect(r.code).toBe(1);
    expectOneLineNamingHost(r.stderr);
    expect(r.stderr).toMatch(/check the auth-proxy URL/);
    expect(reachedOther).toBe(0);
  });

  it("tail stops on it (exit 1) instead of retrying, with or without -f", async () => {
    for (const follow of [[], ["-f"]]) {
      const before = redirecting.requests.length;
      const r = await runCli(
        ["--base-url", redirecting.url, "tail", "--deployment", "dep", "--since", "1m", ...follow],
        { env: credentials, timeoutMs: 15_000 },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(otherHost);
      expect(r.stderr).not.toMatch(/retrying/);
      expect(redirecting.requests.length - before).toBe(1);
    }
    expect(reachedOther).toBe(0);
  });
});
