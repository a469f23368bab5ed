import { describe, expect, it } from "vitest";
import { shortType } from "../../../src/activity/activity-fields.js";
import type { Activity, EmailEvent, SolTransaction } from "../../../src/api/schemas.js";
import { shortAge } from "../../../src/text/duration.js";
import { formatAtomic } from "../../../src/text/token-amount.js";
import { validatedAmount } from "../../../src/text/validated-amount.js";
import { summarizeActivities } from "../../../src/tui/panes/activity-summary.js";
import { groupEmailEvents } from "../../../src/tui/panes/email-timeline.js";
import {
  shortenAddress,
  summarizeTransfers,
  type TransferRow,
  transferDetail,
} from "../../../src/tui/panes/solana-transfers.js";

describe("Solana amounts", () => {
  it("are exact from atomic units and decimals, with BigInt", () => {
    expect(formatAtomic("1234500", 6)).toBe("1.2345");
    expect(formatAtomic("1", 9)).toBe("0.000000001");
    expect(formatAtomic("123456789012345678901234567890", 9)).toBe(
      "123,456,789,012,345,678,901.23456789",
    );
    expect(formatAtomic("9007199254740993", 0)).toBe("9,007,199,254,740,993");
    expect(formatAtomic(-1500n, 3)).toBe("-1.5");
    expect(formatAtomic("0", 6)).toBe("0");
    expect(formatAtomic("000120", 2)).toBe("1.2");
    expect(formatAtomic("-0", 3)).toBe("0");
    expect(formatAtomic("1000", 3)).toBe("1");
    expect(formatAtomic("123", 0)).toBe("123");
    expect(formatAtomic(`1${"0".repeat(99)}`, 255)).toBe(`0.${"0".repeat(155)}1`);
  });

  it("within bounds: huge decimals or digit counts are named, not formatted", () => {
    // Formatting decimals 100000 (regexes over the digits) froze the dashboard.
    expect(formatAtomic("1", 100_000)).toBe("(decimals 100000 out of range)");
    expect(formatAtomic("1".repeat(100_000), 9)).toBe("(amount too long: 100,000 digits)");
    expect(formatAtomic("1", -1)).toBe("(decimals -1 out of range)");
    expect(formatAtomic("1", 1.5)).toBe("(decimals 1.5 out of range)");
    expect(formatAtomic("12a", 2)).toBe("(not an amount)");
    expect(formatAtomic("1", 255)).toBe(`0.${"0".repeat(254)}1`);
    expect(formatAtomic("9".repeat(100), 0)).toMatch(/^9,999,999,(999,)+999$/);
  });

  it("rows of a transfer out of bounds say why, and stay out of the net flow", () => {
    const t = (amount: string, decimals: number): SolTransaction => ({
      signature: `s${amount.length}-${decimals}`,
      block: { number: "1", hash: "h", timestamp: "2026-11-22T10:00:00Z" },
      status: "CONFIRMED",
      origin: "o",
      feePayer: "f",
      signers: [],
      fee: { amount: "5".repeat(200_000), caip19: "c" },
      transfers: [
        {
          direction: "IN",
          amount,
          counterparty: "c",
          asset: { caip19: "u", symbol: "X", name: "X", decimals },
        },
      ],
    });
    const { rows, net } = summarizeTransfers(
      new Map([["a", [t("1", 100_000), t("7".repeat(100_000), 6), t("5", 0)]]]),
    );
    expect(rows.map((r) => r.amount)).toEqual([
      "(decimals 100000 out of range)",
      "(amount too long: 100,000 digits)",
      "5",
    ]);
    expect(rows[0]?.fee).toBe("(amount too long: 200,000 digits)");
    expect(net).toEqual([{ symbol: "X", net: "+5", positive: true }]);
  });

  it("net flow per asset ignores the display string and failed transactions", () => {
    const tx = (
      sig: string,
      direction: "IN" | "OUT",
      amount: string,
      status = "CONFIRMED",
      failed = false,
    ): SolTransaction => ({
      signature: sig,
      block: { number: "1", hash: "h", timestamp: "2026-11-22T10:00:00Z" },
      status,
      origin: "o",
      feePayer: "f",
      signers: [],
      fee: { amount: "5000", caip19: "c" },
      transfers: [
        {
          direction,
          amount,
          counterparty: "Counterparty1111111111111111111111",
          asset: { caip19: "u", symbol: "USDC", name: "USD Coin", decimals: 6 },
          display: { crypto: "999999" },
        },
      ],
      executionFailed: failed,
    });
    const { rows, net } = summarizeTransfers(
      new Map([
        [
          "addr",
          [
            tx("a", "IN", "2500000"),
            tx("b", "OUT", "1000001", "FINALIZED"),
            tx("c", "IN", "7000000", "CONFIRMED", true),
            tx("a", "IN", "2500000"),
          ],
        ],
      ]),
    );
    expect(net).toEqual([{ symbol: "USDC", net: "+1.499999", positive: true }]);
    expect(rows.map((r) => [r.tx.signature, r.amount, r.status, r.finalized])).toEqual([
      ["a", "2.5", "conf", false],
      ["b", "1.000001", "final", true],
      ["c", "7", "conf", false],
    ]);
    expect(rows[0]?.fee).toBe("0.000005");
    expect(shortenAddress("Counterparty1111111111111111111111")).toBe("Coun…1111");
  });
});

