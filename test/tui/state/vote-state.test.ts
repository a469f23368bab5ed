/**
 * The vote confirmation as pure state and rows (issues #14, #28): confirm → sending → done; a
 * result about another activity ignored; the details scroll under a header that never does; at
 * 80x24, with 40 votes and an export's extra line, the verb, type, id, whole fingerprint and
 * quorum are all on screen with the question; too small, it says so and does not fit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { confirmation, decideActivity } from "../../../src/activity/activity-decision.js";
import type { Activity } from "../../../src/api/schemas.js";
import { safe, widthOf } from "../../../src/text/safe-text.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { hangingRows, voteFrame } from "../../../src/tui/rows/vote-rows.js";
import type { VoteUi } from "../../../src/tui/state/vote-state.js";
import { cancelledText, voteReducer } from "../../../src/tui/state/vote-state.js";
import { activity, NOW, voter } from "../fixtures.js";

const open = {
  type: "openVote",
  action: "approve",
  activityId: "a1",
  fingerprint: "sha256:ff",
  question: "Approve this activity?",
  header: ["  fingerprint  sha256:ff"],
  details: ["  intent"],
} as const;

const text = (rows: readonly Segment[][]) => rows.map((r) => r.map((s) => s.text).join(""));

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
    // A result with no vote in flight is ignored too.
    const confirm = voteReducer(undefined, open);
    expect(
      voteReducer(confirm, { type: "voteDone", activityId: "a1", outcome: "x", ok: true }),
    ).toBe(confirm);
  });

  it("scrolls its details within what they need", () => {
    const confirm = voteReducer(undefined, open);
    const down = voteReducer(confirm, { type: "scrollVote", by: 5, max: 3 });
    expect(down?.scroll).toBe(3);
    expect(voteReducer(down, { type: "scrollVote", by: -10, max: 3 })?.scroll).toBe(0);
  });

  it("says a cancelled vote sent nothing", () => {
    expect(cancelledText("reject")).toBe("not rejected: cancelled, nothing was sent");
  });
});

describe("the vote overlay's rows", () => {
  it("any line: every row fits the width, and the rows are the line (property)", () => {
    const piece = fc.constantFrom("a", "bc", " ", "  ", "…", "é", "漢", "0x41E4a0F1996E2A13", "—");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 4, max: 90 }),
        (parts, w) => {
          const line = safe(`  label  ${parts.join("")}`);
          const rows = hangingRows(line, w);
          for (const r of rows) expect(widthOf(r)).toBeLessThanOrEqual(Math.max(w, 2));
          const strip = (t: string) => t.replace(/\s+/g, "");
          expect(strip(rows.join(""))).toBe(strip(line));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("breaks at words in a line that is not plain ASCII too (a shortened address's …, a quote)", () => {
    const line = safe(
      "  decoded      calls release_escrow on Acme escrow (devnet) Fjmo9dW1… (1 more instruction)",
    );
    const rows = hangingRows(line, 78);
    expect(rows).toEqual([
      "  decoded      calls release_escrow on Acme escrow (devnet) Fjmo9dW1… (1 more",
      "               instruction)",
    ]);
    const wide = hangingRows(safe("  text         héllo wörld ".repeat(4).trimEnd()), 30);
    for (const r of wide) expect(r.length).toBeLessThanOrEqual(30);
    // Every row ends at a whole word: no word is cut across rows.
    const words = new Set(
      wide
        .join(" ")
        .split(/\s+/)
        .filter((w) => w !== ""),
    );
    expect([...words].every((w) => ["text", "héllo", "wörld"].includes(w))).toBe(true);
  });

  it("wraps a long fingerprint whole, continuation rows under the value", () => {
    const fp = `sha256:${"0123456789abcdef".repeat(4)}`;
    const rows = hangingRows(safe(`  fingerprint  ${fp}`), 40);
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
    expect(rows.slice(1).every((r) => r.startsWith(" ".repeat(15)))).toBe(true);
    expect(rows.map((r, i) => (i === 0 ? r.slice(15) : r.trim())).join("")).toBe(fp);
  });

  it("ends with the question and its keys, the vote in flight, or the result", () => {
    const confirm = voteReducer(undefined, open) as VoteUi;
    const rows = (v: VoteUi) => text(voteFrame(v, 60, 20).rows).join("\n");
    expect(rows(confirm)).toMatch(/Approve this activity\? +y approves · n or Esc cancels$/);
    const sending = voteReducer(confirm, { type: "sendVote" }) as VoteUi;
    expect(rows(sending)).toMatch(/sending the vote…$/);
    const failed = voteReducer(sending, {
      type: "voteDone",
      activityId: "a1",
      outcome: "not approved: PERMISSION_DENIED: not a root user",
      ok: false,
    }) as VoteUi;
    expect(rows(failed)).toMatch(
      /not approved: PERMISSION_DENIED: not a root user\nany key closes$/,
    );
  });
});

/** 40 votes by 40 users, 2 root users of whom one approved: an activity awaiting consensus. */
function crowded(type: string, intent: Record<string, unknown>): Activity {
  const base = activity("418b4e9d-1111-4000-8000-000000000001", "CONSENSUS_NEEDED", 60_000);
  return {
    ...base,
    type,
    intent,
    fingerprint: `sha256:${"0a1b2c3d".repeat(8)}`,
    votes: Array.from({ length: 40 }, (_, i) => ({
      id: `v${i}`,
      userId: i === 0 ? "root-2" : `user-${i}`,
      activityId: base.id,
      selection: "VOTE_SELECTION_APPROVED",
      user: voter(i === 0 ? "root-2" : `user-${i}`, i === 0 ? "sre-lead" : `voter-${i}`),
    })),
  };
}

