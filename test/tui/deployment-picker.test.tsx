import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import type { DeploymentChoice } from "../../src/feeds/deployment-list.js";
import { listDeploymentChoices } from "../../src/feeds/deployment-list.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { DeploymentPicker } from "../../src/tui/components/deployment-picker.js";

let sim: RunningSimulator;
let choices: DeploymentChoice[];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 12 });
  const c = sim.config;
  const client = new TurnkeyClient({
    baseUrl: c.baseUrl,
    organizationId: c.organizationId,
    apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
  });
  choices = await listDeploymentChoices(client);
});
afterAll(() => sim.close());

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe("the deployment picker", () => {
  it("lists every deployment, debug-mode first, the others marked with why they cannot be tailed", () => {
    expect(choices).toHaveLength(3);
    expect(choices[0]).toMatchObject({ tailable: true, deploymentId: sim.config.deploymentId });
    expect(
      choices.slice(1).every((c) => !c.tailable && c.reason?.includes("not in debug mode")),
    ).toBe(true);
  });

  it("picks a debug-mode deployment with Enter and refuses the others", async () => {
    const onPick = vi.fn();
    const onQuit = vi.fn();
    const ui = render(
      <DeploymentPicker choices={choices} onPick={onPick} onQuit={onQuit} rows={20} />,
    );
    await settle();
    expect(ui.lastFrame()).toContain("[not tailable]");
    ui.stdin.write("\u001b[B");
    await settle();
    expect(ui.lastFrame()).toContain("not in debug mode");
    ui.stdin.write("\r");
    await settle();
    expect(onPick).not.toHaveBeenCalled();
    expect(ui.lastFrame()).toMatch(/pick a debug-mode deployment/);
    ui.stdin.write("\u001b[A");
    await settle();
    ui.stdin.write("\r");
    await settle();
    expect(onPick).toHaveBeenCalledWith(
      expect.objectContaining({ deploymentId: sim.config.deploymentId }),
    );
    ui.stdin.write("q");
    await settle();
    expect(onQuit).toHaveBeenCalled();
  });
});
