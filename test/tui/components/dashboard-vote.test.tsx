/**
 * Acting on the activity queue from the dashboard (issue #14): A / R show what is decided and y
 * sends the vote through the fetcher the CLI wired; the row changes at once; keys say why not
 * where no vote can be cast; v shows only what awaits my vote; a newly awaiting activity rings
 * the bell once.
 */
import { describe, expect, it, vi } from "vitest";
import type { Activity } from "../../../src/api/schemas.js";
import type { ActivityVoting } from "../../../src/feeds/dashboard-sources.js";
import { activity, NOW, voter } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

const LONG_FINGERPRINT = `sha256:${"ab12".repeat(16)}`;

function votingWith(answer: (action: string, fingerprint: string) => Promise<Activity>) {
  const vote = vi.fn(answer);
  const voting: ActivityVoting = {
    loadContext: async () => ({
      context: {
        viewer: { userId: "root-1", username: "oncall-root" },
        quorum: { threshold: 2, userIds: ["root-1", "root-2"] },
        userNames: new Map([
          ["root-1", "oncall-root"],
          ["root-2", "sre-lead"],
        ]),
        now: NOW,
      },
      notes: [],
    }),
    vote,
  };
  return { voting, vote };
}

async function setup(
  voting: ActivityVoting,
  options: { columns?: number; rows?: number; activities?: Activity[]; bell?: () => void } = {},
) {
  const consensus = {
    ...activity("a1", "CONSENSUS_NEEDED", 30_000),
    fingerprint: LONG_FINGERPRINT,
  };
  const activities = options.activities ?? [
    consensus,
    activity("a2", "FAILED", 90_000),
    activity("a3", "COMPLETED", 200_000),
  ];
  const shown = await renderDashboard({
    parts: { activities },
    size: { columns: options.columns ?? 80, rows: options.rows ?? 40 },
    voting,
    bell: options.bell,
  });
  return { ...shown, consensus };
}

