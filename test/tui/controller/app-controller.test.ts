/**
 * The app controller without a terminal: the picker at start and over a running dashboard (D),
 * what Esc and a pick do to the dashboard behind it (the same controller, state kept; or a new
 * session, the old one stopped), the picker's list loaded each time it opens and again on r,
 * and the title learning the deployment's app.
 */
import { describe, expect, it, vi } from "vitest";
import type { TvcApp, TvcDeployment } from "../../../src/api/schemas.js";
import type { DashboardSources, LogSession } from "../../../src/feeds/dashboard-sources.js";
import { type DeploymentChoice, deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { ReplicaActivity } from "../../../src/logs/model/replica-activity.js";
import { FollowerGroup } from "../../../src/tail/follower-group.js";
import { AppController } from "../../../src/tui/controller/app-controller.js";
import type { KeyInfo } from "../../../src/tui/keys/key-bindings.js";
import { settle } from "../../helpers/settle.js";
import { dashboardParts } from "../fixtures.js";
import { stoppedClock } from "../render-dashboard.js";

const app = { id: "app-1", organizationId: "o", name: "payments-signer" } as TvcApp;
const dep = (id: string, debugMode = true) =>
  ({ id, organizationId: "o", appId: "app-1", debugMode }) as TvcDeployment;
const CHOICES = [
  deploymentChoice(app, dep("dep-aaaa")),
  deploymentChoice(app, dep("dep-bbbb")),
  deploymentChoice(app, dep("dep-cccc", false)),
];

const KEYS: Record<string, [string, KeyInfo]> = {
  esc: ["", { escape: true }],
  down: ["", { downArrow: true }],
  up: ["", { upArrow: true }],
  enter: ["", { return: true }],
};
const key = (c: AppController, ...names: string[]) => {
  for (const n of names) {
    const [input, info] = KEYS[n] ?? [n, {}];
    c.press(input, info);
  }
};

async function setup(deploymentIds?: string[], list?: () => Promise<DeploymentChoice[]>) {
  const parts = await dashboardParts();
  const sessions: { ids: readonly string[]; stopped: boolean }[] = [];
  const listDeployments = vi.fn(list ?? (async () => CHOICES));
  const sources: DashboardSources = {
    feeds: parts.feeds,
    voting: { loadContext: () => new Promise(() => {}), vote: () => new Promise(() => {}) },
    listDeployments,
    describeDeployment: async (id) => CHOICES.find((c) => c.deploymentId === id),
    openLogs: (ids): LogSession => {
      const record = { ids, stopped: false };
      sessions.push(record);
      return {
        store: new LogStore(),
        follower: new FollowerGroup(),
        replicas: new ReplicaActivity(),
        start: () => {},
        stop: async () => {
          record.stopped = true;
        },
      };
    },
  };
  const exit = vi.fn();
  const c = new AppController(
    { sources, clock: stoppedClock(), exit },
    { deploymentIds, size: { columns: 120, rows: 40 } },
  );
  c.start();
  await settle();
  return { c, sessions, listDeployments, exit };
}

describe("the app controller", () => {
  it("starts at the picker without a deployment; a pick opens its dashboard; Esc at start quits", async () => {
    const { c, sessions, exit } = await setup();
    expect(c.getSnapshot().dashboard).toBeUndefined();
    expect(c.getSnapshot().picker?.load.state).toBe("loaded");
    expect(c.getSnapshot().picker?.over).toBeUndefined();
    key(c, "down", "down", "enter");
    // dep-cccc is not in debug mode: refused, with why.
    expect(c.getSnapshot().picker?.state.note).toMatch(/^that one cannot be tailed/);
    key(c, "up", "enter");
    expect(sessions.map((s) => s.ids)).toEqual([["dep-bbbb"]]);
    expect(c.getSnapshot().picker).toBeUndefined();
    const title = c.getSnapshot().dashboard?.getSnapshot().title;
    expect(title).toBe("tvcwatch · payments-signer · deployment dep-bbbb");

    const atStart = await setup();
    key(atStart.c, "esc");
    expect(atStart.exit).toHaveBeenCalledWith({});
    expect(exit).not.toHaveBeenCalled();
  });

  it("D opens the picker over the dashboard; Esc and the scope shown return to the same dashboard", async () => {
    const { c, sessions, listDeployments } = await setup(["dep-aaaa"]);
    const dashboard = c.getSnapshot().dashboard;
    // The title learned the app's name.
    await vi.waitFor(() =>
      expect(dashboard?.getSnapshot().title).toContain("payments-signer · deployment dep-aaaa"),
    );
    key(c, "f", "x", "enter");
    expect(dashboard?.state.include).toEqual(["x"]);
    key(c, "D");
    await settle();
    const picker = c.getSnapshot().picker;
    expect(picker?.over?.ids).toEqual(["dep-aaaa"]);
    expect(picker?.list[0]).toMatchObject({ kind: "shown" });
    // Keys go to the picker while it is shown.
    key(c, "f");
    expect(dashboard?.state.input).toBeUndefined();
    key(c, "esc");
    expect(c.getSnapshot().picker).toBeUndefined();
    expect(c.getSnapshot().dashboard).toBe(dashboard);
    // Enter on the first row (what is shown), then on the same deployment's own row.
    key(c, "D");
    await settle();
    key(c, "enter");
    expect(c.getSnapshot().dashboard).toBe(dashboard);
    key(c, "D");
    await settle();
    key(c, "down", "enter");
    expect(c.getSnapshot().dashboard).toBe(dashboard);
    expect(dashboard?.state.include).toEqual(["x"]);
    expect(sessions).toEqual([{ ids: ["dep-aaaa"], stopped: false }]);
    expect(listDeployments).toHaveBeenCalledTimes(3);

    // Another deployment: a new session and dashboard, from the start; the old session stopped.
    key(c, "D");
    await settle();
    key(c, "down", "down", "enter");
    await settle();
    const fresh = c.getSnapshot().dashboard;
    expect(fresh).not.toBe(dashboard);
    expect(fresh?.state.include).toEqual([]);
    expect(sessions).toEqual([
      { ids: ["dep-aaaa"], stopped: true },
      { ids: ["dep-bbbb"], stopped: false },
    ]);
    await c.stop();
    expect(sessions[1]?.stopped).toBe(true);
  });

  it("a failed listing says why; r lists again; q quits with that error", async () => {
    const failure = new Error("list_tvc_apps: UNAUTHENTICATED: expired api key");
    let fail = true;
    const { c, listDeployments, exit } = await setup(undefined, async () => {
      if (fail) throw failure;
      return CHOICES;
    });
    expect(c.getSnapshot().picker?.load).toEqual({
      state: "failed",
      error: "list_tvc_apps: UNAUTHENTICATED: expired api key",
    });
    fail = false;
    key(c, "r");
    expect(c.getSnapshot().picker?.load.state).toBe("loading");
    await settle();
    expect(c.getSnapshot().picker?.load.state).toBe("loaded");
    expect(listDeployments).toHaveBeenCalledTimes(2);
    fail = true;
    key(c, "q");
    expect(exit).toHaveBeenCalledWith({});

    const failed = await setup(undefined, async () => {
      throw failure;
    });
    key(failed.c, "q");
    expect(failed.exit).toHaveBeenCalledWith({ error: failure });
  });

  it("a resize reaches the dashboard shown and the one opened next", async () => {
    const { c } = await setup(["dep-aaaa"]);
    c.resize(80, 24);
    expect(c.getSnapshot().dashboard?.getSnapshot().layout.total.width).toBe(80);
    expect(c.getSnapshot().size).toEqual({ columns: 80, rows: 24 });
  });
});
