/**
 * The activity envelope (v1Activity), built here and nowhere else, for the activities submitted
 * to the simulator and for the generated background queue alike: the intent and result under
 * their keys, votes with the whole voter, and whether the user asking may still vote.
 */
import type { z } from "zod";
import type { activity } from "../../api/schemas.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { ActivityRecord, OrgState, UserRecord, VoteRecord } from "./org-state.js";
import { userJson } from "./user-json.js";

export type ActivityJson = z.input<typeof activity>;

/** An activity at one moment: what its envelope is made of. */
export type ActivitySnapshot = Pick<
  ActivityRecord,
  | "id"
  | "type"
  | "intentKey"
  | "resultKey"
  | "intent"
  | "result"
  | "failure"
  | "votes"
  | "fingerprint"
  | "createdAt"
  | "updatedAt"
  | "appProofs"
> & { status: string };

/**
 * Whether `viewer` may still vote on `a`: it awaits consensus, they are a root user, and they
 * have not voted yet.
 */
export function mayVote(a: ActivitySnapshot, state: OrgState, viewer: UserRecord | undefined) {
  return (
    a.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" &&
    viewer !== undefined &&
    state.rootQuorum.userIds.includes(viewer.userId) &&
    !a.votes.some((v) => v.userId === viewer.userId)
  );
}

function voteJson(v: VoteRecord, activityId: string, state: OrgState) {
  const voter = state.users.find((u) => u.userId === v.userId);
  const createdAt = protoTimestamp(v.createdAt);
  return {
    id: v.id,
    userId: v.userId,
    user: voter
      ? userJson(state, voter)
      : {
          userId: v.userId,
          userName: v.userName,
          authenticators: [],
          apiKeys: [],
          userTags: [],
          oauthProviders: [],
          createdAt,
          updatedAt: createdAt,
          mfaPolicies: [],
        },
    activityId,
    selection: v.selection,
    message: v.message,
    publicKey: v.publicKey,
    signature: v.signature,
    scheme: v.scheme,
    createdAt,
  };
}

/** The envelope of `a` as `viewer` (the caller) sees it. */
export function activityEnvelope(
  a: ActivitySnapshot,
  state: OrgState,
  viewer: UserRecord | undefined,
): ActivityJson {
  const canVote = mayVote(a, state, viewer);
  return {
    id: a.id,
    organizationId: state.organizationId,
    status: a.status,
    type: a.type,
    intent: { [a.intentKey]: a.intent },
    result: a.result && a.status === "ACTIVITY_STATUS_COMPLETED" ? { [a.resultKey]: a.result } : {},
    votes: a.votes.map((v) => voteJson(v, a.id, state)),
    ...(a.appProofs ? { appProofs: a.appProofs } : {}),
    fingerprint: a.fingerprint,
    canApprove: canVote,
    canReject: canVote,
    createdAt: protoTimestamp(a.createdAt),
    updatedAt: protoTimestamp(a.updatedAt),
    ...(a.failure ? { failure: { ...a.failure, details: [] } } : {}),
  };
}
