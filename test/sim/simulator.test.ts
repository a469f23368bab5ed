import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { TurnkeyClient as PublishedClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampMs } from "../../src/activity/activity-fields.js";
import { TurnkeyClient } from "../../src/api/client.js";
import type { TurnkeyApiError } from "../../src/api/errors.js";
import { operations } from "../../src/api/operations.js";
import { generateKeyPair, stampBody } from "../../src/api/stamp.js";
import { privateKeySolanaAddresses } from "../../src/sim/organization/org-queries.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";

/** A clock the test moves by hand. */
function manualClock(start: number) {
  const c = { t: start, now: () => c.t, monotonic: () => c.t };
  return c;
}

let sim: RunningSimulator;
let theirs: PublishedClient;
let ours: TurnkeyClient;
const clock = manualClock(Date.now());

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 42, clock, logRate: 10 });
  clock.t += 120_000;
  const cfg = sim.config;
  theirs = new PublishedClient(
    { baseUrl: cfg.baseUrl },
    new ApiKeyStamper({ apiPublicKey: cfg.apiPublicKey, apiPrivateKey: cfg.apiPrivateKey }),
  );
  ours = new TurnkeyClient({
    baseUrl: cfg.baseUrl,
    organizationId: cfg.organizationId,
    apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
    authProxyUrl: cfg.authProxyUrl,
    authProxyConfigId: cfg.authProxyConfigId,
    clock,
    retries: 0,
  });
});
afterAll(() => sim.close());

async function raw(path: string, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  const res = await fetch(`${sim.url}${path}`, {
    method: "POST",
    body: text,
    headers: { "Content-Type": "application/json", ...headers },
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: number; message: string; details: unknown[] },
  };
}

describe("driven by Turnkey's published client (@turnkey/http)", () => {
  it("answers every observability operation in the documented shapes", async () => {
    const org = sim.config.organizationId;
    const who = await theirs.getWhoami({ organizationId: org });
    expect(operations.whoami.response.parse(who).organizationId).toBe(org);

    const apps = await theirs.getTvcApps({ organizationId: org });
    expect(operations.list_tvc_apps.response.parse(apps).tvcApps.length).toBeGreaterThan(0);
    const appId = apps.tvcApps[0]?.id as string;
    const deployments = await theirs.getTvcAppDeployments({ organizationId: org, appId });
    const parsed = operations.list_tvc_app_deployments.response.parse(deployments);
    expect(parsed.tvcDeployments.some((d) => d.debugMode)).toBe(true);
    expect(parsed.tvcDeployments.some((d) => !d.debugMode)).toBe(true);
    const dep = await theirs.getTvcDeployment({
      organizationId: org,
      deploymentId: sim.config.deploymentId,
    });
    expect(dep.tvcDeployment.debugMode).toBe(true);

    const logs = await theirs.getTvcDeploymentDebugLogs({
      organizationId: org,
      deploymentId: sim.config.deploymentId,
      tailLines: 5,
    });
    const entries = operations.get_tvc_deployment_debug_logs.response.parse(logs).entries;
    expect(new Set(entries.map((e) => e.replicaLabel))).toEqual(
      new Set(["replica 1/3", "replica 2/3", "replica 3/3"]),
    );

    const emails = await theirs.listEmailEvents({
      organizationId: org,
      email: sim.config.emails[0] as string,
    });
    expect(operations.list_email_events.response.parse(emails).emailEvents.length).toBeGreaterThan(
      0,
    );

    const sol = await theirs.listSolTransactionHistory({
      organizationId: org,
      address: sim.config.solanaAddresses[0] as string,
      caip2: "solana:devnet",
    });
    const txs = operations.list_sol_transaction_history.response.parse(sol).transactions;
    expect(txs.length).toBeGreaterThan(0);
    expect(txs[0]?.transfers[0]?.asset?.decimals).toBeTypeOf("number");

    const acts = await theirs.getActivities({ organizationId: org });
    const list = operations.list_activities.response.parse(acts).activities;
    expect(list.length).toBe(10);
    const one = await theirs.getActivity({
      organizationId: org,
      activityId: list[0]?.id as string,
    });
    expect(one.activity.id).toBe(list[0]?.id);
  });

  it("moves a CONSENSUS_NEEDED activity on with approve_activity and reject_activity", async () => {
    const org = sim.config.organizationId;
    const waiting = (
      await ours.call("list_activities", {
        filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
        paginationOptions: { limit: "100" },
      })
    ).activities;
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    // One another root user approved already: the demo key's approval completes it.
    const first = waiting.find((a) => a.votes.length > 0);
    const second = waiting.find((a) => a !== first);
    expect(first?.canApprove).toBe(true);
    const approved = await theirs.approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      organizationId: org,
      timestampMs: String(clock.now()),
      parameters: { fingerprint: first?.fingerprint as string },
    });
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const rejected = await ours.call("reject_activity", {
      fingerprint: second?.fingerprint as string,
    });
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(rejected.activity.canApprove).toBe(false);
    const again = await ours
      .call("approve_activity", { fingerprint: second?.fingerprint as string })
      .catch((e) => e);
    expect((again as TurnkeyApiError).codeName).toBe("FAILED_PRECONDITION");
  });

  it("serves the auth proxy unstamped", async () => {
    const cfg = await ours.call("wallet_kit_config", {});
    expect(cfg.organizationId).toBe(sim.config.organizationId);
    const bad = await raw("/v1/wallet_kit_config", {}, { "X-Auth-Proxy-Config-Id": "nope" });
    expect(bad.status).toBe(404);
  });
});

