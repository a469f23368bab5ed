/**
 * `--max-deployments N` (default 50): how many of the deployments `--app` / `--all` list are
 * followed, in `tail` and the dashboard. The listing's order decides which
 * (../../feeds/deployment-list.ts, sortChoices: by app name, the app's live deployment first, then
 * the newest first, then by id): the first N at the start; at each relist, those no longer listed
 * are let go and new ones are taken in that order while fewer than N are followed. The rest are
 * left out, and said in one line naming the flag and how many.
 */
import { grouped } from "../../text/grouped-number.js";
export const DEFAULT_MAX_DEPLOYMENTS = 50;

/** What the first listing gives: the deployments to follow and how many were left out. */
export interface CappedList {
  follow: string[];
  /** Distinct deployments listed. */
  listed: number;
  leftOut: number;
}

/** The first `max` of the deployments listed (a repeated id counts once). */
export function capDeployments(listed: readonly string[], max: number): CappedList {
  const distinct = [...new Set(listed)];
  const follow = distinct.slice(0, max);
  return { follow, listed: distinct.length, leftOut: distinct.length - follow.length };
}

/** What a relist changes in what is followed. */
export interface RelistChange {
  /** Followed, no longer listed: let go. */
  gone: string[];
  /** Listed, not followed yet, within the cap: followed from now on. */
  added: string[];
  /** Listed, not followed: over the cap. */
  leftOut: number;
  listed: number;
}

export function relistChange(
  followed: readonly string[],
  listed: readonly string[],
  max: number,
): RelistChange {
  const distinct = [...new Set(listed)];
  const now = new Set(distinct);
  const gone = followed.filter((id) => !now.has(id));
  const kept = new Set(followed.filter((id) => now.has(id)));
  const room = Math.max(0, max - kept.size);
  const candidates = distinct.filter((id) => !kept.has(id));
  const added = candidates.slice(0, room);
  return { gone, added, leftOut: candidates.length - added.length, listed: distinct.length };
}

/** How many deployments a listing had, and how many of them are not followed. */
export interface ListingCount {
  listed: number;
  leftOut: number;
}

/** The line said when deployments are left out (none: undefined). */
export function leftOutLine({ listed, leftOut }: ListingCount, max: number): string | undefined {
  if (leftOut <= 0) return undefined;
  const n = (x: number) => grouped(x);
  return `following ${n(listed - leftOut)} of ${n(listed)} debug-mode deployments (by app, live first, newest first): ${n(leftOut)} left out by --max-deployments ${n(max)}; raise it to follow more`;
}
