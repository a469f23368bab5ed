/**
 * A server that repeats ids, rendered: the deployment picker (a deployment listed twice in one
 * app and once in another), the activities, email and Solana panes. Each item is shown once,
 * marked with how many times it came, and React never sees two children with one key (its
 * warning goes to console.error, which the test watches).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnkeyClient } from "../../../src/api/client.js";
import type { EmailEvent } from "../../../src/api/schemas.js";
import { listDeploymentChoices } from "../../../src/feeds/deployment-list.js";
import type { Feeds } from "../../../src/feeds/feeds.js";
import { Poller } from "../../../src/feeds/poller.js";
import { json, scriptedServer } from "../../helpers/http-server.js";
import { activity, EMAILS, SOL } from "../fixtures.js";
import { pickerSources, renderApp, renderDashboard } from "../render-dashboard.js";

let errors: string[] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args.map(String).join(" "));
  });
});
afterEach(() => vi.restoreAllMocks());

const deployment = (id: string, appId: string) => ({
  id,
  organizationId: "org",
  appId,
  debugMode: true,
});

describe("ids a server repeats", () => {
  it("the picker shows a deployment listed three times once, marked", async () => {
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").pop();
      if (op === "list_tvc_apps")
        return json(res, 200, {
          tvcApps: [
            { id: "app-1", organizationId: "org", name: "payments" },
            { id: "app-2", organizationId: "org", name: "search" },
          ],
        });
      const appId = JSON.parse(req.body).appId as string;
      const twice = deployment("dep-twice", appId);
      return json(res, 200, {
        tvcDeployments: appId === "app-1" ? [twice, twice, deployment("dep-once", appId)] : [twice],
      });
    });
    const client = new TurnkeyClient({
      baseUrl: server.url,
      organizationId: "org",
      apiKey: {
        publicKey: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
        privateKey: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
      },
    });
    const choices = await listDeploymentChoices(client);
    await server.close();
    expect(choices.map((c) => [c.deploymentId, c.listed])).toEqual([
      ["dep-once", 1],
      ["dep-twice", 3],
    ]);
    const picker = await renderApp({
      sources: await pickerSources(async () => choices),
      size: { columns: 160, rows: 24 },
    });
    await picker.waitForFrame((frame) => {
      expect(frame.match(/dep-twice/g)).toHaveLength(1);
      expect(frame).toContain("listed 3 times by the server");
    });
    await picker.unmount();
    expect(errors.filter((e) => /same key/.test(e))).toEqual([]);
  });

  it("the activities, email and Solana panes show each once, marked, with unique keys", async () => {
    const a1 = activity("a1", "CONSENSUS_NEEDED", 30_000);
    // Two messages whose ids would give one key to two rows if keys were joined naively.
    const emails: EmailEvent[] = [
      ...EMAILS,
      ...EMAILS,
      ...EMAILS.map((e) => ({ ...e, id: `${e.id}-t`, messageId: `${e.messageId}:t` })),
    ];
    const [tx] = SOL as [(typeof SOL)[0]];
    const feeds: Feeds = {
      activities: new Poller({ intervalMs: 1000, fetch: async () => [a1, a1] }),
      email: new Poller({ intervalMs: 1000, fetch: async () => emails }),
      solana: new Poller({ intervalMs: 1000, fetch: async () => new Map([["addr", [tx, tx]]]) }),
    };
    await feeds.activities.pollOnce();
    await feeds.email?.pollOnce();
    await feeds.solana?.pollOnce();
    const { ui } = await renderDashboard({ feeds, size: { columns: 200, rows: 50 } });
    const frame = ui.lastFrame() ?? "";
    expect(frame).toContain("consensus 1");
    expect(frame).toContain("⚑ 1 awaiting your vote");
    expect(frame).toMatch(/sign_transaction v2 ×2/);
    expect(frame).toContain("alice@example.com · 2 repeated");
    expect(frame.match(/alice@example\.com/g)).toHaveLength(2); // messages m1 and m1:t
    expect(frame).toContain("×2 1.5 SOL");
    ui.unmount();
    expect(errors.filter((e) => /same key/.test(e))).toEqual([]);
  });
});