describe("authentication and errors", () => {
  const org = () => sim.config.organizationId;
  const whoami = "/public/v1/query/whoami";

  it("refuses a missing, malformed, badly signed or unknown stamp with 401 / code 16", async () => {
    const missing = await raw(whoami, { organizationId: org() });
    expect(missing).toMatchObject({ status: 401, body: { code: 16 } });
    const malformed = await raw(whoami, { organizationId: org() }, { "X-Stamp": "%%%" });
    expect(malformed.body.message).toMatch(/malformed activity stamp/);
    const body = JSON.stringify({ organizationId: org() });
    const key = { publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey };
    const forgedBody = await raw(
      whoami,
      { organizationId: org(), x: 1 },
      { "X-Stamp": stampBody(body, key) },
    );
    expect(forgedBody).toMatchObject({
      status: 401,
      body: { message: "could not verify api key signature" },
    });
    const stranger = generateKeyPair();
    const unknown = await raw(
      whoami,
      { organizationId: org() },
      { "X-Stamp": stampBody(body, stranger) },
    );
    expect(unknown).toMatchObject({
      status: 401,
      body: { message: "could not find public key in organization" },
    });
  });

  it("refuses another organization with 403 / code 7", async () => {
    const other = new TurnkeyClient({
      baseUrl: sim.url,
      organizationId: "someone-else",
      apiKey: { publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey },
      retries: 0,
    });
    const err = (await other.call("whoami", {}).catch((e) => e)) as TurnkeyApiError;
    expect([err.httpStatus, err.grpcCode]).toEqual([403, 7]);
  });

  it("refuses a stale timestampMs", async () => {
    const stale = new TurnkeyClient({
      baseUrl: sim.url,
      organizationId: org(),
      apiKey: { publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey },
      clock: { now: () => clock.now() - 10 * 60_000, monotonic: () => 0 },
      retries: 0,
    });
    const err = (await stale
      .call("approve_activity", { fingerprint: "sha256:00" })
      .catch((e) => e)) as TurnkeyApiError;
    expect(err.codeName).toBe("INVALID_ARGUMENT");
    expect(err.message).toMatch(/liveness window/);
  });

  it("names the invalid field, and answers NOT_FOUND and FAILED_PRECONDITION for deployments", async () => {
    const body = JSON.stringify({
      organizationId: org(),
      deploymentId: sim.config.deploymentId,
      tailLines: "x",
    });
    const key = { publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey };
    const res = await fetch(`${sim.url}/public/v1/query/get_tvc_deployment_debug_logs`, {
      method: "POST",
      body,
      headers: { "X-Stamp": stampBody(body, key) },
    });
    const err = (await res.json()) as {
      code: number;
      message: string;
      details: { fieldViolations?: { field: string }[] }[];
    };
    expect(res.status).toBe(400);
    expect(err.code).toBe(3);
    expect(err.details[0]?.fieldViolations?.[0]?.field).toBe("tailLines");
    const missing = (await ours
      .call("get_tvc_deployment_debug_logs", { deploymentId: "nope" })
      .catch((e) => e)) as TurnkeyApiError;
    expect(missing.codeName).toBe("NOT_FOUND");
    const prod = sim.service.scenario.apps[0]?.deployments.find((d) => !d.debugMode)?.id as string;
    const notDebug = (await ours
      .call("get_tvc_deployment_debug_logs", { deploymentId: prod })
      .catch((e) => e)) as TurnkeyApiError;
    expect(notDebug.codeName).toBe("FAILED_PRECONDITION");
    expect(notDebug.message).toMatch(/not running in debug mode/);
  });
});

