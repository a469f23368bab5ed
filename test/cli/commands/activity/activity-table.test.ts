/**
 * `activity list`'s table (src/cli/commands/activity/activity-table.ts): two activities the
 * server sent under one id with different types or fingerprints are both listed, each marked as
 * contested rather than awaiting a vote, as the dashboard's pane marks them; an activity sent
 * twice as it is stays one that awaits a vote.
 */
import { describe, expect, it } from "vitest";
import { activityTable } from "../../../../src/cli/commands/activity/activity-table.js";
import { activity } from "../../../tui/fixtures.js";

const NOW = Date.now();

describe("activityTable", () => {
  it("marks both activities the server sent under one id as contested, not awaiting a vote", () => {
    const real = activity("act-1", "CONSENSUS_NEEDED", 5_000);
    const twin = {
      ...real,
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      fingerprint: `sha256:${"ab".repeat(32)}`,
    };
    const other = activity("act-2", "CONSENSUS_NEEDED", 9_000);
    const rows = activityTable([real, twin, other, other], NOW, false).split("\n").slice(1);
    expect(rows).toHaveLength(4);
    const [first, second, third] = rows;
    expect(first).toMatch(
      /^act-1 .*sign_transaction v2.* contested: the server sent two different activities with one id$/,
    );
    expect(second).toMatch(
      /^act-1 .*export_wallet.* contested: the server sent two different activities with one id$/,
    );
    expect(third).toMatch(/^act-2 .* awaiting your vote$/);
  });
});
