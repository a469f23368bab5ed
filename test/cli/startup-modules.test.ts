/**
 * Each command loads only what it uses (issue #11 point 4, issue #17 point 2): `--help`,
 * `tail --help` and `call --help` load no Ink, React or simulator, and no API client or schemas
 * for the root's help. Checked on the module graph the TypeScript build leaves (dist/cli) and on
 * the bundle bin/tvcwatch runs (dist/bundle, whose chunks name their sources in comments).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN } from "../helpers/run-cli.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const hook = fileURLToPath(new URL("../helpers/record-modules.mjs", import.meta.url));

/** The module URLs a run resolves, and what it printed. */
function loaded(entry: "bundle" | "modules", args: string[]): { urls: string[]; stdout: string } {
  const file = join(mkdtempSync(join(tmpdir(), "tvcwatch-modules-")), "loaded.txt");
  const runner =
    entry === "bundle"
      ? [BIN, ...args]
      : [
          "--input-type=module",
          "-e",
          `const { main } = await import(${JSON.stringify(join(root, "dist/cli/main.js"))}); await main(["node", "tvcwatch", ...process.argv.slice(1)]);`,
          "--",
          ...args,
        ];
  const r = spawnSync(process.execPath, ["--import", hook, ...runner], {
    env: { ...process.env, TVCWATCH_RECORD_MODULES: file, NODE_ENV: "production" },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const urls = readFileSync(file, "utf8").split("\n").filter(Boolean);
  return { urls: [...new Set(urls)], stdout: r.stdout };
}

const HEAVY = [
  /\/node_modules\/ink\//,
  /\/node_modules\/react\//,
  /\/dist\/sim\//,
  /\/dist\/tui\//,
];

describe("start-up loads only what the command uses", () => {
  it.each([
    [["--help"], /Usage: tvcwatch/],
    [["tail", "--help"], /Usage: tvcwatch tail/],
    [["call", "--help"], /Usage: tvcwatch call/],
  ])("%j: no Ink, React, simulator or dashboard module", (args, usage) => {
    const { urls, stdout } = loaded("modules", args);
    expect(stdout).toMatch(usage);
    expect(urls.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(true);
    for (const heavy of HEAVY) expect(urls.filter((u) => heavy.test(u))).toEqual([]);
    // Nor the client, its schemas or zod: help needs the flags only.
    expect(urls.filter((u) => /\/node_modules\/zod\/|\/dist\/api\/client\.js/.test(u))).toEqual([]);
  });

  it("the root's help lists every command though only the table is loaded", () => {
    const { urls, stdout } = loaded("modules", ["--help"]);
    for (const name of ["watch", "demo", "tail", "call", "activity", "sim", "keys", "doctor"])
      expect(stdout).toMatch(new RegExp(`\\n  ${name}\\b`));
    expect(urls.filter((u) => /\/dist\/cli\/commands\//.test(u))).toEqual([]);
  });

  it.each([[["tail", "--help"]], [["call", "--help"]]])(
    "the bundle for %j reads no chunk holding Ink, React, zod or the simulator",
    (args) => {
      const { urls } = loaded("bundle", args);
      const chunks = urls.filter((u) => u.includes("/dist/bundle/"));
      expect(chunks.length).toBeGreaterThan(0);
      for (const url of chunks) {
        const text = readFileSync(fileURLToPath(url), "utf8");
        expect(text, url).not.toMatch(
          /^\/\/ (node_modules\/(ink|react|zod)\/|src\/sim\/|src\/tui\/)/m,
        );
      }
    },
  );
});
