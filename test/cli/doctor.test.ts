/**
 * `tvcwatch doctor` against the simulator: all ✓ on its own config, and each broken setup (key
 * file mode, mismatched pair, unreachable port, a server clock 2 minutes off, a key the
 * organization does not know, a host that does not resolve) gives its ✗ line and fix.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { describeNetworkFailure } from "../../src/api/network-errors.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import { describeNetworkProblem } from "../../src/cli/commands/doctor/network-problem.js";
import { runDoctor } from "../../src/cli/commands/doctor/run-doctor.js";
import { resolveConfig } from "../../src/config/resolve.js";
import { settingSources } from "../../src/config/setting-sources.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { BIN, runCli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-doctor-"));
let sim: RunningSimulator;
let configPath: string;

function writeConfig(name: string, config: object, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config), { mode });
  chmodSync(path, mode);
  return path;
}

/** The doctor line of a check, by its title (the mark, the padded title, two spaces, the rest). */
function line(stdout: string, title: string): string {
  const found = stdout.split("\n").find((l) => new RegExp(`^. ${title} {2,}\\S`).test(l));
  if (!found) throw new Error(`no "${title}" line in:\n${stdout}`);
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 17 });
  configPath = writeConfig("sim.json", sim.config);
});
afterAll(() => sim.close());

