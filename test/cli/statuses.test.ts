/**
 * Wrong statuses and messages (issue #10, item 11): the documented exit status in every command,
 * and one line saying what to fix for bad files, empty flags and hostile error messages.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-status",
};
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-status-"));

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

function expectOneLine(r: CliResult, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/EISDIR|ENOTDIR|EEXIST|\n\s+at /);
}

const TAIL = ["tail", "--deployment", "dep", "--since", "1m"];
const CALL = ["call", "get_tvc_deployment_debug_logs", "--body", '{"deploymentId":"dep"}'];

describe("exit status 1 for API errors and wrong-shape responses, in every command", () => {
  it("an API error (after retries)", async () => {
    const s = await scriptedServer((_r, res) =>
      json(res, 500, { code: 13, message: "internal" }, { "Retry-After": "0" }),
    );
    closers.push(s.close);
    for (const args of [TAIL, CALL]) {
      const r = await runCli(["--base-url", s.url, ...args], { env: credentials });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/INTERNAL \(HTTP 500\): internal/);
    }
  });

  it("a response of the wrong shape", async () => {
    const s = await scriptedServer((_r, res) => json(res, 200, { entries: "none" }));
    closers.push(s.close);
    for (const args of [TAIL, CALL]) {
      const r = await runCli(["--base-url", s.url, ...args], { env: credentials });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/the server's response has an unexpected entries/);
    }
  });
});

describe("files of the wrong kind, in one line with the right fix", () => {
  it("--config naming a directory", async () => {
    const r = await runCli(["--config", dir, "call", "whoami"]);
    expectOneLine(
      r,
      2,
      /config file .* is a directory, not a regular file; --config and TVCWATCH_CONFIG take the file itself/,
    );
  });

  it("a key file that is a directory: no chmod hint", async () => {
    const keys = join(dir, "keys-dir");
    mkdirSync(join(keys, "ops.private"), { recursive: true });
    const r = await runCli(["--keys-folder", keys, "--key-name", "ops", "call", "whoami"], {
      env: { TURNKEY_ORGANIZATION_ID: "o" },
    });
    expectOneLine(r, 2, /private key file .*ops\.private is a directory, not a regular file/);
    expect(r.stderr).not.toMatch(/chmod/);
  });

  it("--keys-folder naming a file, when reading keys and when generating them", async () => {
    const file = join(dir, "not-a-folder");
    writeFileSync(file, "x");
    const read = await runCli(["--keys-folder", file, "--key-name", "ops", "call", "whoami"], {
      env: { TURNKEY_ORGANIZATION_ID: "o" },
    });
    expectOneLine(read, 2, /keys folder .*not-a-folder is a file, not a folder/);
    const generate = await runCli(["--keys-folder", file, "keys", "generate", "--name", "ops"]);
    expectOneLine(generate, 2, /--keys-folder .*not-a-folder is a file, not a folder/);
    const below = await runCli([
      "--keys-folder",
      join(file, "keys"),
      "keys",
      "generate",
      "--name",
      "ops",
    ]);
    expectOneLine(below, 2, /cannot create --keys-folder .*: a part of its path is a file/);
  });

  it("--body-file naming a directory", async () => {
    const r = await runCli(["call", "whoami", "--body-file", dir], { env: credentials });
    expectOneLine(r, 2, /--body-file .* is a directory, not a regular file/);
  });
});

describe("empty flags are errors, not the default", () => {
  it.each([
    ["--base-url", "call", "whoami"],
    ["--organization", "call", "whoami"],
    ["--config", "call", "whoami"],
    ["--key-name", "call", "whoami"],
    ["--keys-folder", "call", "whoami"],
    ["--auth-proxy-url", "call", "wallet_kit_config"],
    ["--auth-proxy-config-id", "call", "wallet_kit_config"],
  ])("%s ''", async (flag, ...command) => {
    const r = await runCli([flag, "", ...command], { env: credentials });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${flag}.*must not be empty`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("tail --deployment '' and --replica ''", async () => {
    for (const args of [
      ["tail", "--deployment", ""],
      ["tail", "--deployment", "d", "--replica", ""],
    ]) {
      const r = await runCli(args, { env: credentials });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/must not be empty/);
    }
  });
});

describe("an API error line passes no control, bidi or zero-width character", () => {
  it("escapes them visibly", async () => {
    const hostile =
      "denied\u200e\u200f \u202eevil\u202c \u2066iso\u2069 zero\u200bwidth \u001b]0;title\u0007 \u009b2J \u061c";
    const s = await scriptedServer((_r, res) =>
      json(res, 403, {
        code: 7,
        message: hostile,
        details: [
          {
            "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail",
            turnkeyErrorCode: "CODE\u200e\u001b[31m",
          },
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field: "f\u202e", description: "d\u200b\u009b" }],
          },
        ],
      }),
    );
    closers.push(s.close);
    for (const args of [CALL, TAIL]) {
      const r = await runCli(["--base-url", s.url, ...args], { env: credentials });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/PERMISSION_DENIED \(HTTP 403\): denied\\u200e\\u200f/);
      expect(r.stderr).not.toMatch(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/,
      );
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
