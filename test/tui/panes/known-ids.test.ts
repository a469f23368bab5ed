/**
 * From a log line to the records it names (src/tui/panes/known-ids.ts): the ids the side panes
 * know looked up among the line's tokens: activity ids and their prefixes, wallet and key ids of
 * activities, email message ids and addresses, Solana signatures; each record once, in the
 * line's order, bounded on a line of any length.
 */
import { describe, expect, it } from "vitest";
import { summarizeActivities } from "../../../src/tui/panes/activity-summary.js";
import { groupEmailEvents } from "../../../src/tui/panes/email-timeline.js";
import {
  knownIds,
  MAX_MENTIONS,
  mentionIdentity,
  mentionsIn,
} from "../../../src/tui/panes/known-ids.js";
import { summarizeTransfers } from "../../../src/tui/panes/solana-transfers.js";
import { activity, EMAILS, NOW, SOL } from "../fixtures.js";

const ACT = "0193a4b2-7c1d-7e00-9f3a-5b6c7d8e9f01";
const WALLET = "wallet-5f1e9c2a-0b7d";
const SIG = `5VERv8NMvzbJMEkV8xnrLkEaWRtSz1CosKDYVCJjBRJY${"x".repeat(40)}`;

function known() {
  const signing = activity(ACT, "CONSENSUS_NEEDED", 5000);
  signing.intent = { signTransactionIntentV2: { signWith: WALLET, unsignedTransaction: "00" } };
  const sol = [{ ...SOL[0], signature: SIG }] as typeof SOL;
  return knownIds({
    activities: summarizeActivities([signing, activity("act-other-1", "COMPLETED", 9000)], NOW)
      .rows,
    messages: groupEmailEvents([
      ...EMAILS,
      {
        ...EMAILS[0],
        id: "e3",
        toAddress: "bob@example.com",
        messageId: "<0100018c-msg-two@email.amazonses.com>",
      },
    ] as typeof EMAILS),
    transfers: summarizeTransfers(new Map([["addr", sol]])).rows,
  });
}

describe("the ids a log line mentions that a pane knows", () => {
  it("finds an activity by its id or a prefix, a wallet it signs with, emails and signatures", () => {
    const k = known();
    const text = `ERROR signer: timeout for activity ${ACT.slice(0, 8)} signWith=${WALLET} tx ${SIG}; mail to ALICE@example.com. msg <0100018c-msg-two@email.amazonses.com>`;
    const found = mentionsIn(text, k);
    expect(found.map((m) => [m.pane, m.ids])).toEqual([
      ["activities", [ACT.slice(0, 8), WALLET]],
      ["solana", [SIG]],
      ["email", ["ALICE@example.com"]],
      ["email", ["0100018c-msg-two@email.amazonses.com"]],
    ]);
    // Each record by its identity in its pane, the ids shown whole in what it says.
    expect(found[0]?.label).toContain(ACT);
    expect(found[1]?.label).toContain(SIG);
    expect(new Set(found.map(mentionIdentity)).size).toBe(found.length);
  });

  it("finds the same records in a JSON line, and nothing in a line naming none", () => {
    const k = known();
    const json = JSON.stringify({ level: "error", activityId: ACT, to: "alice@example.com" });
    expect(mentionsIn(json, k).map((m) => m.pane)).toEqual(["activities", "email"]);
    // A token that merely starts like an id, a prefix too short, or a word, is not one.
    expect(mentionsIn(`${ACT.slice(0, 7)} ${ACT}zz act-other alice@example.org`, k)).toEqual([]);
  });

  it("is bounded: a long line of many ids lists at most MAX_MENTIONS records", () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      activity(`activity-${1000 + i}`, "PENDING", i),
    );
    const k = knownIds({
      activities: summarizeActivities(many, NOW).rows,
      messages: [],
      transfers: [],
    });
    const text = `${many.map((a) => a.id).join(" ")} ${"z".repeat(200_000)}`;
    const found = mentionsIn(text, k);
    expect(found).toHaveLength(MAX_MENTIONS);
    expect(found[0]?.ids).toEqual(["activity-1000"]);
  });
});
