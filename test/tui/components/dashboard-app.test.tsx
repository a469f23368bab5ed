/**
 * `D` without loss (issue #28): the picker opens over the running dashboard, whose follow goes
 * on; Esc, or the deployment shown, returns to it with its buffer, filters, cursor and marks;
 * only another deployment starts a new session. At start, without a deployment, Esc quits.
 */
import { describe, expect, it, vi } from "vitest";
import type { TvcApp, TvcDeployment } from "../../../src/api/schemas.js";
import type { DashboardSources, LogSession } from "../../../src/feeds/dashboard-sources.js";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { ReplicaActivity } from "../../../src/logs/model/replica-activity.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { responseMeta } from "../../helpers/response-meta.js";
import { dashboardParts, line } from "../fixtures.js";
import { renderApp } from "../render-dashboard.js";

const app = { id: "app-1", organizationId: "o", name: "payments-signer" } as TvcApp;
const dep = (id: string) =>
  ({ id, organizationId: "o", appId: "app-1", debugMode: true }) as TvcDeployment;
const CHOICES = [deploymentChoice(app, dep("dep-aaaa")), deploymentChoice(app, dep("dep-bbbb"))];

async function sources() {
  const parts = await dashboardParts();
  const sessions: { ids: readonly string[]; stopped: boolean; store: LogStore }[] = [];
  const lists = vi.fn(async () => CHOICES);
  const s: DashboardSources = {
    feeds: parts.feeds,
    voting: { loadContext: () => new Promise(() => {}), vote: async () => Promise.reject() },
    listDeployments: lists,
    describeDeployment: async () => undefined,
    openLogs: (ids): LogSession => {
      const store = new LogStore({ maxLines: 1000 });
      store.append(
        Array.from({ length: 40 }, (_, i) => line(i, (i % 3) + 1, `${ids[0]} request ${i}`)),
      );
      const record = { ids, stopped: false, store };
      sessions.push(record);
      const follower = new LogFollower({
        fetchLogs: async () => ({ data: { entries: [] }, meta: responseMeta() }),
      });
      return {
        store,
        follower,
        replicas: new ReplicaActivity(),
        start: () => {},
        stop: async () => {
          record.stopped = true;
        },
      };
    },
  };
  return { s, sessions, lists };
}

async function open(deploymentIds?: string[]) {
  const { s, sessions, lists } = await sources();
  const shown = await renderApp({ sources: s, deploymentIds, size: { columns: 140, rows: 40 } });
  return { ...shown, sessions, lists, onExit: shown.exit };
}

const ESC = "\u001b";
const DOWN = "\u001b[B";
const UP = "\u001b[A";

describe("D without loss", () => {
  it("opens the picker over the dashboard; Esc and the deployment shown return to it unchanged", async () => {
    const { frame, type, sessions, lists } = await open(["dep-aaaa"]);
    expect(frame()).toContain("dep-aaaa request 39");
    // A filter, a pause with the cursor moved up, and a mark.
    await type("f");
    await type("request 1\r");
    await type(UP);
    await type(UP);
    await type("m");
    await type(UP);
    const before = frame();
    expect(before).toContain("+/request 1/");
    expect(before).toContain("[3]*dep-aaaa request 17");
    expect(before).toContain("[2]>dep-aaaa request 16");

    await type("D");
    expect(frame()).toContain("pick a deployment to watch, or go back to the one shown");
    expect(frame()).toContain("↩ shown now: deployment dep-aaaa");
    expect(frame()).toContain("shown now: Enter returns to the dashboard as it is");
    // The title and the status line stay: the follow goes on behind the picker.
    expect(frame()).toContain("tvcwatch · deployment dep-aaaa");
    expect(frame()).toContain("+/request 1/");
    await vi.waitFor(() => expect(frame()).toContain("payments-signer"));
    await type(ESC);
    expect(frame()).toBe(before);

    // Enter on the row of what is shown, then on the same deployment's own row.
    await type("D");
    await vi.waitFor(() => expect(frame()).toContain("dep-bbbb"));
    await type("\r");
    expect(frame()).toBe(before);
    await type("D");
    await vi.waitFor(() => expect(frame()).toContain("dep-bbbb"));
    await type(DOWN);
    expect(frame()).toContain("shown now: Enter returns to the dashboard as it is");
    await type("\r");
    expect(frame()).toBe(before);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.stopped).toBe(false);
    expect(lists).toHaveBeenCalledTimes(3);

    // Another deployment: a new session, from the start; the old one is stopped.
    await type("D");
    await vi.waitFor(() => expect(frame()).toContain("dep-bbbb"));
    await type(DOWN);
    await type(DOWN);
    expect(frame()).toContain("Enter watches it (the dashboard starts afresh)");
    await type("\r");
    await vi.waitFor(() => expect(frame()).toContain("dep-bbbb request 39"));
    expect(sessions.map((x) => [x.ids, x.stopped])).toEqual([
      [["dep-aaaa"], true],
      [["dep-bbbb"], false],
    ]);
    expect(frame()).not.toContain("+/request 1/");
    expect(frame()).toContain("payments-signer · deployment dep-bbbb");
  });

  it("at start, without a deployment: the picker alone, and Esc quits", async () => {
    const { frame, type, onExit } = await open();
    await vi.waitFor(() => expect(frame()).toContain("tvcwatch · pick a deployment to watch"));
    expect(frame()).not.toContain("shown now");
    await type(ESC);
    expect(onExit).toHaveBeenCalledWith({});
  });
});
