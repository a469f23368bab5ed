/**
 * The package as a user gets it: the project is packed (its prepack builds it afresh), the
 * tarball installed with `npm install -g --prefix TMP`, and the installed command run. The pack
 * happens in a copy of the project, so rebuilding never disturbs the dist/ other tests run.
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of someone at a shell: none of the npm_* variables `npm test` passes to its
 * children (they would steer the inner npm), no Turnkey settings, an empty XDG_CONFIG_HOME.
 */
function userEnv(xdg: string): Record<string, string> {
  const env: Record<string, string> = { XDG_CONFIG_HOME: xdg };
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || /^(TURNKEY|TVC)_/.test(k)) continue;
    if (k === "TVCWATCH_CONFIG" || k === "XDG_CONFIG_HOME" || k === "INIT_CWD") continue;
    env[k] = v;
  }
  return env;
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; timeoutMs: number },
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

const work = mkdtempSync(join(tmpdir(), "tvcwatch-package-"));
const copy = join(work, "project");
const prefix = join(work, "prefix");
const env = userEnv(mkdtempSync(join(work, "xdg-")));
/** The installed command, as the shell finds it: PREFIX/bin/tvcwatch. */
const installed = join(prefix, "bin", "tvcwatch");
let packedFiles: string[] = [];
let sim: ChildProcess | undefined;

beforeAll(async () => {
  // The project as a fresh clone has it, plus a stale dist/ that prepack must not ship.
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => !["node_modules", "dist", ".git", "coverage"].includes(basename(src)),
  });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  mkdirSync(join(copy, "dist", "test"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(copy, "dist", "test", "stale.json"));

  const pack = await run("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: copy,
    env,
    timeoutMs: 240_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!info) throw new Error(`npm pack printed no package: ${pack.stdout}`);
  packedFiles = info.files.map((f) => f.path);

  const install = await run(
    "npm",
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      join(work, info.filename),
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel",
      "error",
    ],
    // The install sets up every dependency from npm's cache: minutes on a loaded 2-core machine.
    { cwd: work, env, timeoutMs: 420_000 },
  );
  expect(install.code, install.stderr).toBe(0);
}, 700_000);

afterAll(() => {
  sim?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}, 120_000);

describe("the npm package", () => {
  it("carries the program, README and LICENSE, and no source, tests, benchmarks or source maps", () => {
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "bin/tvcwatch",
      "dist/bundle/main.js",
    ])
      expect(packedFiles).toContain(needed);
    const unwanted = packedFiles.filter(
      (f) => !/^(bin|dist)\/|^(package\.json|README\.md|LICENSE)$/.test(f),
    );
    expect(unwanted).toEqual([]);
    expect(packedFiles.filter((f) => /\.map$|^dist\/(test|bench|src)\//.test(f))).toEqual([]);
    // The bundle alone: the module-per-file build (for benchmarks) stays out of the package.
    expect(packedFiles.filter((f) => /^dist\//.test(f) && !/^dist\/bundle\//.test(f))).toEqual([]);
  });

  it("installs a tvcwatch command that prints its version, help and completions", async () => {
    const version = await run(installed, ["--version"], { env, timeoutMs: 30_000 });
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const help = await run(installed, ["--help"], { env, timeoutMs: 30_000 });
    expect(help.code).toBe(0);
    for (const command of ["watch", "demo", "tail", "call", "sim", "keys", "doctor", "completion"])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    const completion = await run(installed, ["completion", "bash"], { env, timeoutMs: 30_000 });
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain("complete -F _tvcwatch tvcwatch");
  });

  it("runs the installed simulator, and tails it and checks the setup with the installed command", async () => {
    const config = join(work, "sim.json");
    const started = spawn(
      installed,
      ["sim", "--port", "0", "--seed", "3", "--log-rate", "20", "--write-config", config],
      { env },
    );
    sim = started;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      started.stdout.on("data", (d) => {
        out += d;
        if (out.includes(`wrote ${config}`)) resolve();
      });
      started.on("error", reject);
      started.on("exit", (code) => reject(new Error(`sim exited ${code} before it was ready`)));
    });
    // Let the simulator generate a second or so of lines.
    await new Promise((r) => setTimeout(r, 1500));
    const tail = await run(installed, ["--config", config, "tail", "--since", "1m"], {
      env,
      timeoutMs: 60_000,
    });
    expect(tail.code, tail.stderr).toBe(0);
    const lines = tail.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line).toMatch(/^\[replica [1-3]\/3\] /);

    // A pattern compiles with the installed copy's regex engine (re2js, read from its
    // dependencies when the first pattern is compiled, not bundled).
    const filtered = await run(
      installed,
      ["--config", config, "tail", "--since", "1m", "--exclude", "(?i)no such line [0-9]+"],
      { env, timeoutMs: 60_000 },
    );
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(filtered.stdout.trim().split("\n").length).toBeGreaterThan(5);

    const doctor = await run(installed, ["--config", config, "doctor"], { env, timeoutMs: 60_000 });
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/^✓ API round trip .*whoami answered/m);
  });
});
