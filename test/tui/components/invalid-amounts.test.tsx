/**
 * Amounts a server states that cannot be true, rendered: a negative transfer in the Solana pane
 * is shown as invalid (never as income), and the net flow counts only the valid transfer (the
 * fee's column and the detail view: test/tui/panes/view-models.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { SolTransaction } from "../../../src/api/schemas.js";
import type { Feeds } from "../../../src/feeds/feeds.js";
import { Poller } from "../../../src/feeds/poller.js";
import { SOL } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

describe("invalid amounts in the Solana pane", () => {
  it("a negative amount is shown as invalid and left out of the net flow", async () => {
    const [good] = SOL as [SolTransaction];
    const negative: SolTransaction = {
      ...good,
      signature: "sig-negative",
      fee: { amount: "-1", caip19: "c" },
      transfers: [
        { ...(good.transfers[0] as SolTransaction["transfers"][0]), amount: "-5000000000" },
      ],
    };
    const feeds: Feeds = {
      activities: new Poller({ intervalMs: 1000, fetch: async () => [] }),
      email: undefined,
      solana: new Poller({
        intervalMs: 1000,
        fetch: async () => new Map([["addr", [good, negative]]]),
      }),
    };
    await feeds.activities.pollOnce();
    await feeds.solana?.pollOnce();
    const { ui } = await renderDashboard({ feeds, size: { columns: 200, rows: 50 } });
    const frame = ui.lastFrame() ?? "";
    expect(frame).toContain("(invalid: -5) SOL");
    expect(frame).not.toMatch(/IN +-5 SOL/);
    // The net flow is the valid 1.5 SOL in, not 1.5 - 5.
    expect(frame).toMatch(/net\b.*\+1\.5 SOL/);
    ui.unmount();
  });
});
