/**
 * The simulated service behind the HTTP server: authenticates a request, validates it against the
 * operation table and answers it, from the organization's state (activities of the spec, which
 * change it) and from the scenario's generated traffic (logs, emails, Solana transfers, the
 * background activity queue). No HTTP here.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../api/clock.js";
import type { Operation, OperationName } from "../api/operations.js";
import { getOperation } from "../api/operations.js";
import { appProof } from "./crypto/app-proof.js";
import { credentialBundle, exportBundle, secretPayload, TargetKeyError } from "./crypto/bundles.js";
import { EnclaveSigner } from "./crypto/enclave-signer.js";
import { signSessionJwt } from "./crypto/session-jwt.js";
import { type PaginationInput, paginate } from "./http/pagination.js";
import { validateRequest } from "./http/request-validation.js";
import { invalidArgument, SimError } from "./http/sim-error.js";
import type { ActivityContext } from "./organization/activity-context.js";
import { ACTIVITY_HANDLERS, ROOT_QUORUM_ACTIVITIES } from "./organization/activity-handlers.js";
import {
  ActivityLedger,
  activityFingerprint,
  activityJson,
} from "./organization/activity-ledger.js";
import {
  authenticate,
  type Caller,
  checkLiveness,
  LIVENESS_WINDOW_MS,
  type StampedRequest,
} from "./organization/auth.js";
import { walletKitConfig } from "./organization/auth-proxy.js";
import {
  getSessionProfile,
  listPrivateKeys,
  listUserTags,
  listWebhookEndpoints,
  privateKeySolanaAddresses,
  whoami,
} from "./organization/org-queries.js";
import { seedOrganization } from "./organization/org-seed.js";
import type { ActivityRecord, OrgState, VoteRecord } from "./organization/org-state.js";
import { MAX_SUBMITTED_ACTIVITIES } from "./organization/org-state.js";
import { StateFileError, stateFileText, writeStateFile } from "./organization/state-file.js";
import { Random } from "./random.js";
import type { Scenario, ScenarioName } from "./scenario.js";
import { buildScenario } from "./scenario.js";
import { skewedClock } from "./server-clock.js";
import { Activities } from "./traffic/activity-queue.js";
import { DebugLogs } from "./traffic/debug-logs.js";
import { EmailEvents, toEmailEventJson } from "./traffic/email-events.js";
import { SolTransactions, toSolTransactionJson } from "./traffic/sol-transactions.js";
import { TvcDirectory } from "./traffic/tvc-apps.js";

export interface ServiceOptions {
  seed: number;
  scenario: ScenarioName;
  clock: Clock;
  clockSkewMs: number;
  replicas: number;
  logRate: number;
  retentionMs: number;
  ingestLagMs: number;
  truthFile?: string | undefined;
  /** How far timestampMs may be from the server's clock, either way. Default 5 minutes. */
  livenessMs?: number;
  /** The organization as saved by an earlier run (`--state`); else it is seeded. */
  savedState?: OrgState | undefined;
  /** Where to save the organization after every change (`--state`). */
  statePath?: string | undefined;
  /** Root users that must approve set_organization_feature, for a freshly seeded organization. */
  rootQuorumThreshold?: number | undefined;
}

/** A response body already serialized (large debug-log responses are built from cached parts). */
export class RawJson {
  constructor(readonly text: string) {}
}

