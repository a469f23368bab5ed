/**
 * Enter on a log line lists the ids it mentions that a side pane knows; ↑↓ and Enter, or a
 * number, open that record's detail (the one the pane's Enter opens), chosen by its identity:
 * records coming or going in the panes meanwhile do not change which one opens. Esc goes back.
 */
import { describe, expect, it, vi } from "vitest";
import { DashboardController } from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import { settle } from "../../helpers/settle.js";
import { activity, dashboardParts, line } from "../fixtures.js";
import { stoppedClock } from "../render-dashboard.js";

const ACT = "0193a4b2-7c1d-7e00-9f3a-5b6c7d8e9f01";
const OTHER = "0193a4c9-0000-7e00-9f3a-000000000002";

function detailOf(s: DashboardSnapshot) {
  if (s.body.kind !== "detail" || !s.body.view) return undefined;
  const v = s.body.view;
  return { title: v.title as string, fields: v.fields.map((f) => [f.label, f.lines.join("\n")]) };
}

async function opened(text: string) {
  const parts = await dashboardParts({
    activities: [activity(ACT, "CONSENSUS_NEEDED", 30_000), activity(OTHER, "FAILED", 60_000)],
  });
  parts.store.append([line(0, 1, "INFO warming up"), line(1, 2, text)]);
  const c = new DashboardController(
    {
      logs: { store: parts.store },
      feeds: parts.feeds,
      clock: stoppedClock(),
      quit: vi.fn(),
    },
    { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
  );
  c.start();
  await settle();
  // Paused, the cursor is on the newest line; Enter opens its detail.
  c.press(" ", {});
  c.press("", { return: true });
  return { c, ...parts };
}

describe("from a log line to the records it mentions", () => {
  it("lists the ids a pane knows, and opens the chosen record's detail by its identity", async () => {
    const { c, feeds } = await opened(
      `ERROR signer: activity ${ACT.slice(0, 8)} timed out; mailed alice@example.com about ${OTHER}`,
    );
    const line = detailOf(c.getSnapshot());
    expect(line?.title).toContain("Log line");
    const mentions = line?.fields.find(([label]) => label === "mentions")?.[1] ?? "";
    expect(mentions.split("\n").slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`^  1 activity ${ACT} \\(as ${ACT.slice(0, 8)}…\\)`)),
      expect.stringMatching(/^ {2}2 email to alice@example\.com · message m1/),
      expect.stringMatching(new RegExp(`^  3 activity ${OTHER} · sign_transaction v2 · failed`)),
    ]);
    // ↓ ↓ chooses the second; a new activity arriving in the pane meanwhile (first in its list)
    // changes no choice: Enter opens the email message chosen.
    c.press("", { downArrow: true });
    c.press("", { downArrow: true });
    expect(detailOf(c.getSnapshot())?.fields[0]?.[1]).toMatch(/^ {2}1 .*\n▸ 2 email/);
    feeds.activities.store.succeed(
      [
        activity("0193ffff-new0-0000-0000-000000000000", "PENDING", 100),
        ...(feeds.activities.store.getSnapshot().data ?? []),
      ],
      Date.now(),
      1,
    );
    c.press("", { return: true });
    expect(detailOf(c.getSnapshot())?.title).toBe("Email to alice@example.com");
    // Esc is back at the line, its choice kept; 3 opens the third record, the pane's own detail.
    c.press("", { escape: true });
    expect(detailOf(c.getSnapshot())?.fields[0]?.[1]).toMatch(/▸ 2 email/);
    c.press("3", {});
    const record = detailOf(c.getSnapshot());
    expect(record?.title).toBe("Activity sign_transaction v2");
    expect(record?.fields.some(([, v]) => v?.includes(OTHER))).toBe(true);
    c.stop();
  });

  it("says so when the line names no id a pane knows, or a number past those listed", async () => {
    const { c } = await opened(`ERROR ledger: upstream timeout after 5000ms (activity 0193zzzz)`);
    expect(detailOf(c.getSnapshot())?.fields.map(([label]) => label)).not.toContain("mentions");
    c.press("", { return: true });
    expect(c.state.notice).toBe("this line mentions no id a pane knows");
    c.stop();
    const { c: two } = await opened(`WARN retrying ${ACT}`);
    two.press("4", {});
    expect(two.state.notice).toBe("no id 4: the line mentions 1");
    two.press("", { return: true });
    expect(two.state.notice).toBe("choose an id first: ↑↓ then Enter, or its number");
    two.stop();
  });
});
