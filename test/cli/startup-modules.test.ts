/**
 * Each command loads only what it uses (issue #11 point 4, issue #17 point 2): `--help`,
 * `tail --help` and `call --help` load no Ink, React or simulator, and no API client or schemas
 * for the root's help, nor viem or @solana/kit (what decodes transactions); `tail` polls without
 * zod (its guards stand in for the schemas while what it sends and receives is valid), its
 * settings in the environment or in a config file; `open` of a plain file draws its first screen
 * without zod (issue #41: the schemas are for a ticket bundle), and the worker that indexes a large
 * file's pieces loads no date-fns. Checked on the module graph the TypeScript
 * build leaves (dist/cli) and on
 * the bundle bin/tvcwatch runs (dist/bundle, whose chunks name their sources in comments).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { requireTmux, Tmux } from "../e2e/tmux.js";
import { freshBuild } from "../helpers/fresh-build.js";
import { BIN } from "../helpers/run-cli.js";

// The module graph is read from tsc's dist/, built here when its sources changed.
beforeAll(() => freshBuild("dist"), 300_000);

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
  // What decodes transactions: loaded only when an activity is decoded.
  /\/node_modules\/(viem|@solana|@solana-program)\//,
  /\/dist\/activity\/decode\/(ethereum|solana|raw-payload|eth-send)\.js/,
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
          /^\/\/ (node_modules\/(ink|react|zod|viem|@solana|@solana-program)\/|src\/sim\/|src\/tui\/)/m,
        );
      }
    },
  );
});

describe("tail's polls load no zod", () => {
  let polls = 0;
  const server = createServer((req, res) => {
    polls += 1;
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ entries: [{ line: { content: "hello" }, replicaLabel: "r1" }] }));
    });
  });
  let url = "";
  const key = generateKeyPair();
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  /** As loaded(), with the program spawned (the server answers from this process). */
  function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ urls: string[]; out: string }> {
    const file = join(mkdtempSync(join(tmpdir(), "tvcwatch-modules-")), "loaded.txt");
    const child = spawn(process.execPath, ["--import", hook, BIN, ...args], {
      env: { ...process.env, ...env, TVCWATCH_RECORD_MODULES: file },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0) return reject(new Error(`exit ${code}: ${out}`));
        const urls = readFileSync(file, "utf8").split("\n").filter(Boolean);
        resolve({ urls: [...new Set(urls)], out });
      });
    });
  }

  const zodChunks = (urls: string[]) =>
    urls
      .filter((u) => u.includes("/dist/bundle/"))
      .filter((u) =>
        /^\/\/ (node_modules\/(ink|react|zod|viem|@solana|@solana-program)\/|src\/sim\/|src\/tui\/)/m.test(
          readFileSync(fileURLToPath(u), "utf8"),
        ),
      );

  it("with its settings in the environment or in a config file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-config-"));
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        organizationId: "org",
        apiPublicKey: key.publicKey,
        apiPrivateKey: key.privateKey,
        deploymentId: "dep",
      }),
      { mode: 0o600 },
    );
    const viaEnv = await run(["--base-url", url, "tail", "--deployment", "dep", "--tail", "1"], {
      XDG_CONFIG_HOME: dir,
      TURNKEY_ORGANIZATION_ID: "org",
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
    });
    const viaFile = await run(["--config", config, "--base-url", url, "tail", "--tail", "1"], {
      XDG_CONFIG_HOME: dir,
      TURNKEY_API_PUBLIC_KEY: "",
      TURNKEY_API_PRIVATE_KEY: "",
    });
    for (const { urls, out } of [viaEnv, viaFile]) {
      expect(out).toContain("hello");
      expect(urls.some((u) => u.includes("/dist/bundle/"))).toBe(true);
      expect(zodChunks(urls)).toEqual([]);
    }
    expect(polls).toBe(2);
  });

  it("a window printed as text loads no terminal-width tables (only --fields measures cells)", async () => {
    const env = {
      TURNKEY_ORGANIZATION_ID: "org",
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
    };
    const widthChunks = (urls: string[]) =>
      urls
        .filter((u) => u.includes("/dist/bundle/"))
        .filter((u) =>
          /^\/\/ (node_modules\/string-width\/|src\/text\/terminal-width\.ts)/m.test(
            readFileSync(fileURLToPath(u), "utf8"),
          ),
        );
    const plain = await run(
      ["--base-url", url, "tail", "--deployment", "dep", "--since", "1m"],
      env,
    );
    expect(plain.out).toContain("hello");
    expect(widthChunks(plain.urls)).toEqual([]);
    const columns = await run(
      [
        "--base-url",
        url,
        "tail",
        "--deployment",
        "dep",
        "--since",
        "1m",
        "--fields",
        "replica,msg",
      ],
      env,
    );
    expect(columns.out).toContain("hello");
    expect(widthChunks(columns.urls).length).toBeGreaterThan(0);
  });

  it("but loads the schemas to name what is wrong in an answer", async () => {
    const bad = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ entries: [{ line: { content: 7 }, replicaLabel: "r1" }] }));
      });
    });
    await new Promise<void>((r) => bad.listen(0, "127.0.0.1", r));
    const badUrl = `http://127.0.0.1:${(bad.address() as { port: number }).port}`;
    const result = await run(["--base-url", badUrl, "tail", "--deployment", "dep", "--tail", "1"], {
      TURNKEY_ORGANIZATION_ID: "org",
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
    }).catch((err: Error) => ({ urls: [], out: err.message }));
    bad.close();
    expect(result.out).toMatch(/entries\.0\.line\.content: .*string/);
  });
});

