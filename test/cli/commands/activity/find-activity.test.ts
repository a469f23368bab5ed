/**
 * `activity approve|reject FINGERPRINT` looks the fingerprint up among the newest activities
 * (src/cli/commands/activity/find-activity.ts): one found under an id the server also sent a
 * different activity under (another type or fingerprint) is found as contested, which the vote
 * refuses, as the dashboard does; an activity sent twice as it is is found as itself.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../../../src/api/client.js";
import { findActivity } from "../../../../src/cli/commands/activity/find-activity.js";
import { json, scriptedServer } from "../../../helpers/http-server.js";
import { activity } from "../../../tui/fixtures.js";

const FP = (c: string) => `sha256:${c.repeat(64)}`;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function clientListing(activities: unknown[]) {
  const server = await scriptedServer((_req, res) => json(res, 200, { activities }));
  close = server.close;
  return new TurnkeyClient({
    baseUrl: server.url,
    organizationId: "org",
    apiKey: {
      publicKey: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
      privateKey: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
    },
  });
}

describe("findActivity by fingerprint", () => {
  it("finds an activity whose id the server also sent another activity under as contested", async () => {
    const real = { ...activity("act-1", "CONSENSUS_NEEDED", 5_000), fingerprint: FP("a") };
    const twin = { ...real, type: "ACTIVITY_TYPE_EXPORT_WALLET", fingerprint: FP("b") };
    const client = await clientListing([real, twin]);
    const found = await findActivity(client, FP("b"));
    expect(found).toMatchObject({
      kind: "contested",
      activity: { id: "act-1", fingerprint: FP("b") },
    });
  });

  it("finds an activity sent twice as it is as itself", async () => {
    const real = { ...activity("act-1", "CONSENSUS_NEEDED", 5_000), fingerprint: FP("a") };
    const client = await clientListing([real, real]);
    const found = await findActivity(client, FP("a"));
    expect(found).toMatchObject({ kind: "activity", activity: { id: "act-1" } });
  });
});
