/**
 * Decoding what arrives from outside never throws: random bytes, hex or base64 or neither, as an
 * Ethereum or Solana transaction or a payload of any encoding, each come back decoded or said
 * not decoded in one line naming what could not be read, with the raw value whole.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeActivity } from "../../../src/activity/decode/decode-activity.js";
import { decodedLines } from "../../../src/activity/decode/decoded-intent.js";
import type { Activity } from "../../../src/api/schemas.js";

const text = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString("hex")),
  fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString("base64")),
  // A real-looking start: one signature slot, then random bytes.
  fc
    .uint8Array({ maxLength: 300 })
    .map((b) => `01${"00".repeat(64)}${Buffer.from(b).toString("hex")}`),
  // An EIP-1559 type byte, then random bytes.
  fc.uint8Array({ maxLength: 300 }).map((b) => `02${Buffer.from(b).toString("hex")}`),
  fc.string({ maxLength: 200 }),
);

const kind = fc.oneof(
  fc.constantFrom("TRANSACTION_TYPE_ETHEREUM", "TRANSACTION_TYPE_SOLANA").map((t) => ({
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    fields: { type: t },
    field: "unsignedTransaction",
  })),
  fc.constant({
    type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
    fields: {},
    field: "unsignedTransaction",
  }),
  fc
    .constantFrom(
      "PAYLOAD_ENCODING_HEXADECIMAL",
      "PAYLOAD_ENCODING_TEXT_UTF8",
      "PAYLOAD_ENCODING_EIP712",
      "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
    )
    .map((encoding) => ({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      fields: { encoding, hashFunction: "HASH_FUNCTION_NO_OP" },
      field: "payload",
    })),
);

function activity(type: string, intent: Record<string, unknown>): Activity {
  return {
    id: "a",
    organizationId: "o",
    status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    type,
    intent: { x: intent },
    result: {},
    votes: [],
    fingerprint: "sha256:a",
    canApprove: false,
    canReject: false,
    createdAt: "0",
    updatedAt: "0",
  } as Activity;
}

describe("decoding random input", () => {
  it("never throws; what it cannot read it says in one line, the raw value whole", async () => {
    await fc.assert(
      fc.asyncProperty(kind, text, async (k, value) => {
        const d = await decodeActivity(activity(k.type, { ...k.fields, [k.field]: value }));
        expect(d).toBeDefined();
        if (!d) return;
        expect(d.what).not.toContain("\n");
        expect(d.summary.whole).not.toContain("\n");
        const lines = decodedLines(d);
        expect(lines.length).toBeGreaterThan(0);
        if (d.outcome === "not-decoded") {
          expect(d.what).toMatch(/^not .+: \S/);
          expect(d.rows.find((r) => r.label === "raw")?.value).toBe(value === "" ? '""' : value);
        }
      }),
      { numRuns: 400 },
    );
  });
});
