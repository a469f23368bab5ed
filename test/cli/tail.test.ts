import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { levelOf } from "../../src/text/log-level.js";
import { startLogServer } from "../helpers/log-server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-tail-"));
let sim: RunningSimulator;
let config: string;

beforeAll(async () => {
  const clock = movableClock();
  sim = await startSimulator({ port: 0, seed: 8, logRate: 20, clock });
  // Two seconds of lines at once, rather than waiting for them.
  clock.offset = 2000;
  config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
});
afterAll(() => sim.close());

describe("tvcwatch tail", () => {
  it("prints what the window holds, with replica labels, and exits 0", async () => {
    const r = await runCli(["--config", config, "tail", "--tail", "5", "--timestamps", "--utc"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(15);
    for (const line of lines)
      expect(line).toMatch(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z|-\s+) \[replica [123]\/3\] /);
    expect(r.stderr).toMatch(/gap: earlier lines not shown/);
  });

  it("prints JSON lines with content exactly as received", async () => {
    const r = await runCli(["--config", config, "tail", "--since", "1m", "-o", "json"]);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(20);
    for (const e of events) {
      // What the deployment is, as its records say (the simulator's: 0.7.2, its app's live one),
      // last, as over several deployments.
      // A line continuing an event (a stack frame) adds continues, last.
      expect(Object.keys(e).filter((k) => k !== "continues")).toEqual([
        "replicaLabel",
        "ts",
        "content",
        "time",
        "level",
        "deploymentVersion",
        "deploymentRole",
        "replica",
        "replicas",
      ]);
      expect([e.deploymentVersion, e.deploymentRole]).toEqual(["0.7.2", "live"]);
      // time is ts as RFC 3339 (UTC, nanoseconds); level as --level reads the content.
      if (e.ts === null) expect(e.time).toBeNull();
      else expect(Date.parse(`${e.time.slice(0, 19)}Z`) / 1000).toBe(Number(e.ts.seconds));
      expect([null, "trace", "debug", "info", "warn", "error", "fatal"]).toContain(e.level);
    }
  });

  it("-o json leaves the description out when the records fail or answer about another deployment, and waits for a slow one (10 s at most)", async () => {
    // A proxy in front of the simulator for each answer: get_tvc_deployment as `answer` says.
    // The four runs are independent, so they run at once (the one that waits 10 s sets the pace).
    type Answer = "fail" | "other" | "slow" | "never";
    const proxyFor = (answer: Answer) =>
      createServer((req, res) => {
        const body: Buffer[] = [];
        req.on("data", (d: Buffer) => body.push(d));
        req.on("end", () => {
          const described = req.url?.endsWith("/get_tvc_deployment") === true;
          const apps = req.url?.endsWith("/list_tvc_apps") === true;
          if (answer === "never" && described) return;
          if (answer === "fail" && (described || apps)) {
            res.writeHead(500, { "content-type": "application/json" });
            res.end('{"code":13,"message":"internal"}');
            return;
          }
          const upstream = request(
            `${sim.url}${req.url}`,
            { method: req.method, headers: req.headers },
            (up) => {
              const got: Buffer[] = [];
              up.on("data", (d: Buffer) => got.push(d));
              up.on("end", () => {
                let text = Buffer.concat(got).toString();
                if (described && answer === "other")
                  text = text.replaceAll(sim.config.deploymentId, "dep-other");
                const send = () => {
                  const headers = { ...up.headers };
                  delete headers["content-length"];
                  res.writeHead(up.statusCode ?? 502, headers);
                  res.end(text);
                };
                if (described && answer === "slow") setTimeout(send, 1500);
                else send();
              });
            },
          );
          upstream.end(Buffer.concat(body));
        });
      });
    const answers: Answer[] = ["fail", "other", "slow", "never"];
    const proxies = answers.map(proxyFor);
    await Promise.all(proxies.map((p) => new Promise<void>((r) => p.listen(0, "127.0.0.1", r))));
    const keysOf = async (answer: Answer) => {
      const proxy = proxies[answers.indexOf(answer)] as ReturnType<typeof proxyFor>;
      const proxied = join(dir, `proxied-${answer}.json`);
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      writeFileSync(proxied, JSON.stringify({ ...sim.config, baseUrl: url }), { mode: 0o600 });
      const started = Date.now();
      const r = await runCli(["--config", proxied, "tail", "--since", "10s", "-o", "json"]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      const lines = r.stdout.trim().split("\n");
      expect(lines.length).toBeGreaterThan(5);
      // A stack frame's line adds "continues" at the end: the same fields otherwise.
      const keys = new Set(
        lines.map((l) =>
          Object.keys(JSON.parse(l))
            .filter((k) => k !== "continues")
            .join(","),
        ),
      );
      return { keys: [...keys], ms: Date.now() - started };
    };
    try {
      const plain = "replicaLabel,ts,content,time,level";
      const position = "replica,replicas";
      const [failed, other, slow, never] = await Promise.all(answers.map(keysOf));
      expect(failed?.keys).toEqual([`${plain},${position}`]);
      expect(other?.keys).toEqual([`${plain},${position}`]);
      expect(slow?.keys).toEqual([`${plain},deploymentVersion,deploymentRole,${position}`]);
      expect(slow?.ms).toBeGreaterThan(1500);
      // No answer at all: the lines wait 10 s for it, then go without, and the program ends.
      expect(never?.keys).toEqual([`${plain},${position}`]);
      expect(never?.ms).toBeGreaterThan(9_500);
      expect(never?.ms).toBeLessThan(14_000);
    } finally {
      for (const p of proxies) {
        p.closeAllConnections();
        p.close();
      }
    }
  }, 40_000);

  it("filters by replica, --grep and --exclude", async () => {
    const r = await runCli([
      "--config",
      config,
      "tail",
      "--since",
      "1m",
      "--replica",
      "2",
      "--grep",
      "^(INFO|WARN)",
      "--exclude",
      "WARN",
    ]);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^\[replica 2\/3\] INFO /);
    const bad = await runCli(["--config", config, "tail", "--grep", "("]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--grep.*invalid regex: missing closing \)/);
    const refused = await runCli(["--config", config, "tail", "--exclude", "(a)\\1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--exclude.*regex refused: a backreference \(\\1\) is JavaScript-only/,
    );
    expect(refused.stderr.trim().split("\n")).toHaveLength(2);
  });

  /** The contents `tail --since 1m -o json` prints with these extra flags. */
  async function jsonContents(...flags: string[]): Promise<string[]> {
    const r = await runCli(["--config", config, "tail", "--since", "1m", "-o", "json", ...flags]);
    expect(r.code).toBe(0);
    return r.stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { content: string }).content);
  }

  it("--level warn keeps lines of WARN and above, plain and JSON, with their continuation lines", async () => {
    const contents = await jsonContents("--level", "warn");
    expect(contents.length).toBeGreaterThan(0);
    const levels = contents.map((c) => levelOf(c));
    // A line with a level of its own is WARN or above; one without goes with the line before it.
    for (const level of levels) if (level) expect(["warn", "error", "fatal"]).toContain(level);
    expect(levels.filter((l) => l !== undefined).length).toBeGreaterThan(0);
    const bad = await runCli(["--config", config, "tail", "--level", "loud"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--level.*Allowed choices are trace, debug, info, warn, error, fatal/,
    );
  });

  it("--grep in lower case ignores case (smart case); with an upper-case letter it is exact", async () => {
    const blind = await jsonContents("--grep", "info");
    expect(blind.some((c) => /"level":"info"/.test(c))).toBe(true);
    expect(blind.some((c) => /^INFO/.test(c))).toBe(true);
    const exact = await jsonContents("--grep", "INFO");
    expect(exact.length).toBeGreaterThan(0);
    for (const c of exact) expect(c).toContain("INFO");
  });

  it("escapes every escape sequence a log line carries", async () => {
    const clock = movableClock();
    const hostile = await startSimulator({ port: 0, seed: 8, logRate: 200, clock });
    clock.offset = 1500;
    const cfg = join(dir, "hostile.json");
    writeFileSync(cfg, JSON.stringify(hostile.config), { mode: 0o600 });
    try {
      const r = await runCli(["--config", cfg, "tail", "--since", "1m"], {
        env: { FORCE_COLOR: "0" },
      });
      expect(r.stdout).toMatch(/\\x1b\[/);
      expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    } finally {
      await hostile.close();
    }
  });

  it("stops with advice for a deployment that is not in debug mode", async () => {
    const prod = sim.service.scenario.apps[0]?.deployments.find((d) => !d.debugMode)?.id as string;
    const r = await runCli(["--config", config, "tail", "--deployment", prod]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not running in debug mode.*debug-mode deployment/);
  });
});

describe("tvcwatch tail -f against a faulty, skewed, lagging simulator", () => {
  it("loses and duplicates nothing", async () => {
    const truthFile = join(dir, "truth.ndjson");
    const faulty = await startSimulator({
      port: 0,
      seed: 21,
      logRate: 25,
      faultRate: 0.2,
      clockSkewMs: 45_000,
      ingestLagMs: 3000,
      truthFile,
    });
    const cfg = join(dir, "faulty.json");
    writeFileSync(cfg, JSON.stringify(faulty.config), { mode: 0o600 });
    try {
      const child = spawn(
        process.execPath,
        [BIN, "--config", cfg, "tail", "-f", "-o", "json", "--interval", "1s"],
        {
          env: { ...process.env, TURNKEY_BASE_URL: "" },
        },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      const received = () =>
        out
          .slice(0, out.lastIndexOf("\n") + 1)
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((e) => !e.event);
      const truthLines = () =>
        readFileSync(truthFile, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      // Compared up to 10 s before the newest line received (ingest lag and the last poll).
      const newestSeconds = (got: ReturnType<typeof received>) =>
        Math.max(...got.filter((e) => e.ts).map((e) => Number(e.ts.seconds)));
      const comparable = () => {
        const newest = newestSeconds(received());
        return truthLines().findIndex((e) => e.ts && Number(e.ts.seconds) > newest - 10);
      };
      // Followed until it has met faults and has over 500 lines to compare, not a fixed while.
      await waitFor(() => /retrying/.test(err) && comparable() > 500, "faults and 500 lines", {
        timeoutMs: 45_000,
        everyMs: 500,
        detail: () => `${comparable()} lines comparable; stderr ${JSON.stringify(err.slice(-200))}`,
      });
      const exited = new Promise<number | null>((r) => child.on("close", r));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(err).toMatch(/retrying/);

      const got = received();
      const truth = truthLines();
      const key = (e: {
        replicaLabel: string;
        ts: { seconds: string; nanos: string } | null;
        content: string;
      }) => JSON.stringify([e.replicaLabel, e.ts, e.content]);
      const count = (list: Parameters<typeof key>[0][]) => {
        const m = new Map<string, number>();
        for (const e of list) m.set(key(e), (m.get(key(e)) ?? 0) + 1);
        return m;
      };
      const newest = newestSeconds(got);
      const cut = truth.findIndex((e) => e.ts && Number(e.ts.seconds) > newest - 10);
      const want = count(truth.slice(0, cut));
      const all = count(truth);
      const have = count(got);
      const lost: string[] = [];
      const duplicated: string[] = [];
      for (const [k, n] of want) if (n > (have.get(k) ?? 0)) lost.push(k);
      for (const [k, n] of have) if (n > (all.get(k) ?? 0)) duplicated.push(k);
      expect(cut).toBeGreaterThan(500);
      // The lines themselves, when any: which kind of line (timestamped or not) went wrong.
      expect({ lost, duplicated }).toEqual({ lost: [], duplicated: [] });
    } finally {
      await faulty.close();
    }
  }, 90_000);
});

describe("tvcwatch tail -f through a 15 s outage", () => {
  it("polls again within 5 s of the server answering, says when each try is, and loses nothing", async () => {
    const server = await startLogServer({ replicas: 2, rate: 10 });
    const key = generateKeyPair();
    const child = spawn(
      process.execPath,
      [BIN, "--base-url", server.url, "tail", "--deployment", "dep", "-f", "-o", "json"],
      {
        env: {
          ...process.env,
          TURNKEY_API_PUBLIC_KEY: key.publicKey,
          TURNKEY_API_PRIVATE_KEY: key.privateKey,
          TURNKEY_ORGANIZATION_ID: "org-outage",
        },
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Whole lines only: the last may still be coming.
    const printed = () =>
      new Set(
        out
          .slice(0, out.lastIndexOf("\n") + 1)
          .split("\n")
          .filter((l) => l.startsWith("{")),
      );
    let until = 0;
    try {
      await waitFor(() => printed().size > 0, "the follow to be live");
      await server.setDown(true);
      // The outage itself: what the test puts the follow through.
      await wait(15_000);
      await server.setDown(false);
      const backAt = Date.now();
      const firstPoll = () => server.served().requestTimes.find((t) => t >= backAt);
      await waitFor(() => firstPoll() !== undefined, "a poll after the outage", {
        timeoutMs: 10_000,
      });
      expect((firstPoll() as number) - backAt).toBeLessThanOrEqual(5000);
      // Caught up: every line from before the outage's end is printed.
      until = server.now() - 1000;
      const missing = () => {
        const have = new Set(
          [...printed()].map((l) => {
            const e = JSON.parse(l) as { replicaLabel: string; content: string };
            return JSON.stringify([e.replicaLabel, e.content]);
          }),
        );
        return server
          .truth(until)
          .filter((line) => !have.has(JSON.stringify([line.replicaLabel, line.content]))).length;
      };
      await waitFor(() => missing() === 0, "every line up to the outage's end", {
        timeoutMs: 10_000,
        detail: () => `${missing()} missing`,
      });
    } finally {
      const exited = new Promise<number | null>((r) => child.on("close", r));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      await server.close();
    }
    const status = err.trim().split("\n");
    expect(
      status.filter((l) => /retrying in \d+s, attempt \d+: .*connection refused/.test(l)).length,
    ).toBeGreaterThan(2);
    expect(status.some((l) => /live again after \d+s/.test(l))).toBe(true);
    expect(err).not.toMatch(/gave up/);
    // The waits are capped: no try is announced more than 5 s ahead.
    for (const l of status) {
      const m = /retrying in (\d+)s/.exec(l);
      if (m) expect(Number(m[1])).toBeLessThanOrEqual(5);
    }
    const got = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => !e.event);
    const ids = got.map((e) => JSON.stringify([e.replicaLabel, e.content]));
    expect(new Set(ids).size).toBe(ids.length);
    const truth = server.truth(until).map((l) => JSON.stringify([l.replicaLabel, l.content]));
    expect(truth.length).toBeGreaterThan(0);
    const have = new Set(ids);
    expect(truth.filter((id) => !have.has(id))).toEqual([]);
  }, 60_000);
});
