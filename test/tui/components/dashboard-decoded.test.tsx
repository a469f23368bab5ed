/**
 * What an activity signs, decoded, where a person judges it in the dashboard (issue 36): the
 * confirmation at 80x24 with the one-line summary in its fixed header (the recipient whole on its
 * own line when the sentence does not fit) and the decoded lines first in the part that scrolls;
 * the activity detail with the decoding as its first field, and a value that cannot be decoded
 * said so with the raw value whole.
 */

import {
  type Address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase16Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { IntentDecoder } from "../../../src/activity/decode/intent-decoder.js";
import type { Activity } from "../../../src/api/schemas.js";
import type { ActivityVoting } from "../../../src/feeds/dashboard-sources.js";
import { activity, NOW } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

const PAYER = "4fKptYqcELTka18BGLBq6jQVDL9mca6vQs5bxcU5oki4" as Address;
const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address;

/** 0.25 SOL from PAYER to RECIPIENT, as sign_transaction carries it (hex). */
function solTransfer(): string {
  const message = pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageFeePayer(PAYER, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: "J4yED2jcMAHyQUg61DBmm4njmEydUr2WqrV9cdEcDDgL" as never,
          lastValidBlockHeight: 0n,
        },
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getTransferSolInstruction({
            source: createNoopSigner(PAYER),
            destination: RECIPIENT,
            amount: 250_000_000n,
          }),
        ],
        m,
      ),
  );
  return getBase16Decoder().decode(getTransactionEncoder().encode(compileTransaction(message)));
}

function signing(unsignedTransaction: string): Activity {
  return {
    ...activity("a1", "CONSENSUS_NEEDED", 30_000),
    intent: {
      signTransactionIntentV2: {
        signWith: PAYER,
        unsignedTransaction,
        type: "TRANSACTION_TYPE_SOLANA",
      },
    },
  };
}

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
  vote: async () => {
    throw new Error("not in this test");
  },
};

describe("decoded intents in the dashboard", () => {
  it("the confirmation at 80x24: the summary in the fixed header, the recipient whole, the decoded lines first below", async () => {
    const { type, waitForFrame, frame, unmount } = await renderDashboard({
      parts: { activities: [signing(solTransfer())] },
      size: { columns: 80, rows: 24 },
      voting,
      decoder: new IntentDecoder(),
    });
    await type("\t");
    await type("A");
    await waitForFrame((f) => {
      expect(f).toContain("Approve an activity");
      expect(f).toContain("decoded      sends 0.25 SOL to [to]");
      // The whole address on a line of its own, never cut.
      expect(f).toMatch(/to\s+9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM/);
      expect(f).toContain("decoded      Solana transaction, legacy message, 1 instruction");
      expect(f).toContain("y approves · n or Esc cancels");
    });
    const lines = frame().split("\n");
    // The frame stays within the terminal (Ink keeps one row free below it).
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // The summary sits above the rule that starts the scrolling part.
    const summaryAt = lines.findIndex((l) => l.includes("sends 0.25 SOL to [to]"));
    const ruleAt = lines.findIndex((l) => /│ ──/.test(l));
    expect(summaryAt).toBeGreaterThan(0);
    expect(ruleAt).toBeGreaterThan(summaryAt);
    unmount();
  });

  it("the activity detail shows the decoding first; what cannot be decoded says so, the raw value whole", async () => {
    const raw = "01ffee";
    const { type, waitForFrame, unmount } = await renderDashboard({
      parts: { activities: [signing(raw)] },
      size: { columns: 100, rows: 30 },
      voting,
      decoder: new IntentDecoder(),
    });
    await type("\t");
    await type("\r");
    await waitForFrame((f) => {
      expect(f).toMatch(/decoded\s+not a Solana transaction: /);
      expect(f).toMatch(/raw\s+01ffee/);
      const decodedAt = f.indexOf("not a Solana transaction");
      expect(decodedAt).toBeLessThan(f.indexOf("fingerprint"));
    });
    unmount();
  });
});
