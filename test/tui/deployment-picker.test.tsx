import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import type { DeploymentChoice } from "../../src/feeds/deployment-list.js";
import { listDeploymentChoices } from "../../src/feeds/deployment-list.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { DeploymentPicker } from "../../src/tui/components/deployment-picker.js";
import { render } from "./render-at.js";

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

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

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
    const ui = render(
      <DeploymentPicker
        load={{ state: "loading" }}
        onPick={() => {}}
        onQuit={() => {}}
        width={120}
        rows={24}
      />,
    );
    await settle();
    expect(ui.lastFrame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] loading the organization's deployments/);
    ui.rerender(
      <DeploymentPicker
        load={{ state: "loaded", choices }}
        onPick={() => {}}
        onQuit={() => {}}
        width={120}
        rows={24}
      />,
    );
    await settle();
    const frame = ui.lastFrame() ?? "";
    expect(frame).toContain("● debug mode: its logs can be read");
    expect(frame).toContain("payments-signer");
    expect(frame).toMatch(/○ .*not in debug mode · live/);
    expect(frame).toMatch(/live/);
  });

  it("picks a debug-mode deployment with Enter and refuses the others, saying why", async () => {
    const onPick = vi.fn();
    const onQuit = vi.fn();
    const ui = render(
      <DeploymentPicker
        load={{ state: "loaded", choices }}
        onPick={onPick}
        onQuit={onQuit}
        width={100}
        rows={20}
      />,
    );
    await settle();
    for (let i = 0; i < 2; i++) {
      ui.stdin.write("\u001b[B");
      await settle();
    }
    ui.stdin.write("\r");
    await settle();
    expect(onPick).not.toHaveBeenCalled();
    expect(ui.lastFrame()).toMatch(/cannot be tailed \(not in debug mode.*\): pick one marked ●/);
    for (let i = 0; i < 2; i++) {
      ui.stdin.write("\u001b[A");
      await settle();
    }
    ui.stdin.write("\r");
    await settle();
    expect(onPick).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: "deployment",
        choice: expect.objectContaining({ deploymentId: choices[0]?.deploymentId, tailable: true }),
      }),
    );
    ui.stdin.write("q");
    await settle();
    expect(onQuit).toHaveBeenCalled();
  });

  it("a failed load says why in one line, and r loads again", async () => {
    const onRetry = vi.fn();
    const ui = render(
      <DeploymentPicker
        load={{
          state: "failed",
          error: "list_tvc_apps: UNAUTHENTICATED (16, HTTP 401): expired api key",
        }}
        onPick={() => {}}
        onQuit={() => {}}
        onRetry={onRetry}
        width={120}
        rows={24}
      />,
    );
    await settle();
    expect(ui.lastFrame()).toContain("expired api key · r retries · q quits");
    ui.stdin.write("r");
    await settle();
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
