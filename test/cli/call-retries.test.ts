/**
 * `tvcwatch call` while the server asks it to wait: it says what it waits for, and a wait beyond
 * the cap is a one-line error at once rather than a silent minute (issue #10, item 11).
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-retry",
};
const WHOAMI = { organizationId: "org-retry", organizationName: "o", userId: "u", username: "n" };

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

describe("call under rate limiting", () => {
  it("says on stderr that it is rate limited and when it retries, then prints the answer", async () => {
    const s = await scriptedServer((_r, res, i) =>
      i === 0
        ? json(res, 429, { code: 8, message: "slow down" }, { "Retry-After": "2" })
        : json(res, 200, WHOAMI),
    );
    closers.push(s.close);
    const r = await runCli(["--base-url", s.url, "call", "whoami"], { env: credentials });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "tvcwatch: rate limited by the server; retrying in 2s (attempt 2 of 5)\n",
    );
    expect(JSON.parse(r.stdout)).toEqual(WHOAMI);
    expect(s.requests).toHaveLength(2);
  });

  it("refuses a Retry-After beyond its cap at once, in one line, exit 1", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 429, { code: 8, message: "slow down" }, { "Retry-After": "300" }),
    );
    closers.push(s.close);
    const started = performance.now();
    const r = await runCli(["--base-url", s.url, "call", "whoami"], { env: credentials });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "tvcwatch: whoami: RESOURCE_EXHAUSTED (HTTP 429): slow down; the server asks to wait 5m before a retry, longer than tvcwatch waits (1m): try again later\n",
    );
    expect(s.requests).toHaveLength(1);
  });
});