describe("voting from the dashboard", () => {
  it("A shows what is decided (the fingerprint whole at 80 columns), y approves, the row updates at once", async () => {
    const { voting, vote } = votingWith(async (_action, fingerprint) => ({
      ...activity("a1", "COMPLETED", 30_000),
      fingerprint,
    }));
    const { frame, type } = await setup(voting);
    await type("\t");
    await type("A");
    const confirm = frame();
    expect(confirm).toContain("Approve an activity");
    // The fingerprint is wrapped, never cut: its characters are all there, in order.
    expect(confirm.replace(/[\s│]/g, "")).toContain(LONG_FINGERPRINT);
    expect(confirm).toMatch(/1 of 2 root users approved/);
    expect(confirm).toContain("sre-lead");
    expect(confirm).toContain("approving makes it 2 of 2");
    expect(confirm).toContain("y approves · n or Esc cancels");
    expect(vote).not.toHaveBeenCalled();

    await type("y");
    await vi.waitFor(() => expect(frame()).toContain("approved activity a1: COMPLETED"));
    expect(vote).toHaveBeenCalledWith("approve", LONG_FINGERPRINT);
    await type("x");
    // Without waiting for a poll, the row and the counts say COMPLETED.
    expect(frame()).toContain("completed 2");
    expect(frame()).not.toContain("consensus 1");
  });

  it("A in the activity's detail opens the confirmation for it; n returns to the detail; R on a decided one says why (issue 36)", async () => {
    const { voting, vote } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const { frame, type } = await setup(voting);
    await type("\t");
    await type("\r");
    expect(frame()).toContain(LONG_FINGERPRINT.slice(0, 30));
    await type("A");
    expect(frame()).toContain("Approve this activity?");
    expect(frame().replace(/[\s│]/g, "")).toContain(LONG_FINGERPRINT);
    await type("n");
    expect(frame()).toContain("not approved: cancelled, nothing was sent");
    expect(frame()).not.toContain("Approve this activity?");
    expect(frame()).toContain("Activity sign_transaction v2");
    // Back in the detail, on the next row's activity (FAILED): R says why it cannot.
    await type("\u001b");
    await type("\u001b[B");
    await type("\r");
    expect(frame()).toMatch(/status +FAILED/);
    await type("R");
    expect(frame()).toContain("cannot reject: it is already decided: FAILED");
    expect(vote).not.toHaveBeenCalled();
  });

  it("n and Esc cancel and nothing is sent; any other key does nothing", async () => {
    const { voting, vote } = votingWith(async () => activity("a1", "REJECTED", 1));
    const { frame, type } = await setup(voting);
    await type("\t");
    await type("R");
    expect(frame()).toContain("Reject this activity?");
    for (const stray of ["x", "q", "A", "\r", " ", "\t", "Y"]) {
      await type(stray);
      expect(frame()).toContain("Reject this activity?");
    }
    await type("n");
    expect(frame()).toContain("not rejected: cancelled, nothing was sent");
    expect(frame()).not.toContain("Reject an activity");
    await type("R");
    expect(frame()).toContain("Reject this activity?");
    await type("\u001b");
    expect(frame()).toContain("not rejected: cancelled, nothing was sent");
    expect(frame()).not.toContain("Reject an activity");
    expect(vote).not.toHaveBeenCalled();
  });

  it("sends the fingerprint shown when the confirmation opened, and shows only an answer about that activity", async () => {
    const { voting, vote } = votingWith(async () => ({
      ...activity("f139a382", "COMPLETED", 1),
      fingerprint: LONG_FINGERPRINT,
    }));
    const { frame, type, feeds, settled } = await setup(voting, { columns: 160 });
    await type("\t");
    await type("A");
    expect(frame()).toContain("Approve this activity?");
    // A poll while the confirmation is open brings the activity with another fingerprint.
    feeds?.activities.store.succeed(
      [{ ...activity("a1", "CONSENSUS_NEEDED", 31_000), fingerprint: "sha256:changed" }],
      NOW,
      5,
    );
    await settled();
    await type("y");
    await vi.waitFor(() =>
      expect(frame()).toContain(
        "the server answered for activity f139a382, not a1: what the vote did is not known",
      ),
    );
    expect(vote).toHaveBeenCalledWith("approve", LONG_FINGERPRINT);
    expect(frame()).not.toContain("approved activity");
    await type(" ");
    // The other activity's answer changed no row.
    expect(frame()).toContain("consensus 1");
    expect(frame()).not.toContain("f139a382");
  });

  it("says why not on a decided activity, and shows the API's error in one line", async () => {
    const { voting, vote } = votingWith(async () => {
      throw new Error("ACTIVITY_VOTE_EXPIRED: the approval expired after 24h");
    });
    const { frame, type } = await setup(voting, { columns: 160 });
    await type("\t");
    await type("\u001b[B\u001b[B"); // ↓ ↓ to the completed one
    await type("A");
    expect(frame()).toContain("cannot approve: it is already decided: COMPLETED");
    expect(vote).not.toHaveBeenCalled();
    await type("\u001b[A\u001b[A"); // back to the one awaiting votes
    await type("A");
    await type("y");
    await vi.waitFor(() =>
      expect(frame()).toContain(
        "not approved: ACTIVITY_VOTE_EXPIRED: the approval expired after 24h",
      ),
    );
    await type(" ");
    // The dashboard goes on; the row is unchanged.
    expect(frame()).toContain("consensus 1");
  });

  it("at 80x24 with 40 votes: what is decided stays on screen while ↓ and PgDn scroll the votes", async () => {
    const { voting, vote } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const crowded: Activity = {
      ...activity("418b4e9d-1111-4000-8000-000000000001", "CONSENSUS_NEEDED", 30_000),
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      intent: {
        exportWalletIntent: { walletId: "wallet-7", targetPublicKey: `04${"5e".repeat(64)}` },
      },
      fingerprint: LONG_FINGERPRINT,
      votes: Array.from({ length: 40 }, (_, i) => ({
        id: `v${i}`,
        userId: i === 0 ? "root-2" : `user-${i}`,
        activityId: "418b4e9d-1111-4000-8000-000000000001",
        selection: "VOTE_SELECTION_APPROVED",
        user: voter(i === 0 ? "root-2" : `user-${i}`, i === 0 ? "sre-lead" : `voter-${i}`),
      })),
    };
    const { frame, type } = await setup(voting, { columns: 80, rows: 24, activities: [crowded] });
    await type("\t");
    await type("A");
    const seen = new Set<string>();
    const header = (f: string) => {
      const flat = f.replace(/[\s│╭╮╰╯─]/g, "");
      expect(f).toContain("Approve an activity");
      expect(f).toContain("you approve  export_wallet (ACTIVITY_TYPE_EXPORT_WALLET)");
      expect(f).toContain("activity     418b4e9d-1111-4000-8000-000000000001");
      expect(flat).toContain(LONG_FINGERPRINT);
      expect(f).toContain("quorum       1 of 2 root users approved");
      expect(flat).toContain(`leavesTurnkey,encryptedtotargetpublickey04${"5e".repeat(64)}`);
      expect(f).toContain("Approve this activity?  y approves · n or Esc cancels");
      expect(f.split("\n").length).toBeLessThanOrEqual(24);
      for (const m of f.matchAll(/voter-(\d+)/g)) seen.add(m[1] as string);
    };
    header(frame());
    for (let i = 0; i < 8; i++) {
      await type("\u001b[6~"); // PgDn
      header(frame());
    }
    for (let i = 0; i < 4; i++) {
      await type("\u001b[A"); // ↑
      header(frame());
    }
    // Every voter was on screen at some point, by name.
    expect(seen.size).toBe(39);
    expect(vote).not.toHaveBeenCalled();
  });

  it("A before whoami has answered opens the confirmation as soon as it does", async () => {
    const { voting } = votingWith(async () => activity("a1", "COMPLETED", 1));
    let answer: () => void = () => {};
    const slow: ActivityVoting = {
      ...voting,
      loadContext: () =>
        new Promise((resolve) => {
          answer = () => resolve(voting.loadContext());
        }),
    };
    const { frame, type } = await setup(slow, { columns: 160 });
    await type("\t");
    await type("A");
    expect(frame()).toContain("reading who you are (whoami) before the vote");
    expect(frame()).not.toContain("Approve this activity?");
    answer();
    await vi.waitFor(() => expect(frame()).toContain("Approve this activity?"));
  });

  it("two different activities under one id: both shown, marked, neither votable, none awaiting", async () => {
    const { voting, vote } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const first = activity("a1", "CONSENSUS_NEEDED", 30_000);
    const second = {
      ...activity("a1", "CONSENSUS_NEEDED", 20_000),
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      fingerprint: "sha256:second",
    };
    const { frame, type } = await setup(voting, { columns: 160, activities: [first, second] });
    // Both rows, each marked; not the ×2 of a record sent twice.
    expect(frame()).toMatch(/sign_transaction v2 ≠2/);
    expect(frame()).toMatch(/export_wallet ≠2/);
    expect(frame()).not.toContain("×2");
    expect(frame()).not.toContain("awaiting your vote");
    await type("\t");
    for (const [key, action] of [
      ["A", "approve"],
      ["R", "reject"],
    ] as const) {
      await type(key);
      expect(frame()).toContain(
        `cannot ${action}: the server sent two different activities with one id`,
      );
      expect(frame()).not.toContain("Approve an activity");
      await type("\u001b");
    }
    await type("\u001b[B");
    await type("A");
    expect(frame()).toContain(
      "cannot approve: the server sent two different activities with one id",
    );
    await type("\r");
    expect(frame()).toContain("the server sent two different activities with one id (2 under a1)");
    expect(vote).not.toHaveBeenCalled();
  });

  it("y refuses a vote whose activity the server has since sent a second, different record of", async () => {
    const { voting, vote } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const { frame, type, feeds, settled, consensus } = await setup(voting, { columns: 160 });
    await type("\t");
    await type("A");
    expect(frame()).toContain("Approve this activity?");
    feeds?.activities.store.succeed(
      [consensus, { ...consensus, type: "ACTIVITY_TYPE_EXPORT_WALLET", fingerprint: "sha256:x" }],
      NOW,
      5,
    );
    await settled();
    await type("y");
    await vi.waitFor(() =>
      expect(frame()).toContain(
        "not approved: the server sent two different activities with one id; nothing was sent",
      ),
    );
    expect(vote).not.toHaveBeenCalled();
  });

  it("A outside the Activities pane says where it acts", async () => {
    const { voting } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const { frame, type } = await setup(voting);
    await type("A");
    expect(frame()).toContain("Tab to the Activities pane first");
  });

  it("v shows only the activities awaiting my vote; the status line counts them", async () => {
    const { voting } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const { frame, type } = await setup(voting, { columns: 160 });
    expect(frame()).toContain("⚑ 1 awaiting your vote");
    await type("v");
    expect(frame()).toContain("Activities · awaiting my vote");
    expect(frame()).not.toMatch(/FAIL.*sign_transaction/);
    await type("v");
    expect(frame()).not.toContain("awaiting my vote");
  });

  it("rings the bell once for activities newly awaiting votes, not for those there at the start", async () => {
    const { voting } = votingWith(async () => activity("a1", "COMPLETED", 1));
    const bell = vi.fn();
    const { feeds, frame, settled } = await setup(voting, { bell, columns: 160 });
    expect(bell).not.toHaveBeenCalled();
    feeds?.activities.store.succeed(
      [
        activity("a1", "CONSENSUS_NEEDED", 31_000),
        activity("a9", "CONSENSUS_NEEDED", 1_000),
        activity("a2", "FAILED", 91_000),
      ],
      NOW,
      5,
    );
    await settled();
    expect(bell).toHaveBeenCalledTimes(1);
    expect(frame()).toContain("⚑ 2 awaiting your vote");
    // The same activities again: no second ring.
    feeds?.activities.store.succeed(
      [activity("a1", "CONSENSUS_NEEDED", 32_000), activity("a9", "CONSENSUS_NEEDED", 2_000)],
      NOW,
      5,
    );
    await settled();
    expect(bell).toHaveBeenCalledTimes(1);
  });
});
