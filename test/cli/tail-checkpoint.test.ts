import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { type LogServer, startLogServer } from "../helpers/log-server.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { mulberry } from "../helpers/seeded-random.js";
import { waitFor } from "../helpers/wait-for.js";

const key = generateKeyPair();
const ENV = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-checkpoint",
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startTail(
  url: string,
  checkpoint: string,
  deployments = ["dep"],
): { child: ChildProcessWithoutNullStreams; out: () => string } {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "--base-url",
      url,
      "tail",
      ...deployments.flatMap((d) => ["--deployment", d]),
      "-f",
      "-o",
      "json",
      "--since",
      "1h",
      "--interval",
      "250ms",
      "--checkpoint",
      checkpoint,
    ],
    { env: { ...process.env, ...ENV } },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.resume();
  return { child, out: () => out };
}

/** The whole lines of one run's output (a line cut by the kill was never printed whole). */
function linesOf(out: string): string[] {
  const whole = out.endsWith("\n") ? out : out.slice(0, out.lastIndexOf("\n") + 1);
  return whole
    .split("\n")
    .filter((l) => l !== "")
    .map(
      (l) =>
        JSON.parse(l) as {
          deploymentId?: string;
          replicaLabel?: string;
          content?: string;
          event?: string;
        },
    )
    .filter((e) => e.event === undefined)
    .map((e) =>
      JSON.stringify(
        e.deploymentId === undefined
          ? [e.replicaLabel, e.content]
          : [e.deploymentId, e.replicaLabel, e.content],
      ),
    );
}

/**
 * Runs `tail -f --checkpoint` `kills` times, each killed with SIGKILL after a random while (with
 * `during` run before the kill, for faults), then once more until every line the server held
 * `settleMs` after that run started is printed (`expected` names them as the output does), ended
 * with Ctrl-C: each run's lines, and that moment (server time) to check against.
 */
async function killAndRestart(o: {
  server: LogServer;
  expected: (until: number) => string[];
  settleMs: number;
  checkpoint: string;
  deployments?: string[];
  kills: number;
  seed: number;
  minMs: number;
  spreadMs: number;
  during?: (run: number) => Promise<void>;
}): Promise<{ outputs: string[][]; until: number }> {
  const random = mulberry(o.seed);
  const runs: string[] = [];
  for (let i = 0; i < o.kills; i++) {
    const run = startTail(o.server.url, o.checkpoint, o.deployments);
    await wait(o.minMs + random() * o.spreadMs);
    await o.during?.(i);
    const exited = new Promise((r) => run.child.on("close", r));
    run.child.kill("SIGKILL");
    await exited;
    runs.push(run.out());
    if (random() < 0.5) await wait(random() * 1500);
  }
  const last = startTail(o.server.url, o.checkpoint, o.deployments);
  const until = o.server.now() + o.settleMs;
  const missing = () => {
    const have = new Set([...runs, last.out()].flatMap(linesOf));
    return o.expected(until).filter((id) => !have.has(id)).length;
  };
  await waitFor(() => o.server.now() > until && missing() === 0, "the last run to catch up", {
    timeoutMs: 30_000,
    detail: () => `${missing()} lines missing`,
  });
  const exited = new Promise<number | null>((r) => last.child.on("close", r));
  last.child.kill("SIGINT");
  expect(await exited).toBe(0);
  runs.push(last.out());
  return { outputs: runs.map(linesOf), until };
}

/** Within a run never twice; across runs, twice only at the end of a killed run (unrecorded). */
function expectOnceButUnrecordedEnds(outputs: string[][]): void {
  for (let i = 0; i < outputs.length - 1; i++) {
    const later = new Set(outputs.slice(i + 1).flat());
    const again = (outputs[i] as string[]).map((id) => later.has(id));
    const first = again.indexOf(true);
    if (first >= 0) expect(again.slice(first).every(Boolean), `run ${i}`).toBe(true);
  }
  for (const out of outputs) expect(new Set(out).size).toBe(out.length);
}