describe("data semantics", () => {
  it("applies sinceSeconds on the server's clock and tailLines per replica", async () => {
    const all = (
      await ours.call("get_tvc_deployment_debug_logs", { deploymentId: sim.config.deploymentId })
    ).entries;
    const recent = (
      await ours.call("get_tvc_deployment_debug_logs", {
        deploymentId: sim.config.deploymentId,
        sinceSeconds: "10",
      })
    ).entries;
    expect(recent.length).toBeLessThan(all.length);
    const cutoff = clock.now() / 1000 - 10;
    expect(
      recent
        .filter((e) => e.line.ts)
        .every((e) => Number(e.line.ts?.seconds) >= Math.floor(cutoff)),
    ).toBe(true);
    const zero = (
      await ours.call("get_tvc_deployment_debug_logs", {
        deploymentId: sim.config.deploymentId,
        sinceSeconds: "0",
      })
    ).entries;
    expect(zero.length).toBe(all.length);
    const tail = (
      await ours.call("get_tvc_deployment_debug_logs", {
        deploymentId: sim.config.deploymentId,
        tailLines: 4,
      })
    ).entries;
    const per = new Map<string, number>();
    for (const e of tail) per.set(e.replicaLabel, (per.get(e.replicaLabel) ?? 0) + 1);
    expect([...per.values()]).toEqual([4, 4, 4]);
    const keys = all
      .filter((e) => e.line.ts)
      .map((e) => Number(e.line.ts?.seconds) * 1e3 + Number(e.line.ts?.nanos) / 1e6);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });

  it("paginates newest first with before/after cursors and filters email events", async () => {
    const email = sim.config.emails[0] as string;
    const page1 = (
      await ours.call("list_email_events", { email, paginationOptions: { limit: "3" } })
    ).emailEvents;
    expect(page1).toHaveLength(3);
    const ts = page1.map((e) => Number(e.timestamp));
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
    const page2 = (
      await ours.call("list_email_events", {
        email,
        paginationOptions: { limit: "3", after: page1[2]?.id },
      })
    ).emailEvents;
    expect(Number(page2[0]?.timestamp)).toBeLessThanOrEqual(ts[2] as number);
    const back = (
      await ours.call("list_email_events", {
        email,
        paginationOptions: { limit: "3", before: page2[0]?.id },
      })
    ).emailEvents;
    expect(back.map((e) => e.id)).toEqual(page1.map((e) => e.id));
    const deliveries = (
      await ours.call("list_email_events", {
        email,
        eventType: "Delivery",
        paginationOptions: { limit: "100" },
      })
    ).emailEvents;
    expect(deliveries.every((e) => e.eventType === "Delivery")).toBe(true);
    const tooMany = (await ours
      .call("list_email_events", { email, paginationOptions: { limit: "101" } })
      .catch((e) => e)) as TurnkeyApiError;
    expect(tooMany.codeName).toBe("INVALID_ARGUMENT");
  });

  it("refuses a private-key address and unknown caip2 for Solana history", async () => {
    const pk = privateKeySolanaAddresses(sim.service.state)[0] as string;
    const err = (await ours
      .call("list_sol_transaction_history", { address: pk, caip2: "solana:devnet" })
      .catch((e) => e)) as TurnkeyApiError;
    expect(err.message).toMatch(/belongs to a private key/);
    const body = JSON.stringify({
      organizationId: sim.config.organizationId,
      address: pk,
      caip2: "solana:nope",
    });
    const res = await fetch(`${sim.url}/public/v1/query/list_sol_transaction_history`, {
      method: "POST",
      body,
      headers: {
        "X-Stamp": stampBody(body, {
          publicKey: sim.config.apiPublicKey,
          privateKey: sim.config.apiPrivateKey,
        }),
      },
    });
    expect(res.status).toBe(400);
  });

  it("finalizes Solana transactions after a delay", async () => {
    const address = sim.config.solanaAddresses[0] as string;
    const txs = (
      await ours.call("list_sol_transaction_history", {
        address,
        caip2: "solana:devnet",
        paginationOptions: { limit: "100" },
      })
    ).transactions;
    const old = txs.filter((t) => Date.parse(t.block.timestamp) < clock.now() - 20_000);
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((t) => t.status === "FINALIZED")).toBe(true);
  });
});

