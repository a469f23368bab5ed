import { describe, expect, it } from "vitest";
import { exportSummary, isExport } from "../../src/activity/export-summary.js";

describe("what an export lets out of Turnkey", () => {
  it("names the material and the whole target public key", () => {
    const target = `04${"ab".repeat(64)}`;
    expect(
      exportSummary({
        type: "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
        intent: { exportPrivateKeyIntent: { privateKeyId: "pk-1", targetPublicKey: target } },
      }),
    ).toBe(`private key pk-1 leaves Turnkey, encrypted to target public key ${target}`);
    expect(isExport("ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT")).toBe(true);
  });

  it("says when the intent names no target or no wallet; other activities export nothing", () => {
    expect(
      exportSummary({ type: "ACTIVITY_TYPE_EXPORT_WALLET", intent: { exportWalletIntent: {} } }),
    ).toBe(
      "the mnemonic of wallet (no walletId in the intent) (every account's key) leaves Turnkey, and the intent names no target public key",
    );
    expect(
      exportSummary({
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
        intent: { signTransactionIntentV2: {} },
      }),
    ).toBeUndefined();
  });

  it("escapes what the server sent, and bounds a key too long to be one", () => {
    const line = exportSummary({
      type: "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
      intent: {
        exportWalletAccountIntent: {
          address: "0x\u001b[2Jevil",
          targetPublicKey: "f".repeat(20_000),
        },
      },
    });
    expect(line).not.toMatch(/\u001b/);
    expect(line).toContain("\\x1b[2J");
    // Whole up to 16 KiB (no key is near that), the rest counted.
    expect(line).toMatch(/ f{16384}… \(3,616 more characters; -o json has it whole\)$/);
  });
});
