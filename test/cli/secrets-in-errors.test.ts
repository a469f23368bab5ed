/**
 * Key material is never echoed in an error, whatever setting it was put in by mistake
 * (issue #10, item 4): through the spawned program, no 8-character piece of the private key's
 * hex appears on stdout or stderr.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-secrets-"));

function expectNoKeyMaterial(r: CliResult): void {
  const out = `${r.stdout}\n${r.stderr}`.toLowerCase();
  for (let i = 0; i + 8 <= key.privateKey.length; i++) {
    const piece = key.privateKey.slice(i, i + 8);
    if (out.includes(piece)) throw new Error(`output holds ${piece} of the private key:\n${out}`);
  }
}

function expectOneLineError(r: CliResult, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(pattern);
  expectNoKeyMaterial(r);
}

function configFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

const org = { TURNKEY_ORGANIZATION_ID: "org-1" };

describe("the private key is not echoed", () => {
  it("when TURNKEY_API_PUBLIC_KEY holds the private key", async () => {
    const r = await runCli(["call", "whoami"], {
      env: {
        ...org,
        TURNKEY_API_PUBLIC_KEY: key.privateKey,
        TURNKEY_API_PRIVATE_KEY: key.privateKey,
      },
    });
    expectOneLineError(r, /does not belong to the API private key.*like a private key/);
  });

  it("when the two variables are swapped", async () => {
    const r = await runCli(["call", "whoami"], {
      env: {
        ...org,
        TURNKEY_API_PUBLIC_KEY: key.privateKey,
        TURNKEY_API_PRIVATE_KEY: key.publicKey,
      },
    });
    expectOneLineError(r, /private key must be 32 bytes/);
  });

  it("when the config file holding it is not valid JSON: file, line and column only", async () => {
    const path = configFile(
      "broken.json",
      `{\n  "organizationId": "o",\n  "apiPrivateKey": "${key.privateKey}"\n  "apiPublicKey": "${key.publicKey}"\n}\n`,
    );
    const r = await runCli(["--config", path, "call", "whoami"]);
    expectOneLineError(r, /broken\.json is not valid JSON \(line 4, column 3\)$/);
    const unquoted = configFile("unquoted.json", `{"apiPrivateKey": ${key.privateKey}}`);
    expectOneLineError(
      await runCli(["--config", unquoted, "call", "whoami"]),
      /unquoted\.json is not valid JSON \(line 1, column \d+\)$/,
    );
  });

  it("whatever setting it was put in", async () => {
    const cases: { args: string[]; env?: Record<string, string>; error: RegExp }[] = [
      { args: ["--base-url", key.privateKey], error: /base URL .* is not a URL/ },
      {
        args: ["--base-url", `http://${key.privateKey}.example`],
        error: /plain http to a non-loopback host/,
      },
      { args: ["--auth-proxy-url", `ftp://${key.privateKey}`], error: /must use https/ },
      { args: ["--key-name", key.privateKey], error: /no key file/ },
      { args: ["--key-name", `${key.privateKey}:p256`], error: /key name/ },
      {
        args: ["--config", configFile("key-as-key.json", `{"${key.privateKey}": 1}`)],
        error: /unknown key/,
      },
      {
        args: ["--config", configFile("in-url.json", `{"baseUrl": "${key.privateKey}"}`)],
        error: /is not a URL/,
      },
      {
        args: [
          "--config",
          configFile("short.json", `{"apiPrivateKey": "${key.privateKey.slice(1)}"}`),
        ],
        error: /apiPrivateKey: expected 64 hex characters/,
      },
      {
        args: [],
        env: {
          TURNKEY_API_PUBLIC_KEY: key.publicKey,
          TURNKEY_API_PRIVATE_KEY: `${key.privateKey}0`,
        },
        error: /private key (must be 32 bytes|is not hex)/,
      },
    ];
    for (const c of cases) {
      const r = await runCli([...c.args, "call", "whoami"], {
        env: {
          ...org,
          TURNKEY_API_PUBLIC_KEY: key.publicKey,
          TURNKEY_API_PRIVATE_KEY: key.privateKey,
          ...c.env,
        },
      });
      expectOneLineError(r, c.error);
    }
  });

  it("in a key file of the wrong form, and a --body that is not JSON", async () => {
    const keys = join(dir, "keys");
    mkdirSync(keys, { recursive: true });
    writeFileSync(join(keys, "k.private"), `${key.privateKey}:p256:extra\n`, { mode: 0o600 });
    chmodSync(join(keys, "k.private"), 0o600);
    const r = await runCli(["--keys-folder", keys, "--key-name", "k", "call", "whoami"], {
      env: org,
    });
    expectOneLineError(r, /expected <hex> or <hex>:p256/);
    const body = await runCli(
      ["call", "create_user_tag", "--body", `{"userTagName": ${key.privateKey}}`],
      { env: org },
    );
    expectOneLineError(body, /--body is not valid JSON \(line 1, column \d+\)$/);
  });
});