describe("faults, skew, ingest lag and determinism", () => {
  it("gives the same data for the same seed", async () => {
    const c = manualClock(1_790_000_000_000);
    const a = await startSimulator({ port: 0, seed: 9, clock: c });
    const b = await startSimulator({ port: 0, seed: 9, clock: c });
    c.t += 30_000;
    try {
      expect(a.config.organizationId).toBe(b.config.organizationId);
      expect(a.service.logs.query(c.now(), 0, 0)).toEqual(b.service.logs.query(c.now(), 0, 0));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("stamps its Date header and filters on its own skewed clock, and hides lines during ingest lag", async () => {
    const c = manualClock(1_790_000_000_000);
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-"));
    const truthFile = join(dir, "truth.ndjson");
    const s = await startSimulator({
      port: 0,
      seed: 5,
      clock: c,
      clockSkewMs: 45_000,
      ingestLagMs: 3000,
      truthFile,
    });
    try {
      c.t += 20_000;
      const res = await fetch(`${s.url}/nothing`, { method: "POST", body: "{}" });
      expect(Date.parse(res.headers.get("date") ?? "")).toBe(
        Math.floor((c.t + 45_000) / 1000) * 1000,
      );
      const visible = s.service.logs.query(s.service.now(), 0, 0);
      const truth = readFileSync(truthFile, "utf8").trim().split("\n");
      // Everything generated is in the truth file; what is still within the lag is not yet served.
      expect(truth.length).toBeGreaterThan(visible.length);
      c.t += 3001;
      const later = new Set(
        s.service.logs
          .query(s.service.now(), 0, 0)
          .map((e) => JSON.stringify([e.replicaLabel, e.line.ts ?? null, e.line.content])),
      );
      for (const line of truth) {
        const t = JSON.parse(line) as { replicaLabel: string; ts: unknown; content: string };
        expect(later.has(JSON.stringify([t.replicaLabel, t.ts, t.content]))).toBe(true);
      }
      const newest = Math.max(
        ...visible.filter((e) => e.line.ts).map((e) => Number(e.line.ts?.seconds)),
      );
      expect(newest).toBeGreaterThan((c.t + 40_000) / 1000 - 5);
    } finally {
      await s.close();
    }
  });

  it("answers injected faults with 500, 503, 429 (Retry-After) or a dropped connection", async () => {
    const s = await startSimulator({ port: 0, seed: 3, faultRate: 1 });
    try {
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        try {
          const res = await fetch(`${s.url}/public/v1/query/whoami`, {
            method: "POST",
            body: "{}",
          });
          seen.add(
            `${res.status}${res.status === 429 ? `:${res.headers.get("retry-after")}` : ""}`,
          );
          await res.text();
        } catch {
          seen.add("dropped");
        }
      }
      expect(seen).toEqual(new Set(["500", "503", "429:1", "dropped"]));
    } finally {
      await s.close();
    }
  });

  it("answers every request 503 during an outage, and as before it and after it", async () => {
    const c = manualClock(1_790_000_000_000);
    const s = await startSimulator({
      port: 0,
      seed: 3,
      clock: c,
      outage: { fromMs: 10_000, toMs: 15_000 },
    });
    const answer = async () => {
      const res = await fetch(`${s.url}/nothing`, { method: "POST", body: "{}" });
      const body = (await res.json()) as { message?: string };
      return `${res.status} ${body.message ?? ""}`;
    };
    try {
      expect(await answer()).toMatch(/^404 /);
      c.t += 10_000;
      expect(await answer()).toBe("503 service unavailable (injected outage)");
      c.t += 4_999;
      expect(await answer()).toBe("503 service unavailable (injected outage)");
      c.t += 1;
      expect(await answer()).toMatch(/^404 /);
    } finally {
      await s.close();
    }
  });

  it("restarts a replica and changes the replica count in the incident scenario", async () => {
    const c = manualClock(1_790_000_000_000);
    const s = await startSimulator({
      port: 0,
      seed: 6,
      clock: c,
      scenario: "incident",
      logRate: 20,
    });
    try {
      c.t += 120_000;
      const entries = s.service.logs.query(s.service.now(), 0, 0);
      const labels = new Set(entries.map((e) => e.replicaLabel));
      expect(labels).toEqual(
        new Set([
          "replica 1/3",
          "replica 2/3",
          "replica 3/3",
          "replica 1/4",
          "replica 2/4",
          "replica 3/4",
          "replica 4/4",
        ]),
      );
      expect(
        entries.some(
          (e) =>
            e.replicaLabel === "replica 2/3" && e.line.content.includes("restarting after a crash"),
        ),
      ).toBe(true);
      // Replica 2 is silent for the 6 s it is down.
      const start = 1_790_000_000_000;
      const down = entries.filter((e) => {
        const ms = Number(e.line.ts?.seconds) * 1000;
        return (
          e.replicaLabel.startsWith("replica 2/") && ms > start + 46_000 && ms < start + 50_000
        );
      });
      expect(down).toEqual([]);
      // Before it crashed, most of its lines were errors (from 30 s to 45 s).
      const ofReplica2 = (from: number, to: number) =>
        entries.filter((e) => {
          const ms = Number(e.line.ts?.seconds) * 1000;
          return e.replicaLabel === "replica 2/3" && ms >= start + from && ms < start + to;
        });
      const storm = ofReplica2(31_000, 44_000);
      const calm = ofReplica2(10_000, 23_000);
      const errors = (list: typeof entries) =>
        list.filter((e) => e.line.content.startsWith("ERROR")).length;
      expect(errors(storm)).toBeGreaterThan(storm.length / 2);
      expect(errors(calm)).toBeLessThan(calm.length / 4);
    } finally {
      await s.close();
    }
  });

  it("get_app_status: ready replicas drop while replica 2 is down, come back, and scale up with it", async () => {
    const start = 1_790_000_000_000;
    const c = manualClock(start);
    const s = await startSimulator({ port: 0, seed: 6, clock: c, scenario: "incident" });
    const client = new TurnkeyClient({
      baseUrl: s.config.baseUrl,
      organizationId: s.config.organizationId,
      apiKey: { publicKey: s.config.apiPublicKey, privateKey: s.config.apiPrivateKey },
      authProxyUrl: s.config.authProxyUrl,
      clock: c,
      retries: 0,
    });
    const scenario = s.service.scenario;
    const app = scenario.apps[0];
    if (!app) throw new Error("the scenario has no app");
    const at = async (offsetMs: number) => {
      c.t = start + offsetMs;
      const { appStatus } = await client.call("get_app_status", { appId: app.id });
      const main = appStatus.deployments?.find((d) => d.deploymentId === scenario.deploymentId);
      return {
        appId: appStatus.appId,
        targeted: appStatus.targetedDeploymentId,
        main: main && `${main.readyReplicas}/${main.desiredReplicas}`,
        updated: main && Number(timestampMs(main.lastUpdatedTime)) - start,
      };
    };
    try {
      const before = await at(20_000);
      expect(before).toEqual({
        appId: app.id,
        targeted: scenario.deploymentId,
        main: "3/3",
        updated: 0,
      });
      // Down from 45 s for 6 s: one replica fewer ready, the change dated when it went down.
      expect(await at(45_000)).toMatchObject({ main: "2/3", updated: 45_000 });
      expect(await at(50_999)).toMatchObject({ main: "2/3", updated: 45_000 });
      expect(await at(51_000)).toMatchObject({ main: "3/3", updated: 51_000 });
      // The replica added at 90 s.
      expect(await at(95_000)).toMatchObject({ main: "4/4", updated: 90_000 });
      // Every deployment of the app is listed; the canary and the scaled-down one keep theirs.
      const { appStatus } = await client.call("get_app_status", { appId: app.id });
      expect(
        Object.fromEntries(
          (appStatus.deployments ?? []).map((d) => [
            d.deploymentId,
            `${d.readyReplicas}/${d.desiredReplicas}`,
          ]),
        ),
      ).toEqual(
        Object.fromEntries(
          app.deployments.map((d) => [
            d.id,
            d.id === scenario.deploymentId
              ? "4/4"
              : d.id === scenario.canaryDeploymentId
                ? "2/2"
                : "0/0",
          ]),
        ),
      );
      const missing = await client
        .call("get_app_status", { appId: "no-such-app" })
        .catch((e: TurnkeyApiError) => e);
      expect((missing as TurnkeyApiError).httpStatus).toBe(404);
    } finally {
      await s.close();
    }
  });

  it("keeps memory bounded by the retention window", async () => {
    const c = manualClock(1_790_000_000_000);
    const s = await startSimulator({
      port: 0,
      seed: 1,
      clock: c,
      retentionMs: 60_000,
      logRate: 50,
    });
    try {
      for (let i = 0; i < 20; i++) {
        c.t += 30_000;
        s.service.logs.advance(s.service.now());
      }
      // 3 replicas x 50 lines/s x 60 s retention, with room for bursts.
      expect(s.service.logs.size()).toBeLessThan(3 * 50 * 60 * 1.6);
    } finally {
      await s.close();
    }
  });
});
