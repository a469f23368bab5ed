/**
 * The side panes' records as events on the log's clock (src/feeds/pane-events.ts): each kind at
 * its server time with its words, once each across polls; an activity's status changes as polls
 * see them; votes by whom; email, Solana transfers and deployment health changes.
 */
import { describe, expect, it } from "vitest";
import type { Activity, EmailEvent, SolTransaction, Vote } from "../../src/api/schemas.js";
import type { HealthChange } from "../../src/feeds/deployment-health.js";
import { PaneEventLog } from "../../src/feeds/pane-events.js";
import { EVENT_GLYPHS, PANE_EVENT_KINDS } from "../../src/logs/model/pane-event.js";

const T = Date.UTC(2026, 10, 27, 5, 0, 0);

function activity(status: string, updatedMs: number, votes: Vote[] = []): Activity {
  return {
    id: "8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f",
    organizationId: "org",
    status,
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    intent: {},
    result: {},
    votes,
    fingerprint: "sha256:ab",
    canApprove: true,
    canReject: true,
    createdAt: String(T),
    updatedAt: String(updatedMs),
  } as Activity;
}

function vote(id: string, ms: number, name: string): Vote {
  return {
    id,
    userId: `user-${id}`,
    user: { userName: name } as Vote["user"],
    activityId: "8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f",
    selection: "VOTE_SELECTION_APPROVED",
    createdAt: String(ms),
  } as Vote;
}

describe("the side panes' events", () => {
  it("gives an activity's creation, its status changes and each vote by whom, once each", () => {
    const log = new PaneEventLog();
    const first = log.activities([activity("ACTIVITY_STATUS_CREATED", T)]);
    expect(first.map((e) => [e.kind, e.at, e.text])).toEqual([
      ["activity", T, "activity 8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f created: sign_transaction v2"],
    ]);
    // The same poll again gives nothing.
    expect(log.activities([activity("ACTIVITY_STATUS_CREATED", T)])).toEqual([]);
    const next = log.activities([
      activity("ACTIVITY_STATUS_CONSENSUS_NEEDED", T + 2000, [vote("v1", T + 3000, "alice")]),
    ]);
    expect(next.map((e) => [e.kind, e.at, e.text])).toEqual([
      [
        "status",
        T + 2000,
        "activity 8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f sign_transaction v2: CREATED → CONSENSUS_NEEDED",
      ],
      [
        "vote",
        T + 3000,
        "vote on activity 8f14e45f-ceea-467f-a0e6-2f4b1c3d5e6f sign_transaction v2: approved by alice",
      ],
    ]);
    expect(next[1]?.fields).toMatchObject({ voteId: "v1", userId: "user-v1" });
  });

  it("gives an activity first seen past CREATED the status it had", () => {
    const events = new PaneEventLog().activities([activity("ACTIVITY_STATUS_FAILED", T + 900)]);
    expect(events.map((e) => e.kind)).toEqual(["activity", "status"]);
    expect(events[1]?.text).toMatch(/: FAILED$/);
    expect(events[1]?.at).toBe(T + 900);
  });

  it("gives email events, Solana transfers and deployment health changes at their times", () => {
    const log = new PaneEventLog();
    const email = {
      id: "e1",
      organizationId: "org",
      messageId: "m-1",
      eventType: "Bounce",
      fromAddress: "noreply@example.com",
      toAddress: "ops@example.com",
      timestamp: String(T + 5000),
      createdAt: String(T + 5000),
      details: {},
    } as EmailEvent;
    expect(log.email([email, email]).map((e) => [e.kind, e.at, e.text])).toEqual([
      ["email", T + 5000, "email Bounce to ops@example.com (message m-1)"],
    ]);
    const tx = {
      signature: "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4t",
      block: { number: "1", hash: "h", timestamp: new Date(T + 7000).toISOString() },
      status: "FINALIZED",
      transfers: [
        {
          direction: "OUT",
          amount: "1500000000",
          counterparty: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        },
      ],
    } as unknown as SolTransaction;
    const sol = log.solana(new Map([["addr", [tx]]]));
    expect(sol.map((e) => [e.kind, e.at, e.text])).toEqual([
      [
        "solana",
        T + 7000,
        "solana OUT 1.5 SOL to 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin (FINALIZED, tx 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4t)",
      ],
    ]);
    expect(log.solana(new Map([["addr", [tx]]]))).toEqual([]);
    const changes: HealthChange[] = [
      {
        kind: "replicas",
        appId: "app",
        deploymentId: "dep-1",
        from: { ready: 3, desired: 3 },
        to: { ready: 2, desired: 3 },
        updatedAt: T + 45_000,
        seenAt: T + 47_000,
        serverDate: T + 46_000,
      },
      {
        kind: "targeted",
        appId: "app",
        from: "dep-1",
        to: "dep-2",
        seenAt: T + 60_000,
        serverDate: undefined,
      },
    ];
    const health = log.health(changes);
    expect(health.map((e) => [e.kind, e.at, e.text])).toEqual([
      ["deployment", T + 45_000, "deployment dep-1: 3/3 ready → 2/3 ready"],
      ["deployment", T + 60_000, "live deployment of app app: dep-1 → dep-2"],
    ]);
    // The record is read whole at every poll: a change is given once.
    expect(log.health(changes)).toEqual([]);
  });

  it("forgets the oldest identities past its bound", () => {
    const log = new PaneEventLog(2);
    const e = (id: string) =>
      ({
        id,
        messageId: id,
        eventType: "Send",
        toAddress: "a@b",
        timestamp: String(T),
        details: {},
      }) as EmailEvent;
    expect(log.email([e("1"), e("2"), e("3")]).length).toBe(3);
    // "1" was forgotten: given again; "3" is remembered.
    expect(log.email([e("1"), e("3")]).map((x) => x.fields.emailEventId)).toEqual(["1"]);
  });

  it("has a glyph of one column for each kind, each its own", () => {
    const glyphs = PANE_EVENT_KINDS.map((k) => EVENT_GLYPHS[k]);
    expect(new Set(glyphs).size).toBe(PANE_EVENT_KINDS.length);
    for (const g of glyphs) expect([...g].length).toBe(1);
  });
});