describe("tail -f --checkpoint", () => {
  it("killed with SIGKILL at random moments and restarted, prints every line, none twice but the unrecorded end of a killed run", async () => {
    const server = await startLogServer({
      replicas: 3,
      rate: 30,
      lagMs: (r) => (r === 1 ? 1500 : 0),
      lagFrom: 2000,
    });
    const checkpoint = join(mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-")), "dep.checkpoint");
    const expected = (until: number) =>
      server.truth(until).map((l) => JSON.stringify([l.replicaLabel, l.content]));
    let outputs: string[][];
    let until: number;
    try {
      ({ outputs, until } = await killAndRestart({
        server,
        expected,
        settleMs: 1000,
        checkpoint,
        kills: 10,
        seed: 42,
        minMs: 600,
        spreadMs: 1400,
        // Once, the server goes down under a running follow (faults on top of kills).
        during: async (i) => {
          if (i !== 4) return;
          await server.setDown(true);
          await wait(1500);
          await server.setDown(false);
        },
      }));
    } finally {
      await server.close();
    }
    // None lost: every line the server held until a second into the last run was printed.
    const have = new Set(outputs.flat());
    const truth = expected(until);
    expect(truth.length).toBeGreaterThan(500);
    expect(truth.filter((id) => !have.has(id))).toEqual([]);
    expectOnceButUnrecordedEnds(outputs);
    expect(statSync(checkpoint).mode & 0o777).toBe(0o600);
  }, 90_000);

  it("over several deployments, records each one's progress in one file and resumes them all", async () => {
    const server = await startLogServer({
      replicas: 2,
      rate: 20,
      lagMs: (r) => (r === 1 ? 1000 : 0),
      lagFrom: 1500,
    });
    const checkpoint = join(mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-")), "many.checkpoint");
    const deployments = ["dep-a", "dep-b"];
    // The server sends each deployment the same stream: every line once per deployment.
    const expected = (until: number) =>
      server
        .truth(until)
        .flatMap((l) => deployments.map((d) => JSON.stringify([d, l.replicaLabel, l.content])));
    let outputs: string[][];
    let until: number;
    try {
      ({ outputs, until } = await killAndRestart({
        server,
        expected,
        settleMs: 0,
        checkpoint,
        deployments,
        kills: 6,
        seed: 7,
        minMs: 1200,
        spreadMs: 1500,
      }));
    } finally {
      await server.close();
    }
    const have = new Set(outputs.flat());
    const truth = expected(until);
    expect(truth.length).toBeGreaterThan(300);
    expect(truth.filter((id) => !have.has(id))).toEqual([]);
    expectOnceButUnrecordedEnds(outputs);
    const file = JSON.parse(readFileSync(checkpoint, "utf8")) as {
      format: number;
      deployments: { deploymentId: string }[];
    };
    expect(file.format).toBe(2);
    expect(file.deployments.map((d) => d.deploymentId).sort()).toEqual(deployments);
    // That file names two deployments: following only one of them with it is refused.
    const one = await runCli(
      [
        "--base-url",
        "http://127.0.0.1:9",
        "tail",
        "--deployment",
        "dep-a",
        "--checkpoint",
        checkpoint,
      ],
      { env: ENV },
    );
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/was written for 2 deployments \(dep-a, dep-b\): follow them all/);
  }, 90_000);

  it("refuses a checkpoint of another deployment, a corrupt one, or a newer format, saying what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const server = await startLogServer({ replicas: 1, rate: 5 });
    const run = async (text: string) => {
      const file = join(dir, `c${Math.random()}`);
      writeFileSync(file, text);
      return runCli(
        ["--base-url", server.url, "tail", "--deployment", "dep", "--checkpoint", file],
        { env: ENV },
      );
    };
    try {
      const other = await run(
        JSON.stringify({ format: 1, deploymentId: "other", newest: 0, lines: [] }),
      );
      expect(other.code).toBe(2);
      expect(other.stderr.trim()).toMatch(
        /^tvcwatch: checkpoint \S+ was written for deployment other, not dep: name another file for this one$/,
      );
      const corrupt = await run("{not json");
      expect(corrupt.code).toBe(2);
      expect(corrupt.stderr.trim().split("\n")).toHaveLength(1);
      expect(corrupt.stderr).toMatch(
        /is not a tvcwatch checkpoint \(not JSON\): delete it to start over/,
      );
      const newer = await run(JSON.stringify({ format: 3 }));
      expect(newer.stderr).toMatch(
        /has format 3, newer than this tvcwatch reads \(2\): upgrade tvcwatch/,
      );
      const fresh = await runCli(
        ["--base-url", server.url, "tail", "--deployment", "dep", "--checkpoint", join(dir, "new")],
        { env: ENV },
      );
      expect(fresh.code).toBe(0);
      expect(statSync(join(dir, "new")).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
  }, 30_000);
});