describe("tvcwatch doctor against the simulator", () => {
  it("passes every check on the simulator's own config, and exits 0", async () => {
    const r = await runCli(["--config", configPath, "doctor"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("✗");
    const c = sim.config;
    expect(line(r.stdout, "config file")).toMatch(
      new RegExp(`^✓ config file +${configPath} \\(from --config\\)$`),
    );
    expect(line(r.stdout, "base URL")).toContain(
      `${c.baseUrl} (from baseUrl in config file ${configPath})`,
    );
    expect(line(r.stdout, "API key")).toContain(`public key ${c.apiPublicKey}`);
    expect(line(r.stdout, "private key file")).toMatch(/^✓ .* is mode 0600/);
    expect(line(r.stdout, "key pair")).toMatch(/^✓ /);
    expect(line(r.stdout, "base URL allowed")).toMatch(/^✓ .*loopback/);
    expect(line(r.stdout, "API round trip")).toMatch(
      /^✓ .*whoami answered in \d+ms: user oncall-root \(.+\) in organization .+ \(.+\)$/,
    );
    expect(line(r.stdout, "server clock")).toMatch(/^✓ .*agrees with this machine's/);
    expect(line(r.stdout, "TVC deployments")).toMatch(
      new RegExp(`^✓ .*in debug mode, can be tailed: ${c.deploymentId} `),
    );
    expect(line(r.stdout, "tail deployment")).toMatch(/^✓ .*is in debug mode: it can be tailed/);
    expect(line(r.stdout, "auth proxy")).toMatch(/^✓ .*answered in \d+ms for config ID/);
    expect(r.stdout.trim().split("\n").at(-1)).toMatch(/^all \d+ checks passed$/);
    expect(r.stdout).not.toContain(c.apiPrivateKey);
  });

  it("says where each setting came from: flag, environment, config file, key files", async () => {
    const keys = join(dir, "keys-ok");
    mkdirSync(keys, { recursive: true });
    writeFileSync(join(keys, "sim.private"), `${sim.config.apiPrivateKey}:p256\n`, { mode: 0o600 });
    writeFileSync(join(keys, "sim.public"), `${sim.config.apiPublicKey}\n`);
    const { apiPrivateKey: _p, apiPublicKey: _q, organizationId, ...rest } = sim.config;
    const noKey = writeConfig("no-key.json", rest);
    const r = await runCli(
      [
        "--config",
        noKey,
        "--base-url",
        sim.config.baseUrl,
        "--key-name",
        "sim",
        "--keys-folder",
        keys,
        "doctor",
      ],
      { env: { TURNKEY_ORGANIZATION_ID: organizationId } },
    );
    expect(r.code, r.stdout).toBe(0);
    expect(line(r.stdout, "base URL")).toContain("(from --base-url)");
    expect(line(r.stdout, "organization")).toContain(
      `${organizationId} (from TURNKEY_ORGANIZATION_ID)`,
    );
    expect(line(r.stdout, "API key")).toContain(
      `(from key files ${join(keys, "sim.private")} and ${join(keys, "sim.public")}, chosen by --key-name)`,
    );
    expect(line(r.stdout, "auth-proxy config ID")).toContain(
      `(from authProxyConfigId in config file ${noKey})`,
    );
  });

  it("says which settings came from Turnkey's tvc CLI names, and which from TURNKEY_* before them", async () => {
    const c = sim.config;
    const tvc = {
      TVC_ORG_ID: c.organizationId,
      TVC_API_KEY_PUBLIC: c.apiPublicKey,
      TVC_API_KEY_PRIVATE: c.apiPrivateKey,
      TVC_API_BASE_URL: c.baseUrl,
    };
    const r = await runCli(["doctor"], { env: tvc });
    expect(line(r.stdout, "base URL")).toContain(`${c.baseUrl} (from TVC_API_BASE_URL)`);
    expect(line(r.stdout, "organization")).toContain(`${c.organizationId} (from TVC_ORG_ID)`);
    expect(line(r.stdout, "API key")).toContain(
      `public key ${c.apiPublicKey} (from TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE)`,
    );
    expect(line(r.stdout, "private key file")).toContain(
      "the private key comes from TVC_API_KEY_PRIVATE, not a file",
    );
    expect(line(r.stdout, "API round trip")).toMatch(/^✓ /);
    expect(r.stdout).not.toContain("TVC_* credentials");
    expect(r.stdout).not.toContain(c.apiPrivateKey);
    // TURNKEY_* first, setting by setting; a flag before both; the default when none says.
    const mixed = await runCli(["--base-url", c.baseUrl, "doctor"], {
      env: { ...tvc, TVC_API_BASE_URL: "", TURNKEY_ORGANIZATION_ID: c.organizationId },
    });
    expect(line(mixed.stdout, "base URL")).toContain("(from --base-url)");
    expect(line(mixed.stdout, "organization")).toContain("(from TURNKEY_ORGANIZATION_ID)");
    expect(line(mixed.stdout, "API key")).toContain(
      "(from TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE)",
    );
    expect(line(mixed.stdout, "auth proxy URL")).toContain("(the default)");
    expect(mixed.code, mixed.stdout).toBe(0);
  });

  it("a partial set of TVC_* credentials: ✗ naming the missing one, the others still checked", async () => {
    const c = sim.config;
    const r = await runCli(["doctor"], {
      env: {
        TVC_ORG_ID: c.organizationId,
        TVC_API_KEY_PUBLIC: c.apiPublicKey,
        TVC_API_BASE_URL: c.baseUrl,
      },
    });
    expect(r.code).toBe(1);
    expect(line(r.stdout, "TVC_\\* credentials")).toMatch(
      /^✗ TVC_\* credentials +TVC_API_KEY_PRIVATE is not set while TVC_ORG_ID and TVC_API_KEY_PUBLIC are — fix: set all three of TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE, or none \(as Turnkey's tvc CLI requires\)$/,
    );
    expect(line(r.stdout, "organization")).toContain("(from TVC_ORG_ID)");
    expect(line(r.stdout, "API key")).toMatch(/^✗ .*TVC_API_KEY_PRIVATE is missing/);
    // Every other command refuses to start, with the same words on one line.
    const call = await runCli(["call", "whoami"], {
      env: { TVC_ORG_ID: c.organizationId, TVC_API_KEY_PUBLIC: c.apiPublicKey },
    });
    expect(call.code).not.toBe(0);
    expect(call.stderr.trim()).toBe(
      "tvcwatch: TVC_API_KEY_PRIVATE is not set while TVC_ORG_ID and TVC_API_KEY_PUBLIC are: set all three of TVC_ORG_ID, TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE, or none (as Turnkey's tvc CLI requires)",
    );
  });

  it("-o json: every check with its status and data, for scripts; no private key", async () => {
    const r = await runCli(["--config", configPath, "doctor", "-o", "json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      checks: { id: string; status: string; data?: Record<string, unknown> }[];
    };
    expect(report.ok).toBe(true);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    for (const id of [
      "config-file",
      "setting.apiKey",
      "key-file-mode",
      "key-pair",
      "base-url",
      "api",
      "clock",
      "tvc",
      "auth-proxy",
    ])
      expect(byId.get(id)?.status, id).toBe("pass");
    expect(byId.get("api")?.data).toMatchObject({
      username: "oncall-root",
      latencyMs: expect.any(Number),
    });
    expect(Math.abs(byId.get("clock")?.data?.offsetMs as number)).toBeLessThan(2000);
    expect(byId.get("tvc")?.data?.deployments).toContainEqual(
      expect.objectContaining({ deploymentId: sim.config.deploymentId, debugMode: true }),
    );
    expect(r.stdout).not.toContain(sim.config.apiPrivateKey);
  });

  it("a private key file readable by others: ✗ with the chmod, and the other checks still run", async () => {
    const keys = join(dir, "keys-open");
    mkdirSync(keys, { recursive: true });
    const privatePath = join(keys, "sim.private");
    writeFileSync(privatePath, `${sim.config.apiPrivateKey}:p256\n`);
    chmodSync(privatePath, 0o644);
    writeFileSync(join(keys, "sim.public"), `${sim.config.apiPublicKey}\n`);
    const r = await runCli([
      "--config",
      configPath,
      "--keys-folder",
      keys,
      "--key-name",
      "sim",
      "doctor",
    ]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "private key file")).toMatch(
      new RegExp(
        `^✗ .*${privatePath} is readable by others \\(mode 0644\\).* — fix: chmod 600 ${privatePath}$`,
      ),
    );
    expect(line(r.stdout, "API round trip")).toMatch(/^✓ /);
    expect(r.stdout.trim().split("\n").at(-1)).toMatch(/^1 of \d+ checks failed$/);
  });

  it("a public key that is not the private key's: ✗ key pair, with where to fix it", async () => {
    const other = generateKeyPair();
    const path = writeConfig("mismatch.json", { ...sim.config, apiPublicKey: other.publicKey });
    const r = await runCli(["--config", path, "doctor"]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "key pair")).toMatch(
      new RegExp(
        `^✗ .*the API public key does not belong to the API private key .* — fix: put the public key that belongs to the private key in apiPublicKey in config file ${path}$`,
      ),
    );
    expect(line(r.stdout, "API round trip")).toMatch(/^✗ /);
    // Neither key is echoed: a private key pasted as the public one would be printed otherwise.
    expect(r.stdout).not.toContain(other.publicKey);
    expect(r.stdout).not.toContain(sim.config.apiPrivateKey);
  });

  it("an unreachable port: ✗ round trip naming the refused connection, not ECONNREFUSED", async () => {
    const port = await freePort();
    const path = writeConfig("closed.json", { ...sim.config, baseUrl: `http://127.0.0.1:${port}` });
    const r = await runCli(["--config", path, "doctor"]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "API round trip")).toMatch(
      new RegExp(
        `^✗ .*connection refused by 127\\.0\\.0\\.1:${port}.* — fix: check the port in the base URL`,
      ),
    );
    expect(line(r.stdout, "server clock")).toMatch(/^- /);
    expect(r.stdout).not.toMatch(/ECONNREFUSED/);
  });

  it("a key the organization does not know: ✗ round trip saying so, and how to register it", async () => {
    const stranger = generateKeyPair();
    const path = writeConfig("stranger.json", {
      ...sim.config,
      apiPublicKey: stranger.publicKey,
      apiPrivateKey: stranger.privateKey,
    });
    const r = await runCli(["--config", path, "doctor"]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "key pair")).toMatch(/^✓ /);
    expect(line(r.stdout, "API round trip")).toMatch(
      new RegExp(
        `^✗ .*the organization ${sim.config.organizationId} does not know this API key \\(public key ${stranger.publicKey}\\) — fix: register the public key with a user of organization`,
      ),
    );
    expect(r.stdout).not.toContain(stranger.privateKey);
  });

  it("a deployment that cannot be tailed: ✗ naming the ones that can", async () => {
    const r = await runCli([
      "--config",
      configPath,
      "doctor",
      "--deployment",
      "no-such-deployment",
    ]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "tail deployment")).toMatch(
      new RegExp(
        `^✗ .*no-such-deployment is not a deployment .* pick one that can be tailed: ${sim.config.deploymentId}`,
      ),
    );
  });
});

