import { describe, expect, it } from "vitest";
import { OrganizationNames } from "../../../src/activity/organization-names.js";
import type { Activity } from "../../../src/api/schemas.js";
import { activityDetail } from "../../../src/tui/panes/activity-detail.js";
import { JWT, stampLogin } from "../fixtures.js";

const text = (a: Activity) =>
  activityDetail(a)
    .fields.map((f) => `${f.label}: ${f.lines.join("\n")}`)
    .join("\n");

describe("the activity detail", () => {
  it("redacts the secret fields the operation table marks (stamp_login's session), as call does", () => {
    const shown = text(stampLogin);
    expect(shown).not.toContain(JWT);
    expect(shown).not.toContain(JWT.slice(0, 20));
    expect(shown).toContain(`"session": "[redacted: ${JWT.length} characters]"`);
    expect(shown).toMatch(/redacted: session \(secret/);
    // Fields that are not secret stay.
    expect(shown).toContain('"publicKey": "02abc"');
  });

  it("redacts secrets in an intent too (oauth's oidcToken), and every bundle", () => {
    const oauth: Activity = {
      ...stampLogin,
      type: "ACTIVITY_TYPE_OAUTH",
      intent: { oauthIntent: { oidcToken: "header.payload.sig", targetPublicKey: "04ff" } },
      result: {
        oauthResult: { userId: "u", apiKeyId: "k", credentialBundle: "bundle-bytes-secret" },
      },
    };
    const shown = text(oauth);
    expect(shown).not.toContain("header.payload.sig");
    expect(shown).not.toContain("bundle-bytes-secret");
    expect(shown).toContain('"targetPublicKey": "04ff"');
  });

  it("shows the fingerprint whole and names voters", () => {
    const shown = text(stampLogin);
    expect(shown).toContain(`fingerprint: sha256:${"ab".repeat(32)}`);
    expect(shown).toContain("votes: approved by oncall-root (user user-1)");
  });
});

describe("the activity detail names what the organization lists (issue 36)", () => {
  it("each id or address of the intent and result once, beside its name; a secret never", () => {
    const names = new OrganizationNames([
      ["w-1", { kind: "wallet", name: "Default wallet" }],
      ["So1Address", { kind: "wallet account", name: "Default wallet m/44'/501'/0'/0'" }],
    ]);
    const exportWallet: Activity = {
      ...stampLogin,
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      intent: { exportWalletIntent: { walletId: "w-1", targetPublicKey: `04${"ab".repeat(64)}` } },
      result: { exportWalletResult: { walletId: "w-1", exportBundle: "So1Address" } },
    };
    const fields = activityDetail(exportWallet, names).fields;
    const named = fields.find((f) => f.label === "names");
    expect(named?.lines).toEqual(['w-1  wallet "Default wallet"']);
    // The target public key is whole in the intent.
    expect(fields.map((f) => f.lines.join("\n")).join("\n")).toContain(`04${"ab".repeat(64)}`);
    expect(activityDetail(exportWallet).fields.some((f) => f.label === "names")).toBe(false);
  });
});

describe("the activity detail's decoding names what the organization lists", () => {
  it("a decoded value that is one of its accounts has the name beside it", () => {
    const names = new OrganizationNames([
      ["So1Address", { kind: "wallet account", name: "Default wallet m/44'/501'/0'/0'" }],
    ]);
    const decoded = {
      what: "Solana transaction, legacy message, 1 instruction",
      outcome: "decoded" as const,
      summary: { whole: "sends 1 SOL to Other", short: "sends 1 SOL to Other", addresses: [] },
      rows: [
        { depth: 0, label: "fee payer", value: "So1Address" },
        { depth: 1, label: "destination", value: "Other" },
      ],
      json: {},
    };
    const first = activityDetail(stampLogin, names, { state: "done", decoded }).fields[0];
    expect(first?.label).toBe("decoded");
    expect(first?.lines).toContain(
      `fee payer   So1Address (wallet account "Default wallet m/44'/501'/0'/0'")`,
    );
    expect(first?.lines).toContain("  destination  Other");
  });
});
