import { shortAge } from "../../feeds/activity-summary.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";

/** "updated 3s ago" or the pane's error state, for the pane title. */
export function feedStatus(snapshot: FeedSnapshot<unknown>, now: number): string {
  if (snapshot.error) return `error (${snapshot.failures}x)`;
  if (snapshot.lastUpdated === undefined) return "loading…";
  return `${shortAge(now - snapshot.lastUpdated)} ago`;
}
