/**
 * The activities an organization starts with awaiting its root quorum: real submissions in the
 * ledger (fingerprint of the body, the submitter's stamp as their vote), so approving them runs
 * them, and the two-vote flow can be tried from the first minute:
 * - sre-lead asks to widen the WebAuthn origins; their stamp is the first approval, so the demo
 *   key's approval completes it (with a root quorum of 2; with 1 it would already have run, so it
 *   is left out);
 * - ci-deployer, not a root user, asks to turn on OTP email auth: it takes the quorum's every
 *   approval (the demo key's, then sre-lead's with the second config `--write-config` writes).
 */

import { getOperation } from "../../api/operations.js";
import { decodeStamp, STAMP_SCHEME, stampBody } from "../../api/stamp.js";
import type { Scenario } from "../scenario.js";
import { seedBytes, uuidOf } from "../seeded.js";
import { activityFingerprint } from "./activity-ledger.js";
import type { ActivityRecord, OrgState, VoteRecord } from "./org-state.js";

function pendingFeature(
  state: OrgState,
  submitter: { userId: string; userName: string; key?: { publicKey: string; privateKey: string } },
  parameters: { name: string; value: string },
  at: number,
  id: string,
): ActivityRecord {
  const op = getOperation("set_organization_feature");
  if (op.kind !== "activity") throw new Error("set_organization_feature is an activity");
  const body = JSON.stringify({
    type: op.activityType,
    timestampMs: String(at),
    organizationId: state.organizationId,
    parameters,
  });
  const votes: VoteRecord[] = submitter.key
    ? [
        {
          id: uuidOf(seedBytes(state.seed, `pending-vote-${id}`)),
          userId: submitter.userId,
          userName: submitter.userName,
          selection: "VOTE_SELECTION_APPROVED",
          message: body,
          publicKey: submitter.key.publicKey,
          signature: decodeStamp(stampBody(body, submitter.key)).signature,
          scheme: STAMP_SCHEME,
          createdAt: at,
        },
      ]
    : [];
  return {
    id,
    operation: "set_organization_feature",
    type: op.activityType,
    status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    intentKey: op.intentKey,
    resultKey: op.resultKey,
    intent: parameters,
    votes,
    fingerprint: activityFingerprint(body),
    userId: submitter.userId,
    generateAppProofs: false,
    createdAt: at,
    updatedAt: at,
  };
}

export function seedPendingActivities(
  state: OrgState,
  scenario: Scenario,
  now: number,
): ActivityRecord[] {
  const named = (name: string) => state.users.find((u) => u.userName === name);
  const lead = named(scenario.secondRootKey.userName);
  const deployer = named("ci-deployer");
  const pending: ActivityRecord[] = [];
  if (lead && state.rootQuorum.threshold >= 2) {
    pending.push(
      pendingFeature(
        state,
        { ...lead, key: scenario.secondRootKey },
        {
          name: "FEATURE_NAME_WEBAUTHN_ORIGINS",
          value: "https://app.acme-payments.example,https://ops.acme-payments.example",
        },
        now - 7 * 60_000,
        uuidOf(seedBytes(state.seed, "pending-webauthn-origins")),
      ),
    );
  }
  if (deployer) {
    pending.push(
      pendingFeature(
        state,
        deployer,
        { name: "FEATURE_NAME_OTP_EMAIL_AUTH", value: "true" },
        now - 3 * 60_000,
        uuidOf(seedBytes(state.seed, "pending-otp-email-auth")),
      ),
    );
  }
  return pending;
}
