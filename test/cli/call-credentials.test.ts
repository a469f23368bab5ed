/**
 * Where the spawned program finds its credentials (tkcli key files, a config file, the
 * environment) and what it refuses before sending anything, against a scripted server.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeStamp, generateKeyPair } from "../../src/api/stamp.js";
import type { Recorded } from "../helpers/http-server.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const WHOAMI = { organizationId: "org-c", organizationName: "O", userId: "u", username: "n" };
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

async function server(handler: Parameters<typeof scriptedServer>[0]) {
  const s = await scriptedServer(handler);
  closers.push(s.close);
  return s;
}

const stampKeyOf = (req: Recorded | undefined) =>
  decodeStamp(String(req?.headers["x-stamp"])).publicKey;

describe("tvcwatch call credentials", () => {
  it("stamps with tkcli key files, and refuses a private key file others can read", async () => {
    const s = await server((_r, res) => json(res, 200, WHOAMI));
    const keys = join(mkdtempSync(join(tmpdir(), "tvcwatch-cred-")), "keys");
    const made = await runCli(["--keys-folder", keys, "keys", "generate", "--name", "ops"]);
    expect(made.code).toBe(0);
    const args = ["--base-url", s.url, "--organization", "org-c", "--keys-folder", keys];
    const ok = await runCli([...args, "--key-name", "ops", "call", "whoami"]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(stampKeyOf(s.requests[0])).toBe(made.stdout.trim());

    chmodSync(join(keys, "ops.private"), 0o644);
    const loose = await runCli([...args, "--key-name", "ops", "call", "whoami"]);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toMatch(
      /^tvcwatch: private key file .*ops\.private is readable by others/,
    );
    expect(loose.stderr).toMatch(/chmod 600/);

    const missing = await runCli([...args, "--key-name", "nope", "call", "whoami"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no key file .*nope\.private/);
    expect(s.requests).toHaveLength(1);
  });

  it("reads a config file from TVCWATCH_CONFIG and refuses one others can read", async () => {
    const s = await server((_r, res) => json(res, 200, WHOAMI));
    const config = join(mkdtempSync(join(tmpdir(), "tvcwatch-cred-")), "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        baseUrl: s.url,
        organizationId: "org-c",
        apiPublicKey: key.publicKey,
        apiPrivateKey: key.privateKey,
      }),
      { mode: 0o600 },
    );
    const ok = await runCli(["call", "whoami"], { env: { TVCWATCH_CONFIG: config } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(s.requests[0]?.body ?? "").organizationId).toBe("org-c");
    expect(stampKeyOf(s.requests[0])).toBe(key.publicKey);

    chmodSync(config, 0o640);
    const loose = await runCli(["--config", config, "call", "whoami"]);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toMatch(/config file holding apiPrivateKey .* is readable by others/);
    expect(loose.stderr).not.toContain(key.privateKey);
    expect(s.requests).toHaveLength(1);
  });

  it("names the file and field of a broken config file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-cred-"));
    const wrongType = join(dir, "wrong.json");
    writeFileSync(wrongType, JSON.stringify({ organizationId: "o", solanaAddresses: "So1" }));
    const r = await runCli(["--config", wrongType, "call", "whoami"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tvcwatch: config file .*wrong\.json: solanaAddresses: /);
    const notJson = join(dir, "broken.json");
    writeFileSync(notJson, '{"organizationId": ');
    const b = await runCli(["--config", notJson, "call", "whoami"]);
    expect(b.stderr).toMatch(/^tvcwatch: config file .*broken\.json is not valid JSON/);
    expect(b.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a mismatched key pair before sending anything, without printing the private key", async () => {
    const s = await server((_r, res) => json(res, 200, WHOAMI));
    const r = await runCli(["--base-url", s.url, "--organization", "org-c", "call", "whoami"], {
      env: {
        TURNKEY_API_PUBLIC_KEY: generateKeyPair().publicKey,
        TURNKEY_API_PRIVATE_KEY: key.privateKey,
      },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not belong to the API private key/);
    expect(r.stderr).not.toContain(key.privateKey);
    expect(s.requests).toHaveLength(0);
  });

  it("refuses plain http to a non-loopback host, for the API and the auth proxy", async () => {
    const env = {
      TURNKEY_ORGANIZATION_ID: "org-c",
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
    };
    const api = await runCli(["--base-url", "http://api.example.com", "call", "whoami"], { env });
    expect(api.code).toBe(2);
    expect(api.stderr).toMatch(/^tvcwatch: base URL http:\/\/api\.example\.com uses plain http/);
    const proxy = await runCli(["call", "wallet_kit_config"], {
      env: { TURNKEY_AUTH_PROXY_URL: "http://10.1.2.3:8080", TURNKEY_AUTH_PROXY_CONFIG_ID: "c" },
    });
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toMatch(/auth-proxy URL http:\/\/10\.1\.2\.3:8080 uses plain http/);
  });

  it("resends the identical stamped body after a 429, and names a response field of the wrong shape", async () => {
    const s = await server((_r, res, i) =>
      i === 0
        ? json(res, 429, { code: 8, message: "slow down" }, { "Retry-After": "0" })
        : json(res, 200, { ...WHOAMI, userId: 7 }),
    );
    const env = {
      TURNKEY_BASE_URL: s.url,
      TURNKEY_ORGANIZATION_ID: "org-c",
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
    };
    const r = await runCli(["call", "whoami"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tvcwatch: whoami: the server's response has an unexpected userId/);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]?.body).toBe(s.requests[0]?.body);
    expect(s.requests[1]?.headers["x-stamp"]).toBe(s.requests[0]?.headers["x-stamp"]);
  });
});
