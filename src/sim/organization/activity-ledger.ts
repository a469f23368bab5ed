/**
 * The activities submitted to the simulator, in the organization's state: found by id or by
 * fingerprint (an identical body is the same activity), newest first, and moved through
 * consensus by root users' votes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { ActivityRecord, OrgState, UserRecord, VoteRecord } from "./org-state.js";
import { MAX_SUBMITTED_ACTIVITIES } from "./org-state.js";
import { checkVoter, type Tally, tally } from "./quorum.js";

/** `sha256:` + hex SHA-256 of the exact request body: Turnkey's activity fingerprint. */
export function activityFingerprint(rawBody: string): string {
  return `sha256:${bytesToHex(sha256(new TextEncoder().encode(rawBody)))}`;
}

export class ActivityLedger {
  private readonly byFingerprint = new Map<string, ActivityRecord>();
  private readonly byId = new Map<string, ActivityRecord>();

  constructor(private readonly state: OrgState) {
    this.reindex();
  }

  /** Indexes the state's activities afresh (after the state was replaced). */
  reindex(): void {
    this.byFingerprint.clear();
    this.byId.clear();
    for (const a of this.state.activities) this.index(a);
  }

  byFingerprintOf(fingerprint: string): ActivityRecord | undefined {
    return this.byFingerprint.get(fingerprint);
  }

  get(id: string): ActivityRecord | undefined {
    return this.byId.get(id);
  }

  /** Newest first. */
  list(): ActivityRecord[] {
    return [...this.state.activities].reverse();
  }

  add(record: ActivityRecord): void {
    this.state.activities.push(record);
    this.index(record);
    const excess = this.state.activities.length - MAX_SUBMITTED_ACTIVITIES;
    if (excess > 0) {
      for (const old of this.state.activities.splice(0, excess)) {
        this.byId.delete(old.id);
        this.byFingerprint.delete(old.fingerprint);
      }
    }
  }

  /** Records a root user's vote on an activity awaiting consensus; where the votes stand now. */
  vote(activity: ActivityRecord, voter: UserRecord, vote: VoteRecord): Tally {
    checkVoter(activity, this.state, voter);
    activity.votes.push(vote);
    activity.updatedAt = vote.createdAt;
    return tally(activity.votes, this.state.rootQuorum);
  }

  private index(a: ActivityRecord): void {
    this.byId.set(a.id, a);
    this.byFingerprint.set(a.fingerprint, a);
  }
}
