import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import { createDashboardSources, type LogSession } from "../../src/feeds/dashboard-sources.js";
import { debugDeployments, listDeploymentChoices } from "../../src/feeds/deployment-list.js";
import { shortLabels } from "../../src/logs/model/deployment-labels.js";
import type { StoreEvent } from "../../src/logs/model/log-line.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { waitFor } from "../helpers/wait-for.js";

let sim: RunningSimulator;
let client: TurnkeyClient;
let requests: string[] = [];
/** The debug-log request bodies, in order. */
const logBodies: Array<{ deploymentId: string; sinceSeconds?: string; tailLines?: number }> = [];
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  const clock = movableClock();
  sim = await startSimulator({ port: 0, seed: 21, logRate: 20, clock });
  // Lines of the last second and more at once, rather than waiting for them.
  clock.offset = 1200;
  const c = sim.config;
  client = new TurnkeyClient({
    baseUrl: c.baseUrl,
    organizationId: c.organizationId,
    apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
    fetch: async (input, init) => {
      if (!String(input).endsWith("get_tvc_deployment_debug_logs")) return fetch(input, init);
      const body = JSON.parse(String(init?.body));
      requests.push(body.deploymentId as string);
      logBodies.push(body);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        // Slow enough that polls of two deployments would overlap without the limit.
        await new Promise((r) => setTimeout(r, 120));
        return await fetch(input, init);
      } finally {
        inFlight -= 1;
      }
    },
  });
});
afterAll(() => sim.close());

function sourcesFor(intervalMs: number, maxConcurrent?: number, bufferLines = 10_000) {
  return createDashboardSources(client, {
    maxConcurrent,
    emails: [],
    solanaAddresses: [],
    caip2: "solana:devnet",
    intervalMs,
    sinceMs: 60_000,
    bufferLines,
  });
}

/** Everything the session's store holds, oldest first. */
function storeEvents(session: LogSession): StoreEvent[] {
  const out: StoreEvent[] = [];
  for (let i = 0; i < session.store.size(); i++) {
    const e = session.store.at(i)?.event;
    if (e) out.push(e);
  }
  return out;
}

const linesFrom = (session: LogSession, deploymentId: string) =>
  storeEvents(session).filter((e) => e.kind === "line" && e.deploymentId === deploymentId).length;

