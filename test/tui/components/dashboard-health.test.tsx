/**
 * The followed deployments' health in the dashboard: the title's `2/3 ready` (at 80 and 160
 * columns, never cut before the deployment's name), `i`'s ready line and latest changes, several
 * deployments each with theirs, and a failed poll marking what is shown stale. The health comes
 * from a DeploymentHealthFeed over a real client and a loopback server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../../src/api/client.js";
import { generateKeyPair } from "../../../src/api/stamp.js";
import { DeploymentHealthFeed } from "../../../src/feeds/deployment-health.js";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { FollowerGroup, type GroupMember } from "../../../src/tail/follower-group.js";
import { RequestLimit } from "../../../src/tail/request-limit.js";
import { json, scriptedServer } from "../../helpers/http-server.js";
import { responseMeta } from "../../helpers/response-meta.js";
import { renderDashboard } from "../render-dashboard.js";

const MAIN = "073e2b01-5d1c-4a9e-8f3b-2a6c9d0e1f23";
const CANARY = "9c1e07aa-0000-4000-8000-000000000002";
const meta = responseMeta();

const closers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A loopback Turnkey whose app status the test sets, and a feed polling it. */
async function healthServer() {
  const state = { ready: 3, canaryReady: 2, failing: false, targeted: MAIN };
  const server = await scriptedServer((_r, res) => {
    if (state.failing)
      return json(res, 503, { code: 14, message: "upstream unavailable", details: [] });
    json(res, 200, {
      appStatus: {
        appId: "app-1",
        targetedDeploymentId: state.targeted,
        deployments: [
          {
            deploymentId: MAIN,
            readyReplicas: state.ready,
            desiredReplicas: 3,
            lastUpdatedTime: { seconds: "1795000000", nanos: "0" },
          },
          {
            deploymentId: CANARY,
            readyReplicas: state.canaryReady,
            desiredReplicas: 2,
            lastUpdatedTime: { seconds: "1795000000", nanos: "0" },
          },
        ],
      },
    });
  });
  closers.push(server.close);
  const feed = new DeploymentHealthFeed({
    client: new TurnkeyClient({
      baseUrl: server.url,
      organizationId: "org-1",
      apiKey: generateKeyPair(),
      retries: 0,
    }),
    apps: () => ["app-1"],
    intervalMs: 60_000,
    limit: new RequestLimit(4),
  });
  closers.push(() => feed.stop());
  await feed.pollOnce();
  return { state, feed };
}

async function member(deploymentId: string, label: string): Promise<GroupMember> {
  const follower = new LogFollower({ fetchLogs: async () => ({ data: { entries: [] }, meta }) });
  await follower.pollOnce();
  return { deploymentId, label, follower };
}

const app = {
  id: "app-1",
  organizationId: "org-1",
  name: "payments-signer",
  liveDeploymentId: MAIN,
};
const choice = deploymentChoice(app, {
  id: MAIN,
  organizationId: "org-1",
  appId: "app-1",
  debugMode: true,
  qosVersion: "0.7.2",
});

async function oneDeployment(size: { columns: number; rows: number }) {
  const { state, feed } = await healthServer();
  const members = [await member(MAIN, "073e2b 0.7.2 live")];
  const d = await renderDashboard({
    size,
    heading: {
      kind: "deployments",
      prefix: "demo (simulated) · ",
      deploymentId: MAIN,
      deployment: choice,
    },
    logs: (parts) => ({ store: parts.store, follow: new FollowerGroup(members), health: feed }),
  });
  closers.push(d.unmount);
  return { ...d, state, feed };
}

const titleOf = (frame: string) => frame.split("\n")[0] ?? "";

describe("deployment health in the dashboard", () => {
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 160, rows: 48 },
  ]) {
    it(`the title says ready/desired at ${size.columns}x${size.rows}, and drops while a replica is down`, async () => {
      const { state, feed, waitForFrame } = await oneDeployment(size);
      await waitForFrame((f) => {
        expect(titleOf(f)).toMatch(/payments-signer.*\(0\.7\.2 live\) · 3\/3 ready$/);
        expect(titleOf(f).length).toBeLessThanOrEqual(size.columns);
      });
      state.ready = 2;
      await feed.pollOnce();
      await waitForFrame((f) => expect(titleOf(f)).toMatch(/\(0\.7\.2 live\) · 2\/3 ready$/));
      state.ready = 3;
      await feed.pollOnce();
      await waitForFrame((f) => expect(titleOf(f)).toMatch(/ · 3\/3 ready$/));
    });
  }

  it("i says the deployment's ready replicas, that its app targets it, and the latest changes", async () => {
    const { state, feed, type, waitForFrame } = await oneDeployment({ columns: 160, rows: 48 });
    state.ready = 2;
    await feed.pollOnce();
    await type("i");
    await waitForFrame((f) => {
      expect(f).toMatch(
        /ready +2\/3 ready, targeted by its app \(serves its traffic\) · as Turnkey's get_app_status said \d+s ago/,
      );
      expect(f).toMatch(/health changes +\d+s ago: 073e2b 0\.7\.2 live 3\/3 ready → 2\/3 ready/);
    });
  });

  it("a failed poll keeps what was known, marked stale in the title and said in i", async () => {
    const { state, feed, type, waitForFrame } = await oneDeployment({ columns: 160, rows: 48 });
    state.failing = true;
    await feed.pollOnce();
    await waitForFrame((f) => expect(titleOf(f)).toMatch(/ · 3\/3 ready \(stale\)$/));
    await type("i");
    await waitForFrame((f) =>
      expect(f).toMatch(/3\/3 ready, targeted .* — the last poll failed: app app-1: UNAVAIL/),
    );
  });

  it("several deployments: each label with its ready/desired, and i lists each", async () => {
    const { state, feed } = await healthServer();
    const members = [
      await member(MAIN, "073e2b 0.7.2 live"),
      await member(CANARY, "9c1e07 0.8.0 canary"),
    ];
    const d = await renderDashboard({
      size: { columns: 160, rows: 48 },
      heading: { kind: "deployments", deploymentId: MAIN },
      logs: (parts) => ({ store: parts.store, follow: new FollowerGroup(members), health: feed }),
    });
    closers.push(d.unmount);
    state.canaryReady = 1;
    await feed.pollOnce();
    await d.waitForFrame((f) =>
      expect(titleOf(f)).toContain("2 deployments: 073e2b 0.7.2 live 3/3, 9c1e07 0.8.0 canary 1/2"),
    );
    await d.type("i");
    await d.waitForFrame((f) => {
      expect(f).toMatch(/ready +073e2b 0\.7\.2 live: 3\/3 ready, targeted by its app/);
      expect(f).toMatch(/9c1e07 0\.8\.0 canary: 1\/2 ready(?!, targeted)/);
    });
  });
});
