/**
 * Every flag or setting that names a file, tried with each kind of file that is not a regular
 * one: a FIFO (no writer: a blocking open would hang), /dev/zero behind a symlink (a read never
 * ends), a directory and a symlink loop. Each is refused in one line naming the file and what it
 * is, exit 2, at once (the process is killed after 10 s: a hang fails the test, not the run).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { runCli } from "../helpers/run-cli.js";

const root = mkdtempSync(join(tmpdir(), "tvcwatch-kinds-"));
const key = generateKeyPair();
const credentials = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-kinds",
  // Nothing is sent: every refusal comes before the first request.
  TURNKEY_BASE_URL: "http://127.0.0.1:9",
};

type Kind = "fifo" | "zero" | "dir" | "loop";
const KINDS: readonly Kind[] = ["fifo", "zero", "dir", "loop"];
const SAID: Record<Kind, string> = {
  fifo: "is a FIFO, not a regular file",
  zero: "is a character device, not a regular file",
  dir: "is a directory, not a regular file",
  loop: "is a symlink loop (too many levels of symbolic links)",
};

let made = 0;
/** A fresh path of `kind` named `name`, in `dir` or else in a directory of its own. */
function plant(kind: Kind, name: string, dir = join(root, `${kind}-${made++}`)) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  if (kind === "fifo") execFileSync("mkfifo", [path]);
  if (kind === "zero") symlinkSync("/dev/zero", path);
  if (kind === "dir") mkdirSync(path);
  if (kind === "loop") {
    symlinkSync(`${path}.other`, path);
    symlinkSync(path, `${path}.other`);
  }
  return { dir, path };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function expectRefused(
  args: string[],
  env: Record<string, string>,
  what: string,
  path: string,
  kind: Kind,
): Promise<void> {
  const started = performance.now();
  const r = await runCli(args, { env, timeoutMs: 10_000 });
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^tvcwatch: ${escaped(`${what} ${path} ${SAID[kind]}`)}`));
  expect(r.code).toBe(2);
}

describe.each(KINDS)("a %s where a file is named", (kind) => {
  it("--config, TVCWATCH_CONFIG and the default config file", async () => {
    const named = plant(kind, "config.json");
    await expectRefused(
      ["--config", named.path, "call", "whoami"],
      credentials,
      "config file",
      named.path,
      kind,
    );
    await expectRefused(
      ["call", "whoami"],
      { ...credentials, TVCWATCH_CONFIG: named.path },
      "config file",
      named.path,
      kind,
    );
    const home = join(root, `xdg-${made++}`);
    const { path } = plant(kind, "config.json", join(home, "tvcwatch"));
    await expectRefused(
      ["tail", "--deployment", "d", "--since", "1m"],
      { ...credentials, XDG_CONFIG_HOME: home },
      "config file",
      path,
      kind,
    );
  });

  it("the key files (--keys-folder, --key-name): the private one and the public one", async () => {
    const env = {
      TURNKEY_ORGANIZATION_ID: "org-kinds",
      TURNKEY_BASE_URL: credentials.TURNKEY_BASE_URL,
    };
    const priv = plant(kind, "ops.private");
    await expectRefused(
      ["--keys-folder", priv.dir, "--key-name", "ops", "call", "whoami"],
      env,
      "private key file",
      priv.path,
      kind,
    );
    const pub = plant(kind, "ops.public");
    writeFileSync(join(pub.dir, "ops.private"), `${key.privateKey}\n`, { mode: 0o600 });
    await expectRefused(
      ["--keys-folder", pub.dir, "--key-name", "ops", "call", "whoami"],
      env,
      "public key file",
      pub.path,
      kind,
    );
  });

  it("tail --checkpoint, following one deployment and several", async () => {
    const { path } = plant(kind, "dep.checkpoint");
    const one = ["tail", "-f", "--deployment", "d1", "--checkpoint", path];
    await expectRefused(one, credentials, "--checkpoint", path, kind);
    const several = [
      "tail",
      "-f",
      "--deployment",
      "d1",
      "--deployment",
      "d2",
      "--checkpoint",
      path,
    ];
    await expectRefused(several, credentials, "--checkpoint", path, kind);
  });

  it("call --body-file", async () => {
    const { path } = plant(kind, "body.json");
    await expectRefused(
      ["call", "whoami", "--body-file", path],
      credentials,
      "--body-file",
      path,
      kind,
    );
  });

  it("sim --state", async () => {
    const { path } = plant(kind, "org.json");
    await expectRefused(["sim", "--port", "0", "--state", path], {}, "--state", path, kind);
  });

  it("doctor --config: its ✗ line names the file and what it is, and doctor goes on", async () => {
    const { path } = plant(kind, "config.json");
    const r = await runCli(["--config", path, "doctor"], { env: credentials, timeoutMs: 10_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`^✗ config file +config file ${escaped(`${path} ${SAID[kind]}`)}`, "m"),
    );
  });
});