describe("the dashboard's log session over several deployments", () => {
  it("merges both deployments' lines in one store, each tagged and labelled, as one follow", async () => {
    // --max-concurrent 1: one request in flight at a time across both deployments.
    const sources = sourcesFor(200, 1);
    mostInFlight = 0;
    const main = sim.config.deploymentId;
    const appId = (await listDeploymentChoices(client)).find((c) => c.deploymentId === main)?.appId;
    // The simulator's payments-signer has two debug-mode deployments: its live one and a canary.
    const both = await debugDeployments(client, { app: appId });
    expect(both).toHaveLength(2);
    expect(both).toContain(main);
    const canary = both.find((id) => id !== main) as string;
    requests = [];
    const session = sources.openLogs([main, canary]);
    expect((session.follower.members?.() ?? []).map((m) => m.deploymentId)).toEqual([main, canary]);
    session.start();
    const deadline = Date.now() + 10_000;
    const from = () =>
      new Set(
        storeEvents(session).flatMap((e) =>
          e.kind === "line" && e.deploymentId ? [e.deploymentId] : [],
        ),
      );
    while (from().size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A few polls each, the limit holding them to one at a time.
    await waitFor(() => requests.length > 4, "more than 4 polls");
    await session.stop();
    expect(from()).toEqual(new Set([main, canary]));
    const labels = new Map(
      (session.follower.members?.() ?? []).map((m) => [m.deploymentId, m.label]),
    );
    let previous = -Infinity;
    for (const e of storeEvents(session)) {
      if (e.kind !== "line") continue;
      expect(e.replicaLabel).toMatch(
        new RegExp(`^${labels.get(e.deploymentId ?? "")} replica \\d+/\\d+$`),
      );
      expect(e.sortKey).toBeGreaterThanOrEqual(previous);
      previous = e.sortKey;
    }
    // Both were polled, and the group's figures count both deployments' lines.
    expect(new Set(requests)).toEqual(new Set([main, canary]));
    expect(requests.length).toBeGreaterThan(4);
    expect(mostInFlight).toBe(1);
    const total = (session.follower.members?.() ?? []).reduce(
      (n, m) => n + m.follower.getState().linesEmitted,
      0,
    );
    expect(session.follower.getState().linesEmitted).toBe(total);
    expect(session.replicas.snapshot().map((r) => r.label.replace(/ replica .*$/, ""))).toEqual(
      expect.arrayContaining([labels.get(main), labels.get(canary)]),
    );
    // Labelled by what Turnkey's records say they are: the app's live deployment and a canary.
    expect(labels.get(main)).toMatch(/^\w{6} 0\.7\.2 live$/);
    expect(labels.get(canary)).toMatch(/^\w{6} 0\.8\.0 canary$/);
  });

  it("asks the first window for no more lines per replica than the buffer keeps", async () => {
    const sources = sourcesFor(400, undefined, 12);
    const session = sources.openLogs([sim.config.deploymentId]);
    const from = logBodies.length;
    session.start();
    const deadline = Date.now() + 10_000;
    while (session.store.size() === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await session.stop();
    // The history --since asks for (a minute at 20 lines/s per replica), cut to 12 per replica.
    expect(logBodies[from]).toMatchObject({ sinceSeconds: "60", tailLines: 12 });
    const lines = storeEvents(session).filter((e) => e.kind === "line");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(12);
  });

  it("with one deployment leaves the labels as the server sends them", async () => {
    const sources = sourcesFor(400);
    const session = sources.openLogs([sim.config.deploymentId]);
    session.start();
    const deadline = Date.now() + 10_000;
    while (session.store.size() === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await session.stop();
    const e = session.store.at(0)?.event;
    expect(e?.kind === "line" && e.replicaLabel).toMatch(/^replica \d+\/\d+$/);
    expect(e?.kind === "line" && e.deploymentId).toBeFalsy();
  });

  it("with --app, follows a deployment that appears and stops following one that goes away, saying both", async () => {
    const sources = sourcesFor(300);
    const main = sim.config.deploymentId;
    const appId = (await listDeploymentChoices(client)).find((c) => c.deploymentId === main)?.appId;
    const both = await debugDeployments(client, { app: appId });
    const canary = both.find((id) => id !== main) as string;
    // The app's listing as it changes: the canary appears, then the live one goes away.
    const listings = [[main, canary], [main, canary], [canary]];
    let turn = 0;
    const session = sources.openLogs([main], {
      relist: async () => listings[Math.min(turn++, listings.length - 1)] as string[],
      everyMs: 400,
    });
    const ids = () => (session.follower.members?.() ?? []).map((m) => m.deploymentId);
    expect(ids()).toEqual([main]);
    session.start();
    const texts = () => storeEvents(session).flatMap((e) => (e.kind === "replica" ? [e.text] : []));
    const deadline = Date.now() + 10_000;
    while (!texts().some((t) => t.includes("no longer listed")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    // Lines of the canary came after it appeared.
    while (linesFrom(session, canary) === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await session.stop();
    const labels = shortLabels([main, canary]);
    expect(texts()).toEqual(
      expect.arrayContaining([
        `deployment ${canary} appeared: following it as ${labels.get(canary)}`,
        `deployment ${main} is no longer listed (or left debug mode): no longer followed`,
      ]),
    );
    expect(ids()).toEqual([canary]);
    expect(linesFrom(session, canary)).toBeGreaterThan(0);
  });

  it("with --max-deployments, follows at most N: says what the start left out, takes no more when one appears", async () => {
    const sources = sourcesFor(300);
    const main = sim.config.deploymentId;
    const appId = (await listDeploymentChoices(client)).find((c) => c.deploymentId === main)?.appId;
    const both = await debugDeployments(client, { app: appId });
    const canary = both.find((id) => id !== main) as string;
    let relists = 0;
    const session = sources.openLogs([main], {
      relist: async () => {
        relists += 1;
        return [main, canary];
      },
      everyMs: 300,
      maxDeployments: 1,
      atStart: { listed: 2, leftOut: 1 },
    });
    session.start();
    const deadline = Date.now() + 10_000;
    while (relists < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await session.stop();
    const notes = storeEvents(session).flatMap((e) => (e.kind === "replica" ? [e.text] : []));
    // Said once at the start; the relists left out as many, so they said nothing more.
    expect(notes).toEqual([
      "following 1 of 2 debug-mode deployments (by app, live first, newest first): 1 left out by --max-deployments 1; raise it to follow more",
    ]);
    expect((session.follower.members?.() ?? []).map((m) => m.deploymentId)).toEqual([main]);
    expect(linesFrom(session, canary)).toBe(0);
  });
});
