import { describe, expect, it } from "vitest";
import type {
  Activity,
  EmailEvent,
  SolTransaction,
  TvcApp,
  TvcDeployment,
} from "../../../src/api/schemas.js";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import type { Feeds } from "../../../src/feeds/feeds.js";
import { Poller } from "../../../src/feeds/poller.js";
import { keyMaker } from "../../../src/feeds/unique-keys.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { responseMeta } from "../../helpers/response-meta.js";
import type { Coverage } from "../hostile-values.js";
import {
  DASHBOARD_READS,
  HOSTILE,
  hostileGenerator,
  rawControlIn,
  response,
} from "../hostile-values.js";
import { pickerSources, renderApp, renderDashboard } from "../render-dashboard.js";

/** Every response the dashboard reads, hostile in every string field. */
function hostileResponses(variant: number) {
  const coverage: Coverage = { strings: new Set() };
  const gen = hostileGenerator(variant);
  const r = Object.fromEntries(DASHBOARD_READS.map((n) => [n, response(n, gen, coverage)])) as {
    list_activities: { activities: Activity[] };
    list_email_events: { emailEvents: EmailEvent[] };
    list_sol_transaction_history: { transactions: SolTransaction[] };
    list_tvc_apps: { tvcApps: TvcApp[] };
    list_tvc_app_deployments: { tvcDeployments: TvcDeployment[] };
    get_tvc_deployment: { tvcDeployment: TvcDeployment };
    whoami: Record<string, string>;
    get_tvc_deployment_debug_logs: { entries: never[] };
  };
  return { r, coverage };
}

async function hostileDashboard(variant: number, columns: number, rows: number) {
  const { r } = hostileResponses(variant);
  const store = new LogStore({ maxLines: 1000 });
  const follower = new LogFollower({
    fetchLogs: async () => ({ data: r.get_tvc_deployment_debug_logs, meta: responseMeta() }),
  });
  follower.onEvents((events) => store.append(events));
  await follower.pollOnce();
  const feeds: Feeds = {
    activities: new Poller({ intervalMs: 1000, fetch: async () => r.list_activities.activities }),
    email: new Poller({ intervalMs: 1000, fetch: async () => r.list_email_events.emailEvents }),
    solana: new Poller({
      intervalMs: 1000,
      fetch: async () => new Map([[HOSTILE, r.list_sol_transaction_history.transactions]]),
    }),
  };
  await Promise.all([
    feeds.activities.pollOnce(),
    feeds.email?.pollOnce(),
    feeds.solana?.pollOnce(),
  ]);
  const deployment = r.get_tvc_deployment.tvcDeployment;
  const shown = await renderDashboard({
    size: { columns, rows },
    logs: () => ({ store, follow: follower }),
    feeds,
    heading: {
      kind: "deployments",
      prefix: `${r.list_tvc_apps.tvcApps[0]?.name} · `,
      deploymentId: deployment.id,
      deployment: deploymentChoice(r.list_tvc_apps.tvcApps[0] as TvcApp, deployment),
    },
  });
  const press = async (...keys: string[]) => {
    for (const k of keys) await shown.type(k);
  };
  return { ui: shown.ui, press, store, r };
}

function expectNoRawControl(frames: readonly string[]) {
  expect(frames.length).toBeGreaterThan(0);
  for (const frame of frames) expect(rawControlIn(frame)).toBeUndefined();
}

describe("hostile values in every string field the dashboard reads", () => {
  it("the generator reaches every string field of those responses, through the operation table", () => {
    // The two variants take different options of each union (an open enum's string, a timestamp's
    // string or object form): together they reach every string.
    const fields = [
      ...hostileResponses(0).coverage.strings,
      ...hostileResponses(1).coverage.strings,
    ].map((path) => path.replaceAll("|", ""));
    // A sample of the fields the dashboard shows; a new field of a schema is covered the same way.
    for (const path of [
      "$.activities[0].status",
      "$.activities[0].type",
      "$.activities[0].fingerprint",
      "$.activities[0].votes[0].userId",
      "$.emailEvents[0].eventType",
      "$.emailEvents[0].toAddress",
      "$.emailEvents[0].details.diagnosticCode",
      "$.transactions[0].transfers[0].asset.symbol",
      "$.transactions[0].transfers[0].counterparty",
      "$.tvcApps[0].name",
      "$.tvcDeployments[0].id",
      "$.tvcDeployment.id",
      "$.username",
      "$.entries[0].line.content",
      "$.entries[0].replicaLabel",
    ]) {
      expect(fields).toContain(path);
    }
  });

  for (const variant of [0, 1]) {
    for (const [columns, rows] of [
      [160, 48],
      [80, 24],
    ] as const) {
      it(`never reach a frame raw: panes, title, status, help, picker, activity, email and transfer details (${columns}x${rows}, variant ${variant})`, async () => {
        const { ui, press } = await hostileDashboard(variant, columns, rows);
        // The counts header and rows (status), the email timeline and outcome (eventType), the
        // title (deployment id): the four fields that reached the terminal raw.
        expect(ui.lastFrame()).toContain("\\x1b]0;PWNED-TITLE\\x07");
        await press("w", "t", "?", "\u001b", "\t", "\u001b[B", "\r");
        expect(ui.lastFrame()).toMatch(/│ id +\\x1b/);
        await press("\u001b[B", "\u001b[6~", "\u001b");
        // The email pane's detail, then the Solana pane's.
        await press("\t", "\r");
        expect(ui.lastFrame()).toMatch(/message id +\\x1b/);
        await press("\u001b[6~", "\u001b", "\t", "\r");
        expect(ui.lastFrame()).toMatch(/signature +\\x1b/);
        await press("\u001b[6~", "\u001b", "\t", "/", HOSTILE.slice(0, 8), "\r", "7", "D");
        await press("f", "\u0007\u009b", "\r", "s");
        expectNoRawControl(ui.frames);
        ui.unmount();
      });
    }
  }

  it("never reach the deployment picker raw (apps, deployment ids, reasons)", async () => {
    for (const variant of [0, 1]) {
      const { r } = hostileResponses(variant);
      // Every app lists the same deployments here: keys made as the picker's listing makes them.
      const keyOf = keyMaker();
      const choices = r.list_tvc_apps.tvcApps.flatMap((app) =>
        r.list_tvc_app_deployments.tvcDeployments.map((d) => deploymentChoice(app, d, keyOf(d.id))),
      );
      const { ui, type, waitForFrame, unmount } = await renderApp({
        sources: await pickerSources(async () => choices),
        size: { columns: 100, rows: 24 },
      });
      await waitForFrame((f) => expect(f).toContain("\\x1b]0;PWNED-TITLE\\x07"));
      for (const k of ["\u001b[B", "\r", "\u001b[B", "\u001b[A"]) await type(k);
      expect(ui.lastFrame()).toContain("\\x1b]0;PWNED-TITLE\\x07");
      expectNoRawControl(ui.frames);
      await unmount();
    }
  });
});
