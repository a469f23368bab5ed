/**
 * The activities submitted to the simulator, in the organization's state: found by id or by
 * fingerprint (an identical body is the same activity), shaped as the API's activity envelope,
 * and moved through consensus by votes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { failedPrecondition, permissionDenied } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { ActivityRecord, OrgState, UserRecord, VoteRecord } from "./org-state.js";
import { MAX_SUBMITTED_ACTIVITIES } from "./org-state.js";

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

  /**
   * Records a root user's vote on an activity awaiting consensus. Returns "approved" once enough
   * root users approved, "rejected" once too few are left to approve, else "waiting".
   */
  vote(
    activity: ActivityRecord,
    voter: UserRecord,
    vote: VoteRecord,
  ): "approved" | "rejected" | "waiting" {
    if (activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
      throw failedPrecondition(
        `activity ${activity.id} is ${activity.status}, not awaiting consensus`,
      );
    }
    const quorum = this.state.rootQuorum;
    if (!quorum.userIds.includes(voter.userId)) {
      throw permissionDenied(
        `request not authorized: user ${voter.userName} is not in the root quorum, so cannot vote on activity ${activity.id}`,
      );
    }
    if (activity.votes.some((v) => v.userId === voter.userId)) {
      throw failedPrecondition(
        `user ${voter.userName} has already voted on activity ${activity.id}`,
      );
    }
    activity.votes.push(vote);
    activity.updatedAt = vote.createdAt;
    return this.tally(activity);
  }

  /** Where the votes stand against the root quorum. */
  tally(activity: ActivityRecord): "approved" | "rejected" | "waiting" {
    const quorum = this.state.rootQuorum;
    const approvals = activity.votes.filter(
      (v) => v.selection === "VOTE_SELECTION_APPROVED" && quorum.userIds.includes(v.userId),
    ).length;
    const rejections = activity.votes.filter(
      (v) => v.selection === "VOTE_SELECTION_REJECTED" && quorum.userIds.includes(v.userId),
    ).length;
    if (approvals >= quorum.threshold) return "approved";
    if (quorum.userIds.length - rejections < quorum.threshold) return "rejected";
    return "waiting";
  }

  private index(a: ActivityRecord): void {
    this.byId.set(a.id, a);
    this.byFingerprint.set(a.fingerprint, a);
  }
}

/** The API's activity envelope of a submitted activity. */
export function activityJson(a: ActivityRecord, organizationId: string) {
  const open = a.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED";
  return {
    id: a.id,
    organizationId,
    status: a.status,
    type: a.type,
    intent: { [a.intentKey]: a.intent },
    result: a.result ? { [a.resultKey]: a.result } : {},
    votes: a.votes.map((v) => ({
      id: v.id,
      userId: v.userId,
      user: { userId: v.userId, userName: v.userName },
      activityId: a.id,
      selection: v.selection,
      message: v.message,
      publicKey: v.publicKey,
      signature: v.signature,
      scheme: v.scheme,
      createdAt: protoTimestamp(v.createdAt),
    })),
    fingerprint: a.fingerprint,
    canApprove: open,
    canReject: open,
    createdAt: protoTimestamp(a.createdAt),
    updatedAt: protoTimestamp(a.updatedAt),
    ...(a.failure ? { failure: { ...a.failure, details: [] } } : {}),
    ...(a.appProofs ? { appProofs: a.appProofs } : {}),
  };
}
