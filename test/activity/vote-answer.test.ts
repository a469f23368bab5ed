/**
 * The answer to a vote (issue #28): only an answer about the activity and fingerprint voted on
 * says what the vote did and may replace that activity's row.
 */
import { describe, expect, it } from "vitest";
import { voteAnswer, voteFailed } from "../../src/activity/vote-answer.js";
import { activity, NOW } from "../tui/fixtures.js";

describe("the answer to a vote", () => {
  const context = { now: NOW };
  const sent = { action: "approve", activityId: "a1", fingerprint: "sha256:a1" } as const;

  it("about the activity voted on: its outcome, to be applied to its row", () => {
    const answer = voteAnswer(sent, activity("a1", "COMPLETED", 1_000), context);
    expect(answer).toEqual({ outcome: "approved activity a1: COMPLETED", ok: true, about: true });
  });

  it("about another activity or fingerprint: said, and applied nowhere", () => {
    const other = voteAnswer(sent, activity("f139a382", "COMPLETED", 1_000), context);
    expect(other.about).toBe(false);
    expect(other.ok).toBe(false);
    expect(other.outcome).toBe(
      "the server answered for activity f139a382, not a1: what the vote did is not known (Enter on activity a1 shows it after the next poll)",
    );
    const moved = voteAnswer(
      sent,
      { ...activity("a1", "COMPLETED", 1_000), fingerprint: "sha256:other" },
      context,
    );
    expect(moved.about).toBe(false);
    expect(moved.outcome).toMatch(/^the server answered for activity a1 with another fingerprint/);
  });
});

describe("a vote that failed", () => {
  it("says what was not done and why", () => {
    expect(voteFailed("reject", "PERMISSION_DENIED: not a root user")).toBe(
      "not rejected: PERMISSION_DENIED: not a root user",
    );
  });
});