describe("tvcwatch doctor against `tvcwatch sim --clock-skew 2m`", () => {
  let child: ChildProcess;
  let skewConfig: string;
  beforeAll(async () => {
    skewConfig = join(dir, "skew.json");
    child = spawn(process.execPath, [
      BIN,
      "sim",
      "--port",
      "0",
      "--clock-skew",
      "2m",
      "--write-config",
      skewConfig,
    ]);
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d) => {
        out += d;
        if (out.includes(`wrote ${skewConfig}`)) resolve();
      });
      child.on("exit", (code) => reject(new Error(`sim exited ${code}`)));
    });
  });
  afterAll(() => {
    child.kill("SIGTERM");
  });

  it("✗ server clock: 2 minutes ahead, with the fix", async () => {
    const r = await runCli(["--config", skewConfig, "doctor"]);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "server clock")).toMatch(
      /^✗ .*the server's clock is 2m(\ds)? ahead of this machine's \(±1s\) — fix: if this machine's clock is wrong, sync it/,
    );
    const json = JSON.parse(
      (await runCli(["--config", skewConfig, "doctor", "-o", "json"])).stdout,
    );
    const clock = json.checks.find((c: { id: string }) => c.id === "clock");
    expect(clock.status).toBe("fail");
    expect(Math.abs(clock.data.offsetMs - 120_000)).toBeLessThan(2_000);
  });
});

