/**
 * An activity from submission to its end: an identical body is the activity already submitted;
 * one the operation table says needs the root quorum waits in CONSENSUS_NEEDED (the submitter's
 * stamp is their approval) until enough root users approved it (then it runs) or too few are left
 * to (REJECTED); any other runs at once, as its submitter, to COMPLETED with a result or FAILED.
 * Votes on the generated queue's activities go to the queue. Activities run one at a time, so
 * identical bodies racing are one activity, and every change is committed before it is answered.
 */
import { randomUUID } from "node:crypto";
import { GrpcCode } from "../../api/grpc-codes.js";
import { getOperation } from "../../api/operations.js";
import type { VoteSelection } from "../../api/schemas.js";
import { appProof } from "../crypto/app-proof.js";
import {
  credentialBundle,
  exportBundle,
  secretPayload,
  TargetKeyError,
} from "../crypto/bundles.js";
import type { EnclaveSigner } from "../crypto/enclave-signer.js";
import { signSessionJwt } from "../crypto/session-jwt.js";
import { invalidArgument, SimError } from "../http/sim-error.js";
import type { ActivityContext } from "./activity-context.js";
import { type ActivityJson, type ActivitySnapshot, activityEnvelope } from "./activity-envelope.js";
import { ACTIVITY_HANDLERS, type RunnableActivityName, runActivity } from "./activity-handlers.js";
import { activityFingerprint } from "./activity-ledger.js";
import type { Caller } from "./auth.js";
import type { ActivityRecord, UserRecord, VoteRecord } from "./org-state.js";
import { MAX_SUBMITTED_ACTIVITIES } from "./org-state.js";
import type { OrgStore } from "./org-store.js";
import { tally } from "./quorum.js";

/** The activities the simulator generates itself (its traffic): the lifecycle casts votes on them too. */
export interface GeneratedActivities {
  vote(now: number, fingerprint: string, vote: VoteRecord): ActivitySnapshot;
}

/** A submitted request: its parsed body and its exact bytes (the fingerprint's and the vote's). */
export interface SubmittedRequest {
  rawBody: string;
  body: Record<string, unknown>;
}

export function isRunnable(name: string): name is RunnableActivityName {
  return Object.hasOwn(ACTIVITY_HANDLERS, name);
}