export class SimService {
  readonly scenario: Scenario;
  readonly logs: DebugLogs;
  readonly activities: Activities;
  readonly tvc: TvcDirectory;
  /** The organization's records; saved to `--state` after every change. */
  readonly state: OrgState;
  /** The simulator's enclave key: signs export bundles, secret payloads, app proofs, sessions. */
  readonly signer: EnclaveSigner;
  private readonly ledger: ActivityLedger;
  /** The state file's text as last written (`--state`): what a failed save rolls back to. */
  private saved: string | undefined;
  private readonly emails: EmailEvents;
  private readonly sol: SolTransactions;
  private readonly clock: Clock;
  private readonly startMs: number;
  /** Set once construction is over: a failed save is then a request's error, not start-up's. */
  private started = false;
  /** The errors submitted activities failed with (field violations included), by activity id. */
  private readonly failures = new Map<string, SimError>();
  /** Activities run one at a time, so identical bodies racing are still one activity. */
  private activityQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ServiceOptions) {
    this.clock = skewedClock(options.clock, options.clockSkewMs);
    const rng = new Random(options.seed);
    this.scenario = buildScenario(options.scenario, options.seed, rng.fork(1));
    this.startMs = this.now();
    this.state =
      options.savedState ??
      seedOrganization(this.scenario, options.seed, this.startMs, {
        rootQuorumThreshold: options.rootQuorumThreshold,
      });
    this.ledger = new ActivityLedger(this.state);
    this.signer = EnclaveSigner.fromSeed(options.seed);
    this.logs = new DebugLogs(rng.fork(2), {
      replicas: options.replicas,
      logRate: options.logRate,
      retentionMs: options.retentionMs,
      ingestLagMs: options.ingestLagMs,
      startMs: this.startMs,
      incident: options.scenario === "incident",
      truthFile: options.truthFile,
    });
    const s = this.scenario;
    this.emails = new EmailEvents(
      rng.fork(3),
      s.organizationId,
      s.emails,
      s.emailPerMinute,
      this.startMs,
      options.retentionMs,
    );
    this.sol = new SolTransactions(
      rng.fork(4),
      s.solanaWalletAddresses,
      s.solPerMinute,
      this.startMs,
      options.retentionMs,
    );
    this.activities = new Activities(
      rng.fork(5),
      s.organizationId,
      s.userId,
      s.activityPerMinute,
      this.startMs,
    );
    this.tvc = new TvcDirectory(s, this.startMs);
    if (!options.savedState) this.save();
    else if (options.statePath) this.saved = stateFileText(this.state);
    this.started = true;
  }

  /** The server's clock: the host's plus the configured skew. */
  now(): number {
    return this.clock.now();
  }

  close(): void {
    this.logs.close();
  }

  /** Checks the stamp against the exact body bytes; throws Turnkey's 401 / 403 errors. */
  authenticate(request: StampedRequest): Caller {
    return authenticate(request, this.state, this.now());
  }

  /** Validates a body against the table; INVALID_ARGUMENT names the field. */
  validate(
    name: OperationName,
    op: Operation,
    body: Record<string, unknown>,
  ): Record<string, unknown> {
    const window = this.options.livenessMs ?? LIVENESS_WINDOW_MS;
    return validateRequest(name, op, body, (ts) => checkLiveness(ts, this.now(), window));
  }

  walletKitConfig(configId: string | undefined) {
    return walletKitConfig(this.scenario, configId);
  }

  /** Answers a validated, authenticated request. */
  async handle(
    name: OperationName,
    input: Record<string, unknown>,
    caller: Caller,
    request: { rawBody: string; body: Record<string, unknown> },
  ): Promise<unknown> {
    if (name === "approve_activity" || name === "reject_activity") {
      return this.serialized(() =>
        this.decide(String(input.fingerprint), name === "approve_activity", caller, request),
      );
    }
    if (Object.hasOwn(ACTIVITY_HANDLERS, name)) {
      return this.serialized(() => this.submit(name, input, caller, request));
    }
    return this.query(name, input, caller);
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.activityQueue.then(work, work);
    this.activityQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes the organization to `--state`, if one was given. A change that cannot be saved is not
   * made: the organization goes back to what the file holds, and the request fails, so a retry
   * of the identical body runs (and is saved) afresh instead of finding an unsaved activity.
   */
  private save(): void {
    const path = this.options.statePath;
    if (!path) return;
    const text = stateFileText(this.state);
    try {
      writeStateFile(path, text);
    } catch (err) {
      // At start-up the caller reports it; later the request fails with it.
      if (!(err instanceof StateFileError) || this.started === false) throw err;
      this.rollBack();
      process.stderr.write(`tvcwatch sim: ${err.message}; the change was not made\n`);
      throw new SimError(13, `the simulator ${err.message}; the change was not made`);
    }
    this.saved = text;
  }

  /** Puts the organization back to the state file's last saved text. */
  private rollBack(): void {
    if (this.saved === undefined) return;
    Object.assign(this.state, JSON.parse(this.saved) as OrgState);
    this.ledger.reindex();
  }

  /** Submits an activity: an identical body is the activity already submitted. */
  private async submit(
    name: OperationName,
    params: Record<string, unknown>,
    caller: Caller,
    request: { rawBody: string; body: Record<string, unknown> },
  ) {
    const fingerprint = activityFingerprint(request.rawBody);
    const existing = this.ledger.byFingerprintOf(fingerprint);
    if (existing) return this.answer(existing);
    const op = this.operation(name);
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
      generateAppProofs: request.body.generateAppProofs === true,
      createdAt: now,
      updatedAt: now,
    };
    if (ROOT_QUORUM_ACTIVITIES.has(name)) {
      // The submitter's own stamp is their approval, when they are in the root quorum.
      if (this.state.rootQuorum.userIds.includes(caller.user.userId)) {
        record.votes.push(this.voteOf(caller, "VOTE_SELECTION_APPROVED", request.rawBody, now));
      }
      if (this.ledger.tally(record) === "approved") await this.run(record);
    } else {
      await this.run(record);
    }
    this.ledger.add(record);
    this.save();
    return this.answer(record);
  }

  /** approve_activity / reject_activity: a vote on an activity awaiting consensus. */
  private async decide(
    fingerprint: string,
    approve: boolean,
    caller: Caller,
    request: { rawBody: string },
  ) {
    const now = this.now();
    const submitted = this.ledger.byFingerprintOf(fingerprint);
    if (!submitted) {
      // The generated background queue.
      const a = this.activities.decide(now, fingerprint, approve);
      return { activity: this.activities.toJson(a, now) };
    }
    const selection = approve ? "VOTE_SELECTION_APPROVED" : "VOTE_SELECTION_REJECTED";
    const outcome = this.ledger.vote(
      submitted,
      caller.user,
      this.voteOf(caller, selection, request.rawBody, now),
    );
    if (outcome === "approved") await this.run(submitted);
    if (outcome === "rejected") submitted.status = "ACTIVITY_STATUS_REJECTED";
    submitted.updatedAt = now;
    this.save();
    return { activity: activityJson(submitted, this.state.organizationId) };
  }

  /** Carries the activity out as its submitter; COMPLETED with a result, or FAILED. */
  private async run(record: ActivityRecord): Promise<void> {
    const handler = ACTIVITY_HANDLERS[record.operation as keyof typeof ACTIVITY_HANDLERS];
    const submitter = this.state.users.find((u) => u.userId === record.userId);
    const now = this.now();
    record.updatedAt = now;
    if (!handler || !submitter) {
      record.status = "ACTIVITY_STATUS_FAILED";
      record.failure = { code: 5, message: `user ${record.userId} no longer exists` };
      return;
    }
    try {
      const result = await handler(this.context(submitter, now), record.intent);
      record.result = result as Record<string, unknown>;
      record.status = "ACTIVITY_STATUS_COMPLETED";
      if (record.generateAppProofs) {
        record.appProofs = [
          appProof(this.signer, {
            type: "APP_PROOF_TYPE_ACTIVITY",
            organizationId: this.state.organizationId,
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
  private answer(record: ActivityRecord) {
    if (record.status === "ACTIVITY_STATUS_FAILED" && record.failure) {
      throw (
        this.failures.get(record.id) ?? new SimError(record.failure.code, record.failure.message)
      );
    }
    return { activity: activityJson(record, this.state.organizationId) };
  }

  private voteOf(
    caller: Caller,
    selection: "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED",
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

  private operation(name: OperationName) {
    const op = getOperation(name);
    if (op.kind !== "activity") throw new Error(`${name} is not an activity`);
    return op;
  }

  private context(caller: ActivityContext["caller"], now: number): ActivityContext {
    const organizationId = this.state.organizationId;
    const signer = this.signer;
    return {
      state: this.state,
      now,
      caller,
      newId: () => randomUUID(),
      signSession: (claims) => signSessionJwt(this.signer, claims),
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

  private query(name: OperationName, input: Record<string, unknown>, caller: Caller): unknown {
    const now = this.now();
    const s = this.scenario;
    const page = input.paginationOptions as PaginationInput | undefined;
    switch (name) {
      case "whoami":
        return whoami(this.state, caller.user);
      case "get_session_profile":
        return getSessionProfile(this.state, String(input.sessionProfileId));
      case "list_webhook_endpoints":
        return listWebhookEndpoints(this.state);
      case "list_private_keys":
        return listPrivateKeys(this.state);
      case "list_user_tags":
        return listUserTags(this.state);
      case "list_tvc_apps":
        return { tvcApps: this.tvc.apps() };
      case "list_tvc_app_deployments":
        return { tvcDeployments: this.tvc.deploymentsOf(String(input.appId)) };
      case "get_tvc_deployment":
        return { tvcDeployment: this.tvc.deployment(String(input.deploymentId)) };
      case "get_tvc_deployment_debug_logs": {
        const d = this.tvc.debugDeployment(String(input.deploymentId));
        const since = input.sinceSeconds === undefined ? 0 : Number(input.sinceSeconds);
        if (since < 0) throw invalidArgument("sinceSeconds must not be negative", "sinceSeconds");
        const tail = input.tailLines === undefined ? 0 : Number(input.tailLines);
        // Only the scenario's main debug deployment prints; any other is silent.
        if (d.id !== s.deploymentId) return { entries: [] };
        return new RawJson(this.logs.queryJson(now, since, tail));
      }
      case "list_email_events": {
        const events = this.emails.list(
          now,
          String(input.email),
          input.eventType as string | undefined,
        );
        return { emailEvents: paginate(events, (e) => e.id, page).map(toEmailEventJson) };
      }
      case "list_sol_transaction_history": {
        const address = String(input.address);
        if (privateKeySolanaAddresses(this.state).includes(address)) {
          throw invalidArgument(
            `address ${address} belongs to a private key, not a wallet account; private-key addresses are unsupported`,
            "address",
          );
        }
        const txs = this.sol.list(now, address);
        const shown = paginate(txs, (t) => t.signature, page);
        const first = shown[0];
        const last = shown[shown.length - 1];
        return {
          transactions: shown.map((t) => toSolTransactionJson(t, now, String(input.caip2))),
          pageInfo: {
            hasNextPage: last ? txs.indexOf(last) < txs.length - 1 : false,
            hasPreviousPage: first ? txs.indexOf(first) > 0 : false,
            ...(first ? { startCursor: first.signature } : {}),
            ...(last ? { endCursor: last.signature } : {}),
          },
        };
      }
      case "list_activities":
        return { activities: this.listActivities(now, input, page) };
      case "get_activity": {
        const id = String(input.activityId);
        const submitted = this.ledger.get(id);
        if (submitted) return { activity: activityJson(submitted, this.state.organizationId) };
        return { activity: this.activities.toJson(this.activities.get(now, id), now) };
      }
      default:
        throw new SimError(12, `the simulator does not serve ${name}`);
    }
  }

  /** Submitted and generated activities together, newest first, filtered, one page. */
  private listActivities(now: number, input: Record<string, unknown>, page?: PaginationInput) {
    const statuses = input.filterByStatus as string[] | undefined;
    const types = input.filterByType as string[] | undefined;
    const wanted = (status: string, type: string) =>
      (!statuses?.length || statuses.includes(status)) && (!types?.length || types.includes(type));
    const orgId = this.state.organizationId;
    const all = [
      ...this.ledger
        .list()
        .filter((a) => wanted(a.status, a.type))
        .map((a) => ({ id: a.id, at: a.createdAt, json: () => activityJson(a, orgId) })),
      ...this.activities
        .list(now, statuses, types)
        .map((a) => ({ id: a.id, at: a.createdAt, json: () => this.activities.toJson(a, now) })),
    ].sort((x, y) => y.at - x.at);
    return paginate(all, (a) => a.id, page).map((a) => a.json());
  }
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
