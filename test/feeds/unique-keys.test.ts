/**
 * A server that repeats an id (src/feeds/unique-keys.ts): each item once, counted, marked; and
 * every pane's view built from such a response holds each id once.
 */
import { describe, expect, it } from "vitest";
import { keyMaker, onceEach, repeatMark } from "../../src/feeds/unique-keys.js";
import { summarizeActivities } from "../../src/tui/panes/activity-summary.js";
import { groupEmailEvents } from "../../src/tui/panes/email-timeline.js";
import { summarizeTransfers } from "../../src/tui/panes/solana-transfers.js";
import { activity, EMAILS, NOW, SOL } from "../tui/fixtures.js";

describe("onceEach, keyMaker, repeatMark", () => {
  it("keeps the first of each id, in order, with how many times it came", () => {
    const items = [
      { id: "a", n: 1 },
      { id: "b", n: 2 },
      { id: "a", n: 3 },
      { id: "a", n: 4 },
    ];
    expect(onceEach(items, (x) => x.id)).toEqual([
      { item: { id: "a", n: 1 }, times: 3 },
      { item: { id: "b", n: 2 }, times: 1 },
    ]);
  });

  it("makes keys unique whatever the ids, and marks only a repeat", () => {
    const keyOf = keyMaker();
    const keys = ["a", "0:a", "a", "1:a"].map(keyOf);
    expect(new Set(keys).size).toBe(4);
    expect(repeatMark(1)).toBeUndefined();
    expect(repeatMark(3)).toBe("×3");
  });
});

describe("the panes' views of a response that repeats ids", () => {
  it("activities: each once, counted once, marked", () => {
    const a1 = activity("a1", "CONSENSUS_NEEDED", 30_000);
    const a2 = activity("a2", "FAILED", 60_000);
    const summary = summarizeActivities([a1, a2, a1, a1], NOW);
    expect(summary.rows.map((r) => [r.id, r.listed])).toEqual([
      ["a1", 3],
      ["a2", 1],
    ]);
    expect(summary.counts.map((c) => c.count)).toEqual([1, 1]);
    expect(new Set(summary.rows.map((r) => r.key)).size).toBe(2);
  });

  it("activities: identity is id plus content; two different records under one id are both shown, marked", () => {
    const a1 = activity("a1", "CONSENSUS_NEEDED", 30_000);
    const other = {
      ...activity("a1", "CONSENSUS_NEEDED", 20_000),
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      fingerprint: "sha256:other",
    };
    const summary = summarizeActivities([a1, other, a1, other], NOW);
    expect(summary.rows.map((r) => [r.id, r.activity.fingerprint, r.listed, r.conflict])).toEqual([
      ["a1", "sha256:a1", 2, 2],
      ["a1", "sha256:other", 2, 2],
    ]);
    expect(new Set(summary.rows.map((r) => r.key)).size).toBe(2);
    // Both are counted: the server says there are two.
    expect(summary.counts.map((c) => c.count)).toEqual([2]);
    // Only a type or a fingerprint tells them apart; a status change is the same record again.
    const later = { ...a1, status: "ACTIVITY_STATUS_COMPLETED" };
    const same = summarizeActivities([a1, later], NOW);
    expect(same.rows.map((r) => [r.listed, r.conflict])).toEqual([[2, undefined]]);
    // A fingerprint differing only in the case of its hex is the same fingerprint.
    const upper = { ...a1, fingerprint: "SHA256:A1" };
    expect(summarizeActivities([a1, upper], NOW).rows).toHaveLength(1);
  });

  it("email: each event once; the message says how many of its events came again", () => {
    const [send, bounce] = EMAILS as [(typeof EMAILS)[0], (typeof EMAILS)[0]];
    const messages = groupEmailEvents([send, bounce, bounce, send]);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.steps).toHaveLength(2);
    expect(messages[0]?.repeated).toBe(2);
  });

  it("Solana: each transaction once per address, its rows marked", () => {
    const [tx] = SOL as [(typeof SOL)[0]];
    const { rows, net } = summarizeTransfers(new Map([["addr", [tx, tx]]]));
    expect(rows.map((r) => r.listed)).toEqual([2]);
    expect(net[0]?.net).toBe("+1.5");
  });
});
