/** `activity list --status/--type`: tk's short forms, the API's names, and one line for a typo. */
import { describe, expect, it } from "vitest";
import {
  parseStatus,
  parseType,
  statusFlag,
  typeFlag,
} from "../../src/cli/commands/activity/filters.js";

describe("--status", () => {
  it("takes tk's forms and the API's names, repeatable and comma-separated; all clears it", () => {
    expect(parseStatus("consensus")).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(parseStatus("Consensus_Needed")).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(parseStatus("ACTIVITY_STATUS_FAILED")).toBe("ACTIVITY_STATUS_FAILED");
    expect(statusFlag("failed, rejected", statusFlag("consensus", undefined))).toEqual([
      "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      "ACTIVITY_STATUS_FAILED",
      "ACTIVITY_STATUS_REJECTED",
    ]);
    expect(statusFlag("all", ["ACTIVITY_STATUS_FAILED"])).toEqual([]);
  });

  it("a status that does not exist is one line with the close ones", () => {
    expect(() => parseStatus("complete")).toThrow(
      /^unknown status "complete"; did you mean completed\? \(statuses: created, pending, completed,/,
    );
    expect(() => statusFlag(" , ", undefined)).toThrow("must not be empty");
  });
});

describe("--type", () => {
  it("takes the short name, with its version, or the API's name", () => {
    expect(parseType("set_organization_feature")).toBe("ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE");
    expect(parseType("sign_transaction_v2")).toBe("ACTIVITY_TYPE_SIGN_TRANSACTION_V2");
    expect(parseType("ACTIVITY_TYPE_EXPORT_WALLET")).toBe("ACTIVITY_TYPE_EXPORT_WALLET");
    expect(typeFlag("export_wallet,stamp_login", undefined)).toEqual([
      "ACTIVITY_TYPE_EXPORT_WALLET",
      "ACTIVITY_TYPE_STAMP_LOGIN",
    ]);
  });

  it("a typo or an abbreviation is refused with what was meant", () => {
    expect(() => parseType("set_org_feature")).toThrow(
      'unknown activity type "set_org_feature"; did you mean set_organization_feature?',
    );
    expect(() => parseType("export_walet")).toThrow(/did you mean export_wallet/);
  });
});