describe("email timeline", () => {
  const ev = (
    id: string,
    messageId: string,
    eventType: string,
    timestamp: number,
    details = {},
  ): EmailEvent => ({
    id,
    organizationId: "o",
    messageId,
    eventType,
    fromAddress: "from@example.com",
    toAddress: "to@example.com",
    timestamp: String(timestamp),
    createdAt: String(timestamp),
    details,
  });

  it("groups per messageId, in order, with times after the first event and bounce details", () => {
    const messages = groupEmailEvents([
      ev("3", "m2", "Bounce", 5_000, {
        bounceType: "Permanent",
        diagnosticCode: "smtp; 550 5.1.1 user unknown",
      }),
      ev("2", "m1", "Delivery", 1_812),
      ev("4", "m2", "Send", 4_000),
      ev("1", "m1", "Send", 1_000),
      ev("1", "m1", "Send", 1_000),
    ]);
    expect(messages.map((m) => m.messageId)).toEqual(["m2", "m1"]);
    expect(messages[1]?.steps.map((s) => [s.eventType, s.afterMs])).toEqual([
      ["Send", 0],
      ["Delivery", 812],
    ]);
    expect(messages[0]?.outcome).toBe("Bounce");
    expect(messages[0]?.steps[1]?.detail).toBe("Permanent / smtp; 550 5.1.1 user unknown");
    expect(
      groupEmailEvents([ev("2", "m1", "Delivery", 2), ev("3", "m2", "Bounce", 3)], "Bounce").map(
        (m) => m.messageId,
      ),
    ).toEqual(["m2"]);
  });
});

describe("activity summary", () => {
  const act = (id: string, status: string, created: number, votes = 0): Activity => ({
    id,
    organizationId: "o",
    status: `ACTIVITY_STATUS_${status}`,
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    intent: {},
    result: {},
    votes: Array.from({ length: votes }, (_, i) => ({
      id: `v${i}`,
      userId: "u",
      activityId: id,
      selection: "VOTE_SELECTION_APPROVED",
    })),
    fingerprint: "sha256:x",
    canApprove: status === "CONSENSUS_NEEDED",
    canReject: status === "CONSENSUS_NEEDED",
    createdAt: { seconds: String(created / 1000), nanos: "0" },
    updatedAt: String(created),
  });

  it("counts per status, attention first, with short types, ages and votes", () => {
    const s = summarizeActivities(
      [
        act("a", "COMPLETED", 0),
        act("b", "FAILED", 10_000),
        act("c", "CONSENSUS_NEEDED", 20_000, 1),
      ],
      80_000,
    );
    expect(s.counts).toEqual([
      { label: "consensus", knownStatus: "CONSENSUS_NEEDED", count: 1 },
      { label: "failed", knownStatus: "FAILED", count: 1 },
      { label: "completed", knownStatus: "COMPLETED", count: 1 },
    ]);
    expect(s.rows.map((r) => r.status)).toEqual(["completed", "failed", "consensus"]);
    expect(s.rows[2]).toMatchObject({
      type: "sign_transaction v2",
      ageMs: 60_000,
      votes: 1,
      attention: "consensus",
    });
    expect(s.rows[1]?.attention).toBe("failed");
    expect(shortType("ACTIVITY_TYPE_STAMP_LOGIN")).toBe("stamp_login");
    expect([
      shortAge(5_000),
      shortAge(125_000),
      shortAge(7_200_000),
      shortAge(200_000_000),
    ]).toEqual(["5s", "2m", "2h", "2d"]);
  });
});

describe("amounts validated (one rule for every amount field)", () => {
  const tx = (amount: string, fee: string, direction: "IN" | "OUT" = "IN"): SolTransaction => ({
    signature: `sig-${amount}-${fee}-${direction}`,
    block: { number: "1", hash: "h", timestamp: "2026-11-22T10:00:00Z" },
    status: "CONFIRMED",
    origin: "o",
    feePayer: "f",
    signers: [],
    fee: { amount: fee, caip19: "solana:mainnet/slip44:501" },
    transfers: [{ direction, amount, counterparty: "c" }],
  });

  it("a negative amount or fee is invalid, shown as such, and left out of the net", () => {
    const { rows, net } = summarizeTransfers(
      new Map([["a", [tx("-5000000000", "-1"), tx("2000000000", "5000", "IN")]]]),
    );
    const bad = rows.find((r) => r.tx.signature.startsWith("sig--5"));
    expect(bad?.amount).toBe("(invalid: -5)");
    expect(bad?.amountValid).toBe(false);
    expect(bad?.fee).toBe("(invalid: -0.000000001)");
    expect(bad?.feeValid).toBe(false);
    const good = rows.find((r) => r.tx.signature.startsWith("sig-2"));
    expect(good).toMatchObject({ amount: "2", amountValid: true, fee: "0.000005", feeValid: true });
    // Only the valid transfer counts: +2 SOL, not -3.
    expect(net).toEqual([{ symbol: "SOL", net: "+2", positive: true }]);
    const detail = transferDetail(bad as TransferRow);
    const text = detail.fields.map((f) => `${f.label} ${f.lines.join(" ")}`).join("\n");
    expect(text).toContain("amount invalid negative (-5000000000 atomic units)");
    expect(text).toContain("fee invalid negative (-1 atomic units)");
  });

  it("the helper decoded intents use: valid amounts carry their units, others why", () => {
    expect(validatedAmount(1500n, 3)).toEqual({ valid: true, atomic: 1500n, shown: "1.5" });
    expect(validatedAmount("-0", 3)).toMatchObject({ valid: false, shown: "(invalid: -0)" });
    expect(validatedAmount("12a", 2)).toEqual({
      valid: false,
      shown: "(not an amount)",
      why: "cannot be read: not an amount",
    });
    expect(validatedAmount("1", 300)).toMatchObject({ valid: false });
  });
});
