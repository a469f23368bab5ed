/**
 * Deployment health from get_app_status: the record of its changes over time (ready and desired
 * replicas, deployments appearing and leaving, the targeted deployment), the feed that polls the
 * followed deployments' apps (against a loopback server, and the simulator's incident scenario
 * through the dashboard's log session), and the picker's list carrying each deployment's health.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import type { AppStatus } from "../../src/api/schemas.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import { createDashboardSources } from "../../src/feeds/dashboard-sources.js";
import {
  appHealth,
  DeploymentHealthFeed,
  HealthRecord,
} from "../../src/feeds/deployment-health.js";
import { listDeploymentChoices } from "../../src/feeds/deployment-list.js";
import { startSimulator } from "../../src/sim/server.js";
import { RequestLimit } from "../../src/tail/request-limit.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { waitFor } from "../helpers/wait-for.js";

const ts = (s: number) => ({ seconds: String(s), nanos: "0" });
const status = (
  targeted: string | undefined,
  deployments: [string, number, number, number][],
  appId = "app-1",
): AppStatus => ({
  appId,
  ...(targeted === undefined ? {} : { targetedDeploymentId: targeted }),
  deployments: deployments.map(([deploymentId, readyReplicas, desiredReplicas, at]) => ({
    deploymentId,
    readyReplicas,
    desiredReplicas,
    lastUpdatedTime: ts(at),
  })),
});
const seen = (seenAt: number) => ({ seenAt, serverDate: seenAt - 1000 });

describe("appHealth", () => {
  it("reads each deployment's replicas, a count left out as 0, the targeted one marked", () => {
    const health = appHealth({
      appId: "app-1",
      targetedDeploymentId: "dep-a",
      deployments: [
        { deploymentId: "dep-a", readyReplicas: 2, desiredReplicas: 3, lastUpdatedTime: ts(45) },
        { deploymentId: "dep-b" },
        { deploymentId: "dep-a", readyReplicas: 9, desiredReplicas: 9 },
      ],
    });
    expect([...health.values()]).toEqual([
      {
        deploymentId: "dep-a",
        appId: "app-1",
        ready: 2,
        desired: 3,
        targeted: true,
        updatedAt: 45_000,
      },
      {
        deploymentId: "dep-b",
        appId: "app-1",
        ready: 0,
        desired: 0,
        targeted: false,
        updatedAt: undefined,
      },
    ]);
  });
});

describe("HealthRecord: what changed, when", () => {
  it("starts at an app's first status and records each change after it, with when it was seen", () => {
    const record = new HealthRecord();
    expect(record.observe(status("dep-a", [["dep-a", 3, 3, 10]]), seen(100_000))).toEqual([]);
    expect(record.observe(status("dep-a", [["dep-a", 3, 3, 10]]), seen(102_000))).toEqual([]);
    // Replica 2 down, then back.
    record.observe(status("dep-a", [["dep-a", 2, 3, 45]]), seen(104_000));
    record.observe(status("dep-a", [["dep-a", 3, 3, 51]]), seen(106_000));
    // A canary appears, takes the traffic; the old deployment leaves the status.
    record.observe(
      status("dep-a", [
        ["dep-a", 3, 3, 51],
        ["dep-b", 0, 2, 60],
      ]),
      seen(108_000),
    );
    record.observe(status("dep-b", [["dep-b", 2, 2, 62]]), seen(110_000));
    expect(record.changes()).toEqual([
      {
        kind: "replicas",
        appId: "app-1",
        deploymentId: "dep-a",
        from: { ready: 3, desired: 3 },
        to: { ready: 2, desired: 3 },
        updatedAt: 45_000,
        seenAt: 104_000,
        serverDate: 103_000,
      },
      {
        kind: "replicas",
        appId: "app-1",
        deploymentId: "dep-a",
        from: { ready: 2, desired: 3 },
        to: { ready: 3, desired: 3 },
        updatedAt: 51_000,
        seenAt: 106_000,
        serverDate: 105_000,
      },
      {
        kind: "replicas",
        appId: "app-1",
        deploymentId: "dep-b",
        from: undefined,
        to: { ready: 0, desired: 2 },
        updatedAt: 60_000,
        seenAt: 108_000,
        serverDate: 107_000,
      },
      {
        kind: "replicas",
        appId: "app-1",
        deploymentId: "dep-b",
        from: { ready: 0, desired: 2 },
        to: { ready: 2, desired: 2 },
        updatedAt: 62_000,
        seenAt: 110_000,
        serverDate: 109_000,
      },
      {
        kind: "replicas",
        appId: "app-1",
        deploymentId: "dep-a",
        from: { ready: 3, desired: 3 },
        to: undefined,
        updatedAt: undefined,
        seenAt: 110_000,
        serverDate: 109_000,
      },
      {
        kind: "targeted",
        appId: "app-1",
        from: "dep-a",
        to: "dep-b",
        seenAt: 110_000,
        serverDate: 109_000,
      },
    ]);
    expect([...record.current().values()].map((h) => [h.deploymentId, h.targeted])).toEqual([
      ["dep-b", true],
    ]);
  });

  it("a change of lastUpdatedTime alone is no change; an app's record is its own", () => {
    const record = new HealthRecord();
    record.observe(status("a1", [["a1", 1, 1, 1]], "app-1"), seen(1));
    record.observe(status(undefined, [["b1", 2, 2, 1]], "app-2"), seen(1));
    record.observe(status("a1", [["a1", 1, 1, 99]], "app-1"), seen(2));
    record.observe(status("b1", [["b1", 2, 2, 1]], "app-2"), seen(3));
    expect(record.changes()).toEqual([
      { kind: "targeted", appId: "app-2", from: undefined, to: "b1", seenAt: 3, serverDate: -997 },
    ]);
    expect([...record.current().keys()]).toEqual(["a1", "b1"]);
  });

  it("keeps the newest changes within its bound", () => {
    const record = new HealthRecord(3);
    for (let i = 0; i <= 10; i++) record.observe(status("d", [["d", i, 10, i]]), seen(i));
    expect(record.changes().map((c) => (c.kind === "replicas" ? c.to?.ready : -1))).toEqual([
      8, 9, 10,
    ]);
  });
});

describe("DeploymentHealthFeed against a loopback server", () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.map((c) => c()));
    closers = [];
  });

  const clientOf = (url: string) =>
    new TurnkeyClient({
      baseUrl: url,
      organizationId: "org-1",
      apiKey: generateKeyPair(),
      retries: 0,
    });

  it("asks each app once per poll within the limit; one answering about another app is not used", async () => {
    let ready = 3;
    let inFlight = 0;
    let most = 0;
    const s = await scriptedServer((r, res) => {
      const { appId } = JSON.parse(r.body) as { appId: string };
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        if (appId === "app-odd") json(res, 200, { appStatus: status("x", [], "app-other") });
        else json(res, 200, { appStatus: status("dep-a", [["dep-a", ready, 3, 1]], appId) });
      }, 20);
    });
    closers.push(s.close);
    const feed = new DeploymentHealthFeed({
      client: clientOf(s.url),
      apps: () => ["app-1", "app-odd", "app-1"],
      intervalMs: 60_000,
      limit: new RequestLimit(1),
    });
    await feed.pollOnce();
    ready = 2;
    await feed.pollOnce();
    const snap = feed.store.getSnapshot();
    expect(s.requests.map((r) => JSON.parse(r.body).appId)).toEqual([
      "app-1",
      "app-odd",
      "app-1",
      "app-odd",
    ]);
    expect(most).toBe(1);
    expect(snap.error).toBeUndefined();
    expect(snap.data?.apps).toBe(2);
    expect(snap.data?.problems).toEqual([
      "app app-odd: get_app_status answered about app app-other, not used",
    ]);
    expect(snap.data?.deployments.get("dep-a")).toMatchObject({ ready: 2, desired: 3 });
    expect(snap.data?.changes).toMatchObject([
      { kind: "replicas", deploymentId: "dep-a", from: { ready: 3 }, to: { ready: 2 } },
    ]);
    // The server's Date of the answer is kept with the change.
    expect(snap.data?.changes[0]?.serverDate).toEqual(expect.any(Number));
  });

  it("is in its error state, the last health kept, only when no app answered", async () => {
    let failing = false;
    const s = await scriptedServer((_r, res) =>
      failing
        ? json(res, 403, { code: 7, message: "request not authorized", details: [] })
        : json(res, 200, { appStatus: status("d", [["d", 1, 1, 1]]) }),
    );
    closers.push(s.close);
    const feed = new DeploymentHealthFeed({
      client: clientOf(s.url),
      apps: () => ["app-1"],
      intervalMs: 60_000,
      limit: new RequestLimit(4),
    });
    await feed.pollOnce();
    failing = true;
    await feed.pollOnce();
    const snap = feed.store.getSnapshot();
    expect(snap.error).toMatch(/^app app-1: .*request not authorized/);
    expect(snap.failures).toBe(1);
    expect(snap.data?.deployments.get("d")).toMatchObject({ ready: 1, desired: 1 });
  });

  it("sends nothing while the deployments' apps are not known", async () => {
    const s = await scriptedServer((_r, res) => json(res, 500, {}));
    closers.push(s.close);
    const feed = new DeploymentHealthFeed({
      client: clientOf(s.url),
      apps: () => [],
      intervalMs: 60_000,
      limit: new RequestLimit(4),
    });
    await feed.pollOnce();
    expect(s.requests).toEqual([]);
    expect(feed.store.getSnapshot().data).toMatchObject({ apps: 0, problems: [] });
  });
});

describe("against the simulator's incident scenario", () => {
  it("the log session polls its deployment's app: ready replicas drop while replica 2 is down and come back", async () => {
    const clock = movableClock();
    const sim = await startSimulator({ port: 0, seed: 7, clock, scenario: "incident" });
    try {
      const c = sim.config;
      const client = new TurnkeyClient({
        baseUrl: c.baseUrl,
        organizationId: c.organizationId,
        apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
      });
      const sources = createDashboardSources(client, {
        emails: [],
        solanaAddresses: [],
        caip2: "solana:devnet",
        intervalMs: 250,
        sinceMs: 60_000,
        bufferLines: 1000,
      });
      const session = sources.openLogs([c.deploymentId]);
      const health = session.health;
      if (!health) throw new Error("the session polls no health");
      const main = () => health.store.getSnapshot().data?.deployments.get(c.deploymentId);
      const shown = () => `${main()?.ready}/${main()?.desired}`;
      session.start();
      try {
        // Known once the deployment's record named its app.
        await waitFor(async () => {
          await health.pollOnce();
          return main() !== undefined;
        }, "the deployment's health");
        expect(shown()).toBe("3/3");
        expect(main()?.targeted).toBe(true);
        clock.offset = 46_000;
        await waitFor(async () => {
          await health.pollOnce();
          return shown() === "2/3";
        }, "2/3 ready while replica 2 is down");
        clock.offset = 52_000;
        await waitFor(async () => {
          await health.pollOnce();
          return shown() === "3/3";
        }, "3/3 ready once it restarted");
        const changes = health.record
          .changes()
          .filter((x) => x.kind === "replicas" && x.deploymentId === c.deploymentId);
        expect(
          changes.map((x) => x.kind === "replicas" && `${x.from?.ready}->${x.to?.ready}`),
        ).toEqual(["3->2", "2->3"]);
        const [down, up] = changes;
        expect(
          down?.kind === "replicas" && up?.kind === "replicas" && up.updatedAt && down.updatedAt
            ? up.updatedAt - down.updatedAt
            : undefined,
        ).toBe(6_000);
      } finally {
        await session.stop();
      }
    } finally {
      await sim.close();
    }
  });

  it("the picker's list carries each deployment's ready/desired and which one is targeted", async () => {
    const sim = await startSimulator({ port: 0, seed: 7, scenario: "incident" });
    try {
      const c = sim.config;
      const client = new TurnkeyClient({
        baseUrl: c.baseUrl,
        organizationId: c.organizationId,
        apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
      });
      const withHealth = await listDeploymentChoices(client, undefined, undefined, undefined, {
        health: true,
      });
      const scenario = sim.service.scenario;
      expect(
        Object.fromEntries(
          withHealth.map((d) => [
            d.deploymentId,
            d.health && `${d.health.ready}/${d.health.desired}${d.health.targeted ? " T" : ""}`,
          ]),
        ),
      ).toEqual(
        Object.fromEntries(
          scenario.apps.flatMap((a) =>
            a.deployments.map((d) => [
              d.id,
              d.id === scenario.deploymentId
                ? "3/3 T"
                : d.id === scenario.canaryDeploymentId
                  ? "2/2"
                  : d.replicas === 0
                    ? "0/0"
                    : `${d.replicas}/${d.replicas} T`,
            ]),
          ),
        ),
      );
      // Without `health` nothing more is asked, and no row has health.
      const plain = await listDeploymentChoices(client);
      expect(plain.every((d) => d.health === undefined)).toBe(true);
    } finally {
      await sim.close();
    }
  });
});
