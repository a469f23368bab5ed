import { describe, expect, it } from "vitest";
import { safe } from "../../src/text/safe-text.js";
import { hangingRows, voteRows } from "../../src/tui/vote-rows.js";
import type { VoteUi } from "../../src/tui/vote-state.js";
import { cancelledText, voteReducer } from "../../src/tui/vote-state.js";

const open = {
  type: "openVote",
  action: "approve",
  activityId: "a1",
  fingerprint: "sha256:ff",
  question: "Approve this activity?",
  lines: ["  fingerprint  sha256:ff"],
} as const;

describe("the vote state", () => {
  it("goes confirm → sending → done, and closes", () => {
    const confirm = voteReducer(undefined, open);
    expect(confirm?.phase).toBe("confirm");
    const sending = voteReducer(confirm, { type: "sendVote" });
    expect(sending?.phase).toBe("sending");
    const done = voteReducer(sending, {
      type: "voteDone",
      activityId: "a1",
      outcome: "approved activity a1: COMPLETED",
      ok: true,
    });
    expect(done).toMatchObject({
      phase: "done",
      ok: true,
      outcome: "approved activity a1: COMPLETED",
    });
    expect(voteReducer(done, { type: "closeVote" })).toBeUndefined();
  });

  it("sends only from a confirmation, and ignores a result for another activity", () => {
    expect(voteReducer(undefined, { type: "sendVote" })).toBeUndefined();
    const sending = voteReducer(voteReducer(undefined, open), { type: "sendVote" });
    const other = voteReducer(sending, {
      type: "voteDone",
      activityId: "zz",
      outcome: "x",
      ok: true,
    });
    expect(other).toBe(sending);
  });

  it("says a cancelled vote sent nothing", () => {
    expect(cancelledText("reject")).toBe("not rejected: cancelled, nothing was sent");
  });
});

describe("the vote overlay's rows", () => {
  it("wraps a long fingerprint whole, continuation rows under the value", () => {
    const fp = `sha256:${"0123456789abcdef".repeat(4)}`;
    const rows = hangingRows(safe(`  fingerprint  ${fp}`), 40);
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
    expect(rows.slice(1).every((r) => r.startsWith(" ".repeat(15)))).toBe(true);
    expect(rows.map((r, i) => (i === 0 ? r.slice(15) : r.trim())).join("")).toBe(fp);
  });

  it("ends with the question, the vote in flight, or the result", () => {
    const confirm = voteReducer(undefined, open) as VoteUi;
    const text = (v: VoteUi) =>
      voteRows(v, 60)
        .map((r) => r.map((s) => s.text).join(""))
        .join("\n");
    expect(text(confirm)).toMatch(/Approve this activity\? +y approves · any other key cancels$/);
    const sending = voteReducer(confirm, { type: "sendVote" }) as VoteUi;
    expect(text(sending)).toMatch(/sending the vote…$/);
    const failed = voteReducer(sending, {
      type: "voteDone",
      activityId: "a1",
      outcome: "not approved: PERMISSION_DENIED: not a root user",
      ok: false,
    }) as VoteUi;
    expect(text(failed)).toMatch(
      /not approved: PERMISSION_DENIED: not a root user\nany key closes$/,
    );
  });
});
