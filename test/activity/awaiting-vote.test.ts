/**
 * Which activities await my vote: awaiting votes, and one I may still approve or reject; while
 * who is asking is not known, every activity awaiting votes counts.
 */
import { describe, expect, it } from "vitest";
import { awaitsMyVote, newlyAwaiting, type VoteContext } from "../../src/activity/awaiting-vote.js";
import { activity, NOW } from "../tui/fixtures.js";

const root1: VoteContext = {
  state: "loaded",
  context: {
    viewer: { userId: "root-1", username: "oncall-root" },
    quorum: { threshold: 2, userIds: ["root-1", "root-2"] },
    now: NOW,
  },
  notes: [],
};
// The fixture's activities awaiting votes carry root-2's approval.
const root2: VoteContext = {
  ...root1,
  context: { ...root1.context, viewer: { userId: "root-2", username: "sre-lead" } },
};

describe("awaiting my vote", () => {
  it("an activity awaiting votes that I have not voted on", () => {
    const a = activity("a1", "CONSENSUS_NEEDED", 10_000);
    expect(awaitsMyVote(a, root1, NOW)).toBe(true);
    // The API's canApprove / canReject say what this caller may do; root-2 voted already.
    const voted = { ...a, canApprove: false, canReject: false };
    expect(awaitsMyVote(voted, root2, NOW)).toBe(false);
    expect(awaitsMyVote(voted, root1, NOW)).toBe(false);
    expect(awaitsMyVote(activity("a2", "COMPLETED", 10_000), root1, NOW)).toBe(false);
  });

  it("while who is asking is not known, every activity awaiting votes", () => {
    const a = activity("a1", "CONSENSUS_NEEDED", 10_000);
    expect(awaitsMyVote(a, { state: "loading" }, NOW)).toBe(true);
    expect(awaitsMyVote(a, { state: "failed", error: "whoami: 401" }, NOW)).toBe(true);
    expect(awaitsMyVote(activity("a2", "FAILED", 1), { state: "loading" }, NOW)).toBe(false);
  });

  it("newly awaiting: those awaiting votes not seen before", () => {
    const list = [
      activity("a1", "CONSENSUS_NEEDED", 1),
      activity("a2", "CONSENSUS_NEEDED", 1),
      activity("a3", "COMPLETED", 1),
    ];
    expect(newlyAwaiting(list, new Set(["a1"]))).toEqual(["a2"]);
    expect(newlyAwaiting(list, new Set(["a1", "a2"]))).toEqual([]);
  });
});
