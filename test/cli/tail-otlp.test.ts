import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { startSimulator } from "../../src/sim/server.js";
import { detectLevel } from "../../src/text/log-level.js";
import { startLogServer } from "../helpers/log-server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { startOtlpReceiver } from "../helpers/otlp-receiver.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

const key = generateKeyPair();
const ENV = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-otlp",
};

/** `tail -f -o otlp --checkpoint` from the server at `logsUrl` to the collector at `collectorUrl`. */
const otlpFollow = (logsUrl: string, collectorUrl: string, checkpoint: string) =>
  spawn(
    process.execPath,
    [
      BIN,
      "--base-url",
      logsUrl,
      "tail",
      "--deployment",
      "dep",
      "-f",
      "--since",
      "1h",
      "--interval",
      "250ms",
      "-o",
      "otlp",
      "--otlp-endpoint",
      collectorUrl,
      "--checkpoint",
      checkpoint,
    ],
    { env: { ...process.env, ...ENV } },
  );

describe("tail -o otlp", () => {
  it("sends every line once as an OTLP log record with its time, severity, replica and resource", async () => {
    const server = await startLogServer({ replicas: 3, rate: 40, historyMs: 1500 });
    const receiver = await startOtlpReceiver();
    try {
      const r = await runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep-7",
          "--since",
          "1h",
          "-o",
          "otlp",
          "--otlp-endpoint",
          receiver.url,
        ],
        { env: ENV },
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("");
      const askedAt = server.served().requestTimes.at(-1) as number;
      const truth = server.truth(askedAt + (server.now() - Date.now()));
      expect(truth.length).toBeGreaterThan(100);
      const got = receiver.records.map((x) =>
        JSON.stringify([x.attributes["tvc.replica"], x.body]),
      );
      expect(new Set(got).size).toBe(got.length);
      expect(new Set(got)).toEqual(
        new Set(truth.map((l) => JSON.stringify([l.replicaLabel, l.content]))),
      );
      const byContent = new Map(receiver.records.map((x) => [x.body, x]));
      for (const line of truth) {
        const record = byContent.get(line.content);
        // The timestamp exactly as the server sent it (seconds and nanos), in nanoseconds.
        const seconds = Math.floor(line.t / 1000);
        const nanos = Math.round((line.t - seconds * 1000) * 1e6);
        expect(record?.timeUnixNano).toBe(String(BigInt(seconds) * 1_000_000_000n + BigInt(nanos)));
        expect(Number(record?.observedTimeUnixNano) / 1e6).toBeGreaterThanOrEqual(line.t);
        const level = detectLevel(line.content);
        expect(record?.severityNumber).toBe(level?.severityNumber);
        expect(record?.severityText).toBe(level?.text);
        expect(record?.resource).toMatchObject({
          "turnkey.organization.id": "org-otlp",
          "tvc.deployment.id": "dep-7",
        });
      }
    } finally {
      await receiver.close();
      await server.close();
    }
  }, 30_000);

  it("names the app in the resource, reads OTEL_EXPORTER_OTLP_ENDPOINT, and fails saying how many lines the collector did not take", async () => {
    const clock = movableClock();
    const sim = await startSimulator({ port: 0, seed: 3, logRate: 20, clock });
    clock.offset = 1000;
    const receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-otlp-"));
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
    try {
      const ok = await runCli(["--config", config, "tail", "--tail", "5", "-o", "otlp"], {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      });
      // --tail says on stderr that earlier lines are not shown; nothing else is said.
      expect(ok.stderr.trim()).toMatch(/^tvcwatch: --- gap: earlier lines not shown[^\n]*$/);
      expect(ok.code).toBe(0);
      expect(receiver.records.length).toBeGreaterThanOrEqual(15);
      expect(receiver.records[0]?.resource).toMatchObject({
        "service.name": "payments-signer",
        "tvc.deployment.id": sim.config.deploymentId,
        "turnkey.organization.id": sim.config.organizationId,
      });
      expect(receiver.records[0]?.resource["tvc.app.id"]).toEqual(expect.any(String));
      expect(receiver.records.some((x) => x.severityNumber !== undefined && x.severityText)).toBe(
        true,
      );

      receiver.down = true;
      const down = await runCli(
        ["--config", config, "tail", "--tail", "5", "-o", "otlp", "--otlp-endpoint", receiver.url],
        { timeoutMs: 60_000 },
      );
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/OTLP: the collector did not take \d+ lines/);
      expect(down.stderr.trim().split("\n").at(-1)).toMatch(
        /^tvcwatch: \d+ lines were not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/logs$/,
      );

      const none = await runCli(["--config", config, "tail", "-o", "otlp"]);
      expect(none.code).toBe(2);
      expect(none.stderr.trim()).toBe(
        "tvcwatch: -o otlp needs a collector: pass --otlp-endpoint URL (e.g. http://localhost:4318) or set OTEL_EXPORTER_OTLP_ENDPOINT",
      );
      const clear = await runCli([
        "--config",
        config,
        "tail",
        "-o",
        "otlp",
        "--otlp-endpoint",
        "http://collector.example.com:4318",
      ]);
      expect(clear.code).toBe(2);
      expect(clear.stderr).toMatch(/plain http to a non-loopback host; use https:\/\//);
    } finally {
      await receiver.close();
      await sim.close();
    }
  }, 90_000);

  it("with --checkpoint, records only what the collector took: down, nothing is recorded; back, every line arrives once across restarts", async () => {
    const server = await startLogServer({ replicas: 2, rate: 20 });
    const receiver = await startOtlpReceiver();
    const checkpoint = join(mkdtempSync(join(tmpdir(), "tvcwatch-otlp-")), "dep.checkpoint");
    /** One `tail -f -o otlp --checkpoint` run, ended with Ctrl-C once `done` holds. */
    const follow = async (done: () => boolean, what: string) => {
      const child = otlpFollow(server.url, receiver.url, checkpoint);
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.stdout.resume();
      await waitFor(done, what, { detail: () => err.slice(-300) });
      const exited = new Promise<number | null>((r) => child.on("close", r));
      child.kill("SIGINT");
      return { code: await exited, stderr: err };
    };
    const got = () =>
      receiver.records.map((x) => JSON.stringify([x.attributes["tvc.replica"], x.body]));
    const truthUntil = (until: number) =>
      server.truth(until).map((l) => JSON.stringify([l.replicaLabel, l.content]));
    try {
      receiver.down = true;
      // Down: the collector refused what it was sent.
      const down = await follow(() => receiver.requests > 0, "an export the collector refuses");
      expect(down.code).toBe(1);
      // The very first batch was not taken: no checkpoint exists to restart with.
      expect(down.stderr).toMatch(
        /checkpoint \S+ was not written \(the collector took no line\): a restart starts from --since again/,
      );
      expect(down.stderr).not.toMatch(/restart with it/);
      expect(existsSync(checkpoint)).toBe(false);
      receiver.down = false;
      const first = await follow(
        () => existsSync(checkpoint) && receiver.records.length > 0,
        "lines the collector took, recorded",
      );
      expect(first.code).toBe(0);
      expect(existsSync(checkpoint)).toBe(true);
      // The second run goes on until every line of the server's up to a second into it arrived.
      const until = server.now() + 1000;
      const missing = () => {
        const have = new Set(got());
        return truthUntil(until).filter((id) => !have.has(id)).length;
      };
      const second = await follow(
        () => server.now() > until && missing() === 0,
        "every line up to a second into the second run",
      );
      expect(second.code).toBe(0);
      expect(new Set(got()).size).toBe(got().length);
      const truth = truthUntil(until);
      const have = new Set(got());
      expect(truth.filter((id) => !have.has(id))).toEqual([]);
    } finally {
      await receiver.close();
      await server.close();
    }
  }, 120_000);

  it("after failed exports, moves the checkpoint again once the collector takes lines: lines refused for good named as lost, lines not taken sent again", async () => {
    const server = await startLogServer({ replicas: 2, rate: 20 });
    const receiver = await startOtlpReceiver();
    const checkpoint = join(mkdtempSync(join(tmpdir(), "tvcwatch-otlp-")), "dep.checkpoint");
    const child = otlpFollow(server.url, receiver.url, checkpoint);
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.stdout.resume();
    const exited = new Promise<number | null>((r) => child.on("close", r));
    const detail = { detail: () => err.slice(-400) };
    const mtime = () => (existsSync(checkpoint) ? statSync(checkpoint).mtimeMs : 0);
    try {
      // Refused for good (400): those lines are lost, and said to be when the checkpoint moves
      // past them, once the collector takes the next ones.
      receiver.failWith = 400;
      await waitFor(() => /refused \d+ lines for good/.test(err), "a refusal for good", detail);
      receiver.failWith = undefined;
      await waitFor(
        () => /moved past \d+ lines the collector did not take \(stamped \S+Z/.test(err),
        "the checkpoint moving past the lost lines",
        detail,
      );
      const lost = Number(/moved past (\d+) lines/.exec(err)?.[1]);
      // Down (503): the lines are sent again, and the checkpoint moves once they are taken.
      receiver.down = true;
      await waitFor(() => /lines .*: they will be sent again/.test(err), "a failed export", detail);
      const frozen = mtime();
      const downSince = server.now();
      receiver.down = false;
      const until = server.now() + 1000;
      const truth = () =>
        server.truth(until).map((l) => JSON.stringify([l.replicaLabel, l.content]));
      const got = () =>
        receiver.records.map((x) => JSON.stringify([x.attributes["tvc.replica"], x.body]));
      await waitFor(
        () => server.now() > until && mtime() !== frozen && got().length + lost >= truth().length,
        "every line but the lost ones, and the checkpoint moved",
        detail,
      );
      child.kill("SIGINT");
      expect(await exited).toBe(1);
      expect(new Set(got()).size).toBe(got().length);
      const have = new Set(got());
      const missing = truth().filter((id) => !have.has(id));
      expect(missing).toHaveLength(lost);
      // Those refused for good came before the collector went down; none after it is missing.
      const downAt = server.truth(downSince).length;
      expect(
        truth()
          .slice(downAt)
          .filter((id) => !have.has(id)),
      ).toEqual([]);
      expect(err).toMatch(/\d+ lines were not exported to \S+\n$/);
      expect(
        JSON.parse(readFileSync(checkpoint, "utf8")).deployments[0].resumeFromMs,
      ).toBeGreaterThan(downSince - 10_000);
    } finally {
      child.kill("SIGKILL");
      await receiver.close();
      await server.close();
    }
  }, 120_000);

  it("over an app's deployments, gives each deployment its resource and sends each line once", async () => {
    const clock = movableClock();
    const sim = await startSimulator({ port: 0, seed: 5, logRate: 20, clock });
    clock.offset = 1200;
    const receiver = await startOtlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-otlp-"));
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
    try {
      const json = await runCli(
        ["--config", config, "tail", "--app", "payments-signer", "--since", "1m", "-o", "json"],
        {},
      );
      expect(json.code).toBe(0);
      const printed = json.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { deploymentId: string; content: string });
      const deployments = new Set(printed.map((l) => l.deploymentId));
      expect(deployments.size).toBe(2);
      const r = await runCli(
        ["--config", config, "tail", "--app", "payments-signer", "--since", "1m", "-o", "otlp"],
        { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } },
      );
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      // The simulator repeats some lines at one timestamp on purpose (heartbeats): those are
      // several lines; every other line is unique, and must come once.
      const got = receiver.records
        .filter((x) => !String(x.body).startsWith("heartbeat"))
        .map((x) =>
          JSON.stringify([
            x.resource["tvc.deployment.id"],
            x.attributes["tvc.replica"],
            x.timeUnixNano,
            x.body,
          ]),
        );
      expect(got.length).toBeGreaterThan(50);
      expect(new Set(got).size).toBe(got.length);
      expect(new Set(receiver.records.map((x) => x.resource["tvc.deployment.id"]))).toEqual(
        deployments,
      );
      for (const x of receiver.records) {
        expect(x.resource).toMatchObject({
          "service.name": "payments-signer",
          "turnkey.organization.id": sim.config.organizationId,
        });
      }
      // The second run reads a little more of the log than the first: all the first had is there.
      const exported = new Set(
        receiver.records.map((x) => JSON.stringify([x.resource["tvc.deployment.id"], x.body])),
      );
      const older = printed.filter(
        (l) => !exported.has(JSON.stringify([l.deploymentId, l.content])),
      );
      expect(older.length).toBeLessThan(printed.length / 4);
    } finally {
      await receiver.close();
      await sim.close();
    }
  }, 60_000);
});
