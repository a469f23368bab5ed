import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TurnkeyClient } from "../../../src/api/client.js";
import type { DeploymentChoice } from "../../../src/feeds/deployment-list.js";
import { listDeploymentChoices } from "../../../src/feeds/deployment-list.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { ReplicaActivity } from "../../../src/logs/model/replica-activity.js";
import type { RunningSimulator } from "../../../src/sim/server.js";
import { startSimulator } from "../../../src/sim/server.js";
import { FollowerGroup } from "../../../src/tail/follower-group.js";
import { pickerSources, renderApp } from "../render-dashboard.js";

let sim: RunningSimulator;
let choices: DeploymentChoice[];
let calls: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 12 });
  const c = sim.config;
  const client = new TurnkeyClient({
    baseUrl: c.baseUrl,
    organizationId: c.organizationId,
    apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
    fetch: async (input, init) => {
      calls.push(String(input).split("/").pop() as string);
      return fetch(input, init);
    },
  });
  calls = [];
  choices = await listDeploymentChoices(client);
});
afterAll(() => sim.close());

describe("the deployment list", () => {
  it("lists every deployment, debug-mode first, each other one with why it cannot be tailed", () => {
    // payments-signer's debug deployment and its canary, then the two that are not in debug mode.
    expect(choices).toHaveLength(4);
    expect(choices.slice(0, 2).every((c) => c.tailable)).toBe(true);
    expect(choices.map((c) => c.deploymentId)).toContain(sim.config.deploymentId);
    expect(
      choices.slice(2).every((c) => !c.tailable && c.reason?.includes("not in debug mode")),
    ).toBe(true);
    // One call for the apps, then one per app (made together).
    expect(calls[0]).toBe("list_tvc_apps");
    expect(calls.slice(1).every((c) => c === "list_tvc_app_deployments")).toBe(true);
  });
});

describe("the deployment picker", () => {
  it("shows a spinner while loading, names apps and deployments, and says why one cannot be tailed", async () => {
    let answer: (c: DeploymentChoice[]) => void = () => {};
    const { frame, waitForFrame, unmount } = await renderApp({
      sources: await pickerSources(() => new Promise((resolve) => (answer = resolve))),
      size: { columns: 120, rows: 24 },
    });
    expect(frame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] loading the organization's deployments/);
    answer(choices);
    await waitForFrame((f) => {
      expect(f).toContain("● debug mode: its logs can be read");
      expect(f).toContain("payments-signer");
      expect(f).toMatch(/○ .*not in debug mode · live/);
      expect(f).not.toContain("loading");
    });
    await unmount();
  });

  it("picks a debug-mode deployment with Enter and refuses the others, saying why", async () => {
    const opened: (readonly string[])[] = [];
    const sources = await pickerSources(async () => choices);
    sources.openLogs = (ids) => {
      opened.push(ids);
      return {
        store: new LogStore(),
        follower: new FollowerGroup(),
        replicas: new ReplicaActivity(),
        start: () => {},
        stop: async () => {},
      };
    };
    const { frame, type, exit, waitForFrame, unmount } = await renderApp({
      sources,
      size: { columns: 100, rows: 20 },
    });
    await waitForFrame((f) => expect(f).toContain("payments-signer"));
    await type(DOWN);
    await type(DOWN);
    await type("\r");
    expect(opened).toEqual([]);
    expect(frame()).toMatch(/cannot be tailed \(not in debug mode.*\): pick one marked ●/);
    await type(UP);
    await type(UP);
    await type("\r");
    expect(opened).toEqual([[choices[0]?.deploymentId]]);
    expect(frame()).toContain(`deployment ${choices[0]?.deploymentId}`);
    await type("q");
    expect(exit).toHaveBeenCalledWith({});
    await unmount();
  });

  it("shows each deployment's ready/desired replicas and which one its app targets", async () => {
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
    const main = withHealth.find((d) => d.deploymentId === scenario.deploymentId);
    const canary = withHealth.find((d) => d.deploymentId === scenario.canaryDeploymentId);
    // A status that could not be read leaves a deployment without health: "—".
    const unknown = withHealth.map((d) =>
      d.deploymentId === scenario.canaryDeploymentId ? { ...d, health: undefined } : d,
    );
    for (const columns of [160, 80]) {
      const { waitForFrame, unmount } = await renderApp({
        sources: await pickerSources(async () => unknown),
        size: { columns, rows: 24 },
      });
      await waitForFrame((f) => {
        const rowOf = (id: string | undefined) =>
          f.split("\n").find((l) => id !== undefined && l.includes(id.slice(0, 8))) ?? "";
        expect(f).toMatch(/app +deployme.* +ready state/);
        expect(rowOf(main?.deploymentId)).toMatch(/ 3\/3 targeted · live/);
        expect(rowOf(canary?.deploymentId)).toMatch(/ — (?!.*targeted)/);
        // The selected (first) row says it in words below the list.
        expect(f).toMatch(/3\/3 ready, targeted by its app · Enter watches it/);
      });
      await unmount();
    }
  });

  it("a failed load says why in one line, r loads again, and q quits with that error", async () => {
    const failure = new Error("list_tvc_apps: UNAUTHENTICATED (16, HTTP 401): expired api key");
    const list = vi.fn(async (): Promise<DeploymentChoice[]> => {
      throw failure;
    });
    const { type, exit, waitForFrame, unmount } = await renderApp({
      sources: await pickerSources(list),
      size: { columns: 120, rows: 24 },
    });
    await waitForFrame((f) => expect(f).toContain("expired api key · r retries · q quits"));
    await type("r");
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    await type("q");
    expect(exit).toHaveBeenCalledWith({ error: failure });
    await unmount();
  });
});

const DOWN = "\u001b[B";
const UP = "\u001b[A";