describe("open of a plain file loads no zod", () => {
  const sessions: Tmux[] = [];
  beforeAll(() => requireTmux());
  afterAll(() => {
    for (const t of sessions) t.kill();
  });

  it("before its first screen, nor until it quits", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-open-modules-"));
    const path = join(dir, "app.log");
    const start = Date.parse("2026-11-25T20:33:05Z");
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `${new Date(start + i * 10).toISOString()} INFO request ${i} served`,
    );
    writeFileSync(path, `${lines.join("\n")}\n`);
    const file = join(dir, "loaded.txt");
    const chunksRead = () =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((u) => u.includes("/dist/bundle/"));
    const zod = (urls: string[]) =>
      [...new Set(urls)].filter((u) =>
        /^\/\/ node_modules\/zod\//m.test(readFileSync(fileURLToPath(u), "utf8")),
      );
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(
      ["open", path],
      { columns: 160, rows: 48 },
      {
        TVCWATCH_RECORD_MODULES: file,
        NODE_OPTIONS: `--import=${hook}`,
      },
    );
    await tmux.waitFor("the first screen", (s) =>
      expect(s.split("\n")[0]).toMatch(/· 2,000 lines · /),
    );
    const first = chunksRead();
    expect(first.some((u) => /\/run-open-[^/]*\.js$/.test(u))).toBe(true);
    expect(zod(first)).toEqual([]);
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    expect(zod(chunksRead())).toEqual([]);
  });
});

describe("open's index worker", () => {
  it("loads no date-fns (the bundle's chunks it imports, whatever they are)", () => {
    const bundle = join(root, "dist/bundle");
    const seen = new Set<string>();
    const todo = ["index-worker.js"];
    for (let chunk = todo.pop(); chunk !== undefined; chunk = todo.pop()) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      const text = readFileSync(join(bundle, chunk), "utf8");
      for (const m of text.matchAll(/(?:from|import) "\.\/([^"]+)"/g)) todo.push(m[1] as string);
      expect(text, chunk).not.toMatch(/^\/\/ node_modules\/date-fns\//m);
    }
    // The chunks it reads lines with are among them.
    expect(
      [...seen].some((c) =>
        /^\/\/ src\/logs\/saved\/saved-file\.ts/m.test(readFileSync(join(bundle, c), "utf8")),
      ),
    ).toBe(true);
  });
});
