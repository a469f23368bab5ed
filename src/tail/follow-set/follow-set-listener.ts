/**
 * What a follow-set (./follow-set.ts) tells those who listen to it: the deployments it takes on
 * and lets go, their lines, their failures, and what `--max-deployments` leaves out. It never
 * prints: `tail` says these on stderr, the dashboard puts them in its log as markers.
 */

import type { LogEvent } from "../../logs/model/log-line.js";
import type { FollowerStopError, LogFollower } from "../follower.js";
import type { GroupMember } from "../follower-group.js";
import type { ListingCount } from "./deployment-cap.js";

/** One deployment of a follow-set: its label as it is now, and its own follower. */
export interface FollowMember extends GroupMember {
  follower: LogFollower;
}

/** Every method is optional: a user listens to what it needs. */
export interface FollowSetListener {
  /**
   * A deployment is followed from now on (given at the start, added, or found by a relist),
   * before its follower's first poll: what listens to the follower itself starts here.
   */
  onAdded?(member: FollowMember): void;
  /** A relist found a deployment not followed yet (said after onAdded, before it is polled). */
  onAppeared?(member: FollowMember): void;
  /** A relist no longer lists a followed deployment (or it left debug mode): let go. */
  onGone?(member: FollowMember): void;
  /**
   * The deployments listed but not followed, over `--max-deployments`: at the start when some
   * are, and at a relist when their number changed; `line` says it to a person.
   */
  onLeftOut?(line: string, count: ListingCount): void;
  /** New events of a deployment's follower, as it hands them on (`member` labelled as now). */
  onBatch?(member: FollowMember, events: LogEvent[]): void;
  /** A deployment's follow ended on a failure no retry can help; the others go on. */
  onFailed?(member: FollowMember, error: FollowerStopError): void;
  /** A relist failed: the deployments are listed again at the next turn, followed meanwhile. */
  onRelistFailed?(error: unknown): void;
}