const rootContext = {
  viewer: { userId: "root-1", username: "oncall-root" },
  quorum: { threshold: 2, userIds: ["root-1", "root-2"] },
  now: NOW,
};

function confirmingAt(a: Activity, action: "approve" | "reject" = "approve"): VoteUi {
  const c = confirmation(decideActivity(a, rootContext), action, rootContext);
  return voteReducer(undefined, {
    type: "openVote",
    action,
    activityId: a.id,
    fingerprint: a.fingerprint,
    question: c.question,
    header: c.header,
    details: c.details,
  }) as VoteUi;
}

/** The overlay's room at 80x24: 80 - 4 columns, 24 - 1 (Ink) - 2 (title, status) - 3 rows. */
const AT_80x24 = { width: 76, rows: 18 };

describe("the confirmation at 80x24 (issue #28)", () => {
  it("with 40 votes: the verb, type, id, whole fingerprint and quorum stay on screen as the rest scrolls", () => {
    const a = crowded("ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE", {
      setOrganizationFeatureIntent: {
        name: "FEATURE_NAME_WEBHOOK",
        value: "https://hooks.example/x",
      },
    });
    let vote = confirmingAt(a);
    const first = voteFrame(vote, AT_80x24.width, AT_80x24.rows);
    expect(first.fits).toBe(true);
    expect(first.rows.length).toBeLessThanOrEqual(AT_80x24.rows);
    expect(first.maxScroll).toBeGreaterThan(30);
    const seen = new Set<string>();
    for (let scroll = 0; scroll <= first.maxScroll; scroll += 1) {
      const frame = voteFrame(vote, AT_80x24.width, AT_80x24.rows);
      const shown = text(frame.rows);
      const joined = shown.join("\n");
      expect(shown[0]).toBe("  you approve  set_organization_feature");
      expect(shown[1]).toBe("               (ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE)");
      expect(joined).toContain(`  activity     ${a.id}`);
      expect(joined.replace(/\s/g, "")).toContain(a.fingerprint);
      expect(joined).toContain("  quorum       1 of 2 root users approved");
      expect(shown.at(-1)).toBe("Approve this activity?  y approves · n or Esc cancels");
      for (const row of shown) seen.add(row);
      vote = voteReducer(vote, { type: "scrollVote", by: 1, max: frame.maxScroll }) as VoteUi;
    }
    // Scrolling reaches every vote, by name, and the intent.
    for (let i = 1; i < 40; i++) expect([...seen].some((r) => r.includes(`voter-${i}`))).toBe(true);
    expect([...seen].some((r) => r.includes("FEATURE_NAME_WEBHOOK"))).toBe(true);
  });

  it("an export says what leaves Turnkey and to which target public key, in the header", () => {
    const target = `04${"5e".repeat(64)}`;
    for (const [type, intent, what] of [
      [
        "ACTIVITY_TYPE_EXPORT_WALLET",
        { exportWalletIntent: { walletId: "wallet-7", targetPublicKey: target } },
        "the mnemonic of wallet wallet-7 (every account's key)",
      ],
      [
        "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
        { exportWalletAccountIntent: { address: "0xAbC1", targetPublicKey: target } },
        "the private key of wallet account 0xAbC1",
      ],
      [
        "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
        { exportPrivateKeyIntent: { privateKeyId: "pk-3", targetPublicKey: target } },
        "private key pk-3",
      ],
    ] as const) {
      const frame = voteFrame(confirmingAt(crowded(type, intent), "reject"), 76, 18);
      expect(frame.fits).toBe(true);
      const shown = text(frame.rows);
      const exportsAt = shown.findIndex((r) => r.startsWith("  exports      "));
      expect(exportsAt).toBeGreaterThan(0);
      // The header ends at the rule; the export line is in it, the target key whole.
      const rule = shown.findIndex((r) => r.startsWith("──"));
      expect(exportsAt).toBeLessThan(rule);
      const header = shown
        .slice(exportsAt, rule)
        .map((r) => r.slice(15))
        .join(" ");
      // Words are wrapped at spaces, the key wherever the row ends.
      expect(header.replace(/\s/g, "")).toBe(
        `${what} leaves Turnkey, encrypted to target public key ${target}`.replace(/\s/g, ""),
      );
      expect(header).toContain(`${what} leaves Turnkey, encrypted to target public`);
      expect(shown[0]).toMatch(/^ {2}you reject {3}export_/);
    }
  });

  it("too small for what is decided: says so, and does not fit (y sends nothing)", () => {
    const vote = confirmingAt(crowded("ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE", {}));
    const frame = voteFrame(vote, 76, 6);
    expect(frame.fits).toBe(false);
    expect(frame.rows.length).toBeLessThanOrEqual(6);
    expect(text(frame.rows)[0]).toMatch(/^The terminal is too small to show what is decided/);
    expect(text(frame.rows).at(-1)).toMatch(/y approves · n or Esc cancels$/);
  });
});
