/**
 * Selection by identity in the dashboard (issue #28): rows arriving above the selected one, rows
 * leaving and a poll replacing the list leave Enter and A on the activity the person selected;
 * when it leaves, the pane says so and the keys act on nothing. At 80 columns each activity row
 * shows enough of its id to tell it from the others. Email and Solana rows keep theirs too.
 */
import { describe, expect, it, vi } from "vitest";
import type { Activity, EmailEvent, SolTransaction } from "../../../src/api/schemas.js";
import type { ActivityVoting } from "../../../src/feeds/dashboard-sources.js";
import { activity, EMAILS, NOW, SOL } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

// Two share their first 8 characters: the rows must show more of them.
const FIRST = "418b4e9d-1111-4000-8000-000000000001";
const TWIN = "418b4e9d-2222-4000-8000-000000000002";
const OTHER = "384a246f-0000-4000-8000-000000000003";
const NEWCOMER = "f139a382-0000-4000-8000-000000000004";

const awaiting = (id: string, age: number) => ({
  ...activity(id, "CONSENSUS_NEEDED", age),
  fingerprint: `sha256:${id.slice(0, 8).repeat(8)}`,
});

const voting: ActivityVoting = {
  loadContext: async () => ({
    context: {
      viewer: { userId: "root-1", username: "oncall-root" },
      quorum: { threshold: 2, userIds: ["root-1", "root-2"] },
      userNames: new Map([["root-2", "sre-lead"]]),
      now: NOW,
    },
    notes: [],
  }),
  vote: vi.fn(async () => activity("x", "COMPLETED", 1)),
};

async function setup(options: { columns: number; rows: number; activities: Activity[] }) {
  const shown = await renderDashboard({
    parts: { activities: options.activities },
    size: { columns: options.columns, rows: options.rows },
    voting,
  });
  const feeds = shown.feeds as NonNullable<typeof shown.feeds>;
  return { ...shown, feeds };
}

const DOWN = "\u001b[B";
const ESC = "\u001b";

describe("selection by identity", () => {
  it("a new activity arriving at the top leaves Enter and A on the one selected", async () => {
    const start = [awaiting(FIRST, 10_000), awaiting(OTHER, 20_000), awaiting(TWIN, 30_000)];
    const { frame, type, feeds, settled } = await setup({
      columns: 160,
      rows: 48,
      activities: start,
    });
    await type("\t");
    await type(DOWN);
    await type(DOWN);
    // The poll brings a new activity above them all.
    feeds.activities.store.succeed([awaiting(NEWCOMER, 1_000), ...start], NOW, 5);
    await settled();
    await type("\r");
    expect(frame()).toContain(TWIN);
    expect(frame()).not.toContain(NEWCOMER);
    await type(ESC);
    await type("A");
    await vi.waitFor(() => expect(frame()).toContain("Approve this activity?"));
    expect(frame()).toMatch(new RegExp(`activity +${TWIN}`));
    expect(frame()).toContain(`sha256:${"418b4e9d".repeat(8)}`);
    await type(ESC);
    // ↓ goes on from where it is now: the last row, so it stays.
    await type(DOWN);
    await type("\r");
    expect(frame()).toContain(TWIN);
  });

  it("when the selected activity leaves the list, the pane says so and A, R, Enter act on nothing", async () => {
    const start = [awaiting(FIRST, 10_000), awaiting(OTHER, 20_000), awaiting(TWIN, 30_000)];
    const { frame, type, feeds, settled } = await setup({
      columns: 160,
      rows: 48,
      activities: start,
    });
    await type("\t");
    await type(DOWN);
    feeds.activities.store.succeed([awaiting(FIRST, 11_000), awaiting(TWIN, 31_000)], NOW, 5);
    await settled();
    expect(frame()).toContain("gone: activity 384a246f · ↑ ↓ select another");
    await type("A");
    expect(frame()).toContain(
      "activity 384a246f is no longer in the list: nothing to approve; ↑ ↓ select another",
    );
    expect(frame()).not.toContain("Approve this activity?");
    await type("R");
    expect(frame()).toContain("nothing to reject");
    await type("\r");
    expect(frame()).toContain("nothing to open");
    // ↓ selects the row now in its place.
    await type(DOWN);
    expect(frame()).not.toContain("gone:");
    await type("\r");
    expect(frame()).toContain(TWIN);
  });

  it("v keeps the selection on its activity; one that v hides is said to be gone until v again", async () => {
    const start = [
      activity("done-0000-aaaa", "COMPLETED", 5_000),
      awaiting(FIRST, 10_000),
      activity("fail-0000-bbbb", "FAILED", 20_000),
      awaiting(TWIN, 30_000),
    ];
    const { frame, type } = await setup({ columns: 160, rows: 48, activities: start });
    await type("\t");
    await type(DOWN);
    await type(DOWN);
    await type(DOWN);
    await type("v");
    expect(frame()).toContain("Activities · awaiting my vote");
    await type("\r");
    expect(frame()).toContain(TWIN);
    await type(ESC);
    await type("v");
    await type("\u001b[A");
    await type("v");
    expect(frame()).toContain("gone: activity fail-000");
    await type("v");
    expect(frame()).not.toContain("gone:");
    await type("\r");
    expect(frame()).toContain("fail-0000-bbbb");
  });

  it("at 80 columns each row shows enough of its id to tell it from the others", async () => {
    const { frame } = await setup({
      columns: 80,
      rows: 24,
      activities: [awaiting(FIRST, 10_000), awaiting(TWIN, 20_000), awaiting(OTHER, 30_000)],
    });
    const rows = frame().split("\n");
    expect(rows.find((r) => r.includes("418b4e9d-1"))).toMatch(/CONS 418b4e9d-1 /);
    expect(rows.find((r) => r.includes("418b4e9d-2"))).toMatch(/CONS 418b4e9d-2 /);
    expect(rows.find((r) => r.includes("384a246f"))).toMatch(/CONS 384a246f {3}/);
  });
});

describe("email and Solana rows keep their selection", () => {
  it("a new message or transfer arriving above the selected one: Enter still opens the one selected", async () => {
    const { frame, type, feeds, settled } = await setup({
      columns: 160,
      rows: 48,
      activities: [awaiting(FIRST, 10_000)],
    });
    await type("\t");
    await type("\t");
    const newer: EmailEvent = {
      ...(EMAILS[0] as EmailEvent),
      id: "e9",
      messageId: "m-newer",
      toAddress: "bob@example.com",
      timestamp: String(NOW - 100),
      createdAt: String(NOW - 100),
    };
    feeds.email?.store.succeed([newer, ...EMAILS], NOW, 5);
    await settled();
    await type("\r");
    expect(frame()).toContain("m1");
    expect(frame()).not.toContain("m-newer");
    await type(ESC);

    await type("\t");
    const tx = SOL[0] as SolTransaction;
    const newerTx: SolTransaction = {
      ...tx,
      signature: "sig-newer",
      block: { ...tx.block, timestamp: new Date(NOW - 100).toISOString() },
    };
    feeds.solana?.store.succeed(new Map([["addr", [newerTx, tx]]]), NOW, 5);
    await settled();
    await type("\r");
    expect(frame()).toMatch(/signature +sig1/);
  });
});
