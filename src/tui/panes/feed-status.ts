import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { shortAge } from "../../text/duration.js";
import { lit, type Safe, safe } from "../../text/safe-text.js";

/** "3s ago" or the pane's error state, for the pane title. */
export function feedStatus(snapshot: FeedSnapshot<unknown>, now: number): Safe {
  if (snapshot.error) return lit`error (${snapshot.failures}x)`;
  if (snapshot.lastUpdated === undefined) return lit`loading…`;
  return lit`${safe(shortAge(now - snapshot.lastUpdated))} ago`;
}
