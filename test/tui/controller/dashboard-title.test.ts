import { describe, expect, it } from "vitest";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { dashboardTitle } from "../../../src/tui/controller/dashboard-title.js";

const app = (live?: string) => ({
  id: "app-1",
  organizationId: "org",
  name: "payments-signer",
  ...(live ? { liveDeploymentId: live } : {}),
});
const deployment = (id: string, qosVersion?: string) => ({
  id,
  organizationId: "org",
  appId: "app-1",
  debugMode: true,
  ...(qosVersion ? { qosVersion } : {}),
});

describe("the dashboard's title", () => {
  it("names the deployment by its app, id, version and whether it is the app's live one", () => {
    const title = (live: string | undefined, qos: string | undefined) =>
      dashboardTitle(
        {
          kind: "deployments",
          deploymentId: "dep-1",
          deployment: deploymentChoice(app(live), deployment("dep-1", qos)),
        },
        [],
        200,
      );
    expect(title("dep-1", "0.7.2")).toBe(
      "tvcwatch · payments-signer · deployment dep-1 (0.7.2 live)",
    );
    expect(title("dep-9", "0.8.0")).toBe(
      "tvcwatch · payments-signer · deployment dep-1 (0.8.0 canary)",
    );
    // The records say neither: nothing is guessed.
    expect(title(undefined, undefined)).toBe("tvcwatch · payments-signer · deployment dep-1");
  });

  it("keeps the version and role at 80 columns: the id shortened, then the word deployment left out", () => {
    const heading = {
      kind: "deployments" as const,
      prefix: "demo (simulated) · ",
      deploymentId: "073e2b01-5d1c-4a9e-8f3b-2a6c9d0e1f23",
      deployment: deploymentChoice(
        app("073e2b01-5d1c-4a9e-8f3b-2a6c9d0e1f23"),
        deployment("073e2b01-5d1c-4a9e-8f3b-2a6c9d0e1f23", "0.7.2"),
      ),
    };
    expect(dashboardTitle(heading, [], 81)).toBe(
      "tvcwatch · demo (simulated) · payments-signer · deployment 073e2b01… (0.7.2 live)",
    );
    expect(dashboardTitle(heading, [], 80)).toBe(
      "tvcwatch · demo (simulated) · payments-signer · 073e2b01… (0.7.2 live)",
    );
  });

  it("says ready/desired last and never cuts it; the id shortens, then goes, before the version and role", () => {
    const id = "073e2b01-5d1c-4a9e-8f3b-2a6c9d0e1f23";
    const heading = {
      kind: "deployments" as const,
      prefix: "demo (simulated) · ",
      deploymentId: id,
      deployment: deploymentChoice(app(id), deployment(id, "0.7.2")),
    };
    const health = (ready: number, error?: string) => ({
      data: {
        deployments: new Map([
          [
            id,
            {
              deploymentId: id,
              appId: "app-1",
              ready,
              desired: 3,
              targeted: true,
              updatedAt: undefined,
            },
          ],
        ]),
        changes: [],
        problems: [],
        apps: 1,
      },
      lastUpdated: 1,
      error,
      failures: error ? 1 : 0,
      latencyMs: 1,
    });
    expect(dashboardTitle(heading, [], 200, health(2))).toBe(
      `tvcwatch · demo (simulated) · payments-signer · deployment ${id} (0.7.2 live) · 2/3 ready`,
    );
    expect(dashboardTitle(heading, [], 80, health(2))).toBe(
      "tvcwatch · demo (simulated) · payments-signer · 073e2b… (0.7.2 live) · 2/3 ready",
    );
    expect(dashboardTitle(heading, [], 72, health(3))).toBe(
      "tvcwatch · demo (simulated) · payments-signer (0.7.2 live) · 3/3 ready",
    );
    expect(dashboardTitle(heading, [], 60, health(3, "HTTP 503"))).toBe(
      "tvcwatch · demo (simulated) · payments-… · 3/3 ready (stale)",
    );
    // Not known (yet): nothing is said.
    expect(dashboardTitle(heading, [], 200)).not.toContain("ready");
  });

  it("names several by their labels, which carry the version and role", () => {
    expect(
      dashboardTitle(
        { kind: "deployments", deploymentId: "a" },
        [{ label: "9463b1 0.7.2 live" }, { label: "0c7e55 0.8.0 canary" }],
        200,
      ),
    ).toBe("tvcwatch · 2 deployments: 9463b1 0.7.2 live, 0c7e55 0.8.0 canary");
  });
});