describe("doctor's checks without a terminal", () => {
  it("a host that does not resolve is named plainly, in the DNS and the round-trip lines", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND api.example.invalid"), {
      code: "ENOTFOUND",
    });
    const config = writeConfig("unresolvable.json", {
      ...sim.config,
      baseUrl: "https://api.example.invalid",
      authProxyConfigId: undefined,
    });
    const results = await runDoctor({
      flags: { config },
      env: {},
      timeoutMs: 2000,
      lookup: () => Promise.reject(notFound),
      // What undici's fetch throws: a TypeError whose cause carries the system error.
      fetch: () =>
        Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: notFound })),
    });
    const dns = results.find((r) => r.id === "base-url-dns");
    const api = results.find((r) => r.id === "api");
    expect(dns).toMatchObject({
      status: "fail",
      message: "api.example.invalid could not be resolved",
    });
    expect(api).toMatchObject({ status: "fail" });
    expect(api?.message).toMatch(
      /^api\.example\.invalid could not be resolved( \(gave up after \d attempts\))?$/,
    );
    expect(api?.fix).toMatch(/check the host name in the base URL \(from baseUrl in config file/);
  });

  it("names network failures in the client's words (one wording), with doctor's fix", async () => {
    const url = new URL("https://api.turnkey.com");
    // What undici's fetch throws: a TypeError whose cause carries the system error.
    const wrapped = (code: string, message: string) =>
      Object.assign(new TypeError("fetch failed"), {
        cause: Object.assign(new Error(message), { code }),
      });
    expect(
      describeNetworkProblem(wrapped("EAI_AGAIN", "getaddrinfo EAI_AGAIN"), url, "base URL"),
    ).toEqual({
      message: "api.turnkey.com could not be resolved (name server not answering)",
      fix: "check the host name in the base URL and this machine's DNS and network",
    });
    expect(
      describeNetworkProblem(wrapped("ECONNRESET", "other side closed"), url, "base URL").message,
    ).toBe("api.turnkey.com:443 closed the connection before answering");
    expect(
      describeNetworkProblem(
        wrapped("CERT_HAS_EXPIRED", "certificate has expired"),
        url,
        "base URL",
      ),
    ).toMatchObject({
      message: "TLS certificate of api.turnkey.com not trusted (certificate has expired)",
      fix: expect.stringContaining("NODE_EXTRA_CA_CERTS"),
    });
    // The client's own error (after its retries) keeps its words, less the operation's name.
    const timedOut = new NetworkError(
      "whoami: api.turnkey.com:443 did not answer within 10s (gave up after 2 attempts)",
      2,
    );
    expect(describeNetworkProblem(timedOut, url, "base URL")).toEqual({
      message: "api.turnkey.com:443 did not answer within 10s (gave up after 2 attempts)",
      fix: "check this machine's network, proxy or firewall (or allow more with --timeout)",
    });
    // The same function words the failure for the client, so doctor cannot drift from it.
    const refused = wrapped("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:8787");
    const local = new URL("http://127.0.0.1:8787");
    expect(describeNetworkProblem(refused, local, "base URL").message).toBe(
      describeNetworkFailure(refused, { url: local.toString(), bodyBytes: 0 }).message,
    );
  });

  it("sanitizes every server-provided string, in text and in JSON", async () => {
    const hostile = "evil\u001b]0;owned\u0007\u001b[2J\u009b31m\u202ename";
    const server = await scriptedServer((req, res) => {
      if (req.url.endsWith("/whoami"))
        return json(res, 200, {
          organizationId: `org-${hostile}`,
          organizationName: hostile,
          userId: "u1",
          username: hostile,
        });
      if (req.url.endsWith("/list_tvc_apps"))
        return json(res, 200, { tvcApps: [{ id: "app1", organizationId: "o", name: hostile }] });
      return json(res, 200, {
        tvcDeployments: [
          { id: `dep-${hostile}`, organizationId: "o", appId: "app1", debugMode: true },
        ],
      });
    });
    try {
      const key = generateKeyPair();
      const path = writeConfig("hostile.json", {
        baseUrl: server.url,
        organizationId: "org",
        apiPublicKey: key.publicKey,
        apiPrivateKey: key.privateKey,
      });
      const text = await runCli(["--config", path, "doctor"]);
      expect(line(text.stdout, "API round trip")).toContain(
        "user evil\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202ename",
      );
      expect(text.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      const asJson = await runCli(["--config", path, "doctor", "-o", "json"]);
      expect(asJson.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      const api = JSON.parse(asJson.stdout).checks.find((c: { id: string }) => c.id === "api");
      expect(api.data.username).toBe(hostile);
    } finally {
      await server.close();
    }
  });

  it("reads settings in the order resolveConfig does", async () => {
    const keys = join(dir, "keys-order");
    mkdirSync(keys, { recursive: true });
    const pair = generateKeyPair();
    writeFileSync(join(keys, "ops.private"), `${pair.privateKey}\n`, { mode: 0o600 });
    writeFileSync(join(keys, "ops.public"), `${pair.publicKey}\n`);
    const filePair = generateKeyPair();
    const envPair = generateKeyPair();
    const file = {
      baseUrl: "https://file.example",
      organizationId: "org-file",
      authProxyConfigId: "cfg-file",
      deploymentId: "dep-file",
      apiPublicKey: filePair.publicKey,
      apiPrivateKey: filePair.privateKey,
    };
    const path = writeConfig("order.json", file);
    const withKeyName = writeConfig("order-keyname.json", {
      organizationId: "org-file",
      keyName: "ops",
    });
    const env = {
      TURNKEY_BASE_URL: "https://env.example",
      TURNKEY_API_PUBLIC_KEY: envPair.publicKey,
      TURNKEY_API_PRIVATE_KEY: envPair.privateKey,
      XDG_CONFIG_HOME: join(dir, "xdg-empty"),
    };
    const cases: [Record<string, string | undefined>, NodeJS.ProcessEnv][] = [
      [{ config: path }, { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME }],
      [{ config: path }, env],
      [{ config: path, baseUrl: "https://flag.example", organization: "org-flag" }, env],
      [{ config: path, keysFolder: keys, keyName: "ops", deployment: "dep-flag" }, env],
      [{ config: withKeyName, keysFolder: keys }, { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME }],
    ];
    for (const [flags, environment] of cases) {
      const resolved = await resolveConfig(flags, environment);
      const fileData = JSON.parse(readFileSync(flags.config as string, "utf8"));
      const sources = settingSources(flags, environment, fileData, flags.config);
      expect(sources.baseUrl.value).toBe(resolved.baseUrl.replace(/\/$/, ""));
      expect(sources.organizationId?.value).toBe(resolved.organizationId);
      expect(sources.authProxyConfigId?.value).toBe(resolved.authProxyConfigId);
      expect(sources.deploymentId?.value).toBe(resolved.deploymentId);
      const key = sources.apiKey;
      const publicKey =
        key.kind === "key-files"
          ? readFileSync(key.publicPath, "utf8").trim()
          : key.kind === "none"
            ? undefined
            : key.publicKey;
      expect(publicKey, JSON.stringify(flags)).toBe(resolved.apiKey.publicKey);
    }
  });
});
