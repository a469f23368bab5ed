/**
 * `tvcwatch activity approve ID|FINGERPRINT`: an ID is looked up with get_activity (its
 * fingerprint is what a vote names); a fingerprint is looked for among the organization's
 * newest activities, those awaiting consensus first, so the confirmation can show what it is.
 * One found under an id the same page also lists a different activity under (another type or
 * fingerprint) is contested: neither is voted on until the server settles it.
 */

import { activityContent } from "../../../activity/activity-identity.js";
import type { CallOptions, TurnkeyClient } from "../../../api/client.js";
import type { Activity } from "../../../api/schemas.js";

/** Turnkey's fingerprint: `sha256:` and 64 hex digits. */
const FINGERPRINT = /^sha256:[0-9a-f]{64}$/i;

export function isFingerprint(text: string): boolean {
  return FINGERPRINT.test(text);
}

export type Found =
  | { kind: "activity"; activity: Activity }
  /** Found under an id the server also sent a different activity under. */
  | { kind: "contested"; activity: Activity }
  /** A fingerprint matched by none of the `searched` newest activities. */
  | { kind: "fingerprint-only"; fingerprint: string; searched: number };

/** Pages of 100 read at most: those awaiting consensus, then every status. */
const PAGES_AWAITING = 5;
const PAGES_ANY = 10;
const PAGE = 100;

async function search(
  client: TurnkeyClient,
  fingerprint: string,
  statuses: string[] | undefined,
  pages: number,
  options: Pick<CallOptions, "onRetry" | "signal">,
): Promise<{ activity?: Activity; contested?: boolean; searched: number }> {
  let after: string | undefined;
  let searched = 0;
  for (let page = 0; page < pages; page++) {
    const { activities } = await client.call(
      "list_activities",
      {
        ...(statuses ? { filterByStatus: statuses as never } : {}),
        paginationOptions: { limit: String(PAGE), ...(after ? { after } : {}) },
      },
      options,
    );
    searched += activities.length;
    const match = activities.find((a) => a.fingerprint.toLowerCase() === fingerprint.toLowerCase());
    if (match) {
      const content = activityContent(match);
      const contested = activities.some((a) => a.id === match.id && activityContent(a) !== content);
      return { activity: match, contested, searched };
    }
    if (activities.length < PAGE) break;
    after = activities.at(-1)?.id;
  }
  return { searched };
}

/** The activity an ID or fingerprint names; a fingerprint found nowhere is returned as it is. */
export async function findActivity(
  client: TurnkeyClient,
  ref: string,
  options: Pick<CallOptions, "onRetry" | "signal"> = {},
): Promise<Found> {
  if (!isFingerprint(ref)) {
    const { activity } = await client.call("get_activity", { activityId: ref }, options);
    return { kind: "activity", activity };
  }
  const awaiting = await search(
    client,
    ref,
    ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
    PAGES_AWAITING,
    options,
  );
  const found = (r: { activity?: Activity; contested?: boolean }): Found | undefined =>
    r.activity && { kind: r.contested ? "contested" : "activity", activity: r.activity };
  const first = found(awaiting);
  if (first) return first;
  const any = await search(client, ref, undefined, PAGES_ANY, options);
  const later = found(any);
  if (later) return later;
  return { kind: "fingerprint-only", fingerprint: ref, searched: any.searched };
}