export class ActivityLifecycle {
  /** The errors submitted activities failed with (field violations included), by activity id. */
  private readonly failures = new Map<string, SimError>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: OrgStore,
    private readonly generated: GeneratedActivities,
    private readonly signer: EnclaveSigner,
    private readonly now: () => number,
  ) {}

  /** Submits an activity: an identical body is the activity already submitted. */
  submit(
    name: RunnableActivityName,
    params: Record<string, unknown>,
    caller: Caller,
    request: SubmittedRequest,
  ): Promise<{ activity: ActivityJson }> {
    return this.serialized(async () => {
      const fingerprint = activityFingerprint(request.rawBody);
      const existing = this.store.ledger.byFingerprintOf(fingerprint);
      if (existing) return this.answer(existing, caller.user);
      const op = getOperation(name);
      if (op.kind !== "activity") throw new Error(`${name} is not an activity`);
      const now = this.now();
      const record: ActivityRecord = {
        id: randomUUID(),
        operation: name,
        type: op.activityType,
        status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
        intentKey: op.intentKey,
        resultKey: op.resultKey,
        intent: params,
        votes: [],
        fingerprint,
        userId: caller.user.userId,
        // Asked for, by an activity whose request may ask (else the field is ignored, as the API
        // ignores fields its request does not define).
        generateAppProofs: op.appProofs && request.body.generateAppProofs === true,
        createdAt: now,
        updatedAt: now,
      };
      if (op.approval === "root-quorum") {
        // The submitter's own stamp is their approval, when they are in the root quorum.
        if (this.store.state.rootQuorum.userIds.includes(caller.user.userId)) {
          record.votes.push(voteOf(caller, "VOTE_SELECTION_APPROVED", request.rawBody, now));
        }
        if (tally(record.votes, this.store.state.rootQuorum) === "approved") await this.run(record);
      } else {
        await this.run(record);
      }
      this.store.ledger.add(record);
      this.store.commit();
      return this.answer(record, caller.user);
    });
  }

  /**
   * approve_activity / reject_activity: a root user's vote on the activity of a fingerprint,
   * answered with that activity.
   */
  vote(
    selection: VoteSelection,
    fingerprint: string,
    caller: Caller,
    request: SubmittedRequest,
  ): Promise<{ activity: ActivityJson }> {
    return this.serialized(async () => {
      const now = this.now();
      const vote = voteOf(caller, selection, request.rawBody, now);
      const state = this.store.state;
      const submitted = this.store.ledger.byFingerprintOf(fingerprint);
      if (!submitted) {
        const decided = this.generated.vote(now, fingerprint, vote);
        return { activity: activityEnvelope(decided, state, caller.user) };
      }
      const outcome = this.store.ledger.vote(submitted, caller.user, vote);
      if (outcome === "approved") await this.run(submitted);
      if (outcome === "rejected") submitted.status = "ACTIVITY_STATUS_REJECTED";
      submitted.updatedAt = now;
      this.store.commit();
      return { activity: activityEnvelope(submitted, state, caller.user) };
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Carries the activity out as its submitter; COMPLETED with a result, or FAILED. */
  private async run(record: ActivityRecord): Promise<void> {
    const state = this.store.state;
    const submitter = state.users.find((u) => u.userId === record.userId);
    const now = this.now();
    record.updatedAt = now;
    const name = record.operation;
    if (!submitter || !isRunnable(name)) {
      record.status = "ACTIVITY_STATUS_FAILED";
      record.failure = submitter
        ? { code: GrpcCode.UNIMPLEMENTED, message: `the simulator does not run ${name}` }
        : { code: GrpcCode.NOT_FOUND, message: `user ${record.userId} no longer exists` };
      return;
    }
    try {
      record.result = await runActivity(name, this.context(submitter, now), record.intent);
      record.status = "ACTIVITY_STATUS_COMPLETED";
      if (record.generateAppProofs) {
        record.appProofs = [
          appProof(this.signer, {
            type: "APP_PROOF_TYPE_ACTIVITY",
            organizationId: state.organizationId,
            activityId: record.id,
            activityType: record.type,
            fingerprint: record.fingerprint,
            timestampMs: String(now),
          }),
        ];
      }
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      record.status = "ACTIVITY_STATUS_FAILED";
      record.failure = { code: err.code, message: err.message };
      this.failures.set(record.id, err);
      if (this.failures.size > MAX_SUBMITTED_ACTIVITIES) {
        const oldest = this.failures.keys().next().value;
        if (oldest !== undefined) this.failures.delete(oldest);
      }
    }
  }

  /** The response to a submission: the envelope, or the error the activity failed with. */
  private answer(record: ActivityRecord, viewer: UserRecord): { activity: ActivityJson } {
    if (record.status === "ACTIVITY_STATUS_FAILED" && record.failure) {
      throw (
        this.failures.get(record.id) ?? new SimError(record.failure.code, record.failure.message)
      );
    }
    return { activity: activityEnvelope(record, this.store.state, viewer) };
  }

  private context(caller: UserRecord, now: number): ActivityContext {
    const state = this.store.state;
    const organizationId = state.organizationId;
    const signer = this.signer;
    return {
      state,
      now,
      caller,
      newId: () => randomUUID(),
      signSession: (claims) => signSessionJwt(signer, claims),
      credentialBundle: (plaintext, target) =>
        targetKeyChecked(() => credentialBundle(plaintext, target)),
      exportBundle: (plaintext, target) =>
        targetKeyChecked(() =>
          exportBundle({ plaintext, targetPublicKeyHex: target, organizationId, signer }),
        ),
      secretPayload: (plaintext, target) =>
        targetKeyChecked(() =>
          secretPayload({ plaintext, targetPublicKeyHex: target, organizationId, signer }),
        ),
    };
  }
}

/** A vote by the caller: what they signed (the request body) and their stamp's key and signature. */
function voteOf(
  caller: Caller,
  selection: VoteSelection,
  message: string,
  now: number,
): VoteRecord {
  return {
    id: randomUUID(),
    userId: caller.user.userId,
    userName: caller.user.userName,
    selection,
    message,
    publicKey: caller.publicKey,
    signature: caller.signature,
    scheme: caller.scheme,
    createdAt: now,
  };
}

/** Runs an encryption to a client key; a malformed key is the caller's INVALID_ARGUMENT. */
async function targetKeyChecked<T>(encrypt: () => Promise<T>): Promise<T> {
  try {
    return await encrypt();
  } catch (err) {
    if (err instanceof TargetKeyError) throw invalidArgument(err.message, "targetPublicKey");
    throw err;
  }
}
