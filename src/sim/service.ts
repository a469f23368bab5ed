/**
 * The simulated service behind the HTTP server: authenticates a request, validates it against the
 * operation table and hands it to what serves it: the activity lifecycle (activities of the
 * spec, which change the organization, and the votes), the query handlers (the organization's
 * records and the scenario's generated traffic), or the auth proxy. No HTTP here.
 */
import type { Clock } from "../api/clock.js";
import { GrpcCode } from "../api/grpc-codes.js";
import type { Operation, OperationName } from "../api/operations.js";
import { getOperation } from "../api/operations.js";
import { EnclaveSigner } from "./crypto/enclave-signer.js";
import { signSessionJwt } from "./crypto/session-jwt.js";
import { validateRequest } from "./http/request-validation.js";
import type { RawJson } from "./http/respond.js";
import { SimError } from "./http/sim-error.js";
import {
  ActivityLifecycle,
  isRunnable,
  type SubmittedRequest,
} from "./organization/activity-lifecycle.js";
import {
  authenticate,
  type Caller,
  checkLiveness,
  LIVENESS_WINDOW_MS,
  type StampedRequest,
} from "./organization/auth.js";
import { walletKitConfig } from "./organization/auth-proxy.js";
import { seedOrganization } from "./organization/org-seed.js";
import type { OrgState } from "./organization/org-state.js";
import { OrgStore } from "./organization/org-store.js";
import { solanaAccountAddresses } from "./organization/wallet-queries.js";
import { isQuery, runQuery, type SimWorld } from "./query-handlers.js";
import { Random } from "./random.js";
import type { Scenario, ScenarioName } from "./scenario.js";
import { buildScenario } from "./scenario.js";
import { skewedClock } from "./server-clock.js";
import { ActivityQueue } from "./traffic/activity-queue.js";
import { DebugLogs } from "./traffic/debug-logs.js";
import { EmailEvents } from "./traffic/email-events.js";
import { ServiceLines } from "./traffic/service-lines.js";
import { SolTransactions } from "./traffic/sol-transactions.js";
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
  /** Root users that must approve what needs the root quorum, for a freshly seeded organization. */
  rootQuorumThreshold?: number | undefined;
  /** Where the service reports what the operator should know (a change that was not saved). */
  log?: ((message: string) => void) | undefined;
}

export class SimService {
  readonly scenario: Scenario;
  readonly logs: DebugLogs;
  /** The canary deployment's logs (scenario.canaryDeploymentId): two replicas, half the rate. */
  readonly canaryLogs: DebugLogs;
  readonly tvc: TvcDirectory;
  /** The organization's records, saved to `--state` after every change. */
  readonly store: OrgStore;
  /** The simulator's enclave key: signs export bundles, secret payloads, app proofs, sessions. */
  readonly signer: EnclaveSigner;
  /**
   * The organization's wallets' Solana accounts: what the generated queue signs from and the
   * Solana pane's transfers are of (the config's solanaAddresses).
   */
  readonly solanaAddresses: readonly string[];
  private readonly queue: ActivityQueue;
  /**
   * What the live deployment's signer, policy engine and ledger log about the queue's activities
   * and the Solana transfers, with their ids (printed by `logs`).
   */
  readonly services: ServiceLines;
  private readonly lifecycle: ActivityLifecycle;
  private readonly emails: EmailEvents;
  private readonly sol: SolTransactions;
  private readonly clock: Clock;

  constructor(private readonly options: ServiceOptions) {
    this.clock = skewedClock(options.clock, options.clockSkewMs);
    const rng = new Random(options.seed);
    this.scenario = buildScenario(options.scenario, options.seed, rng.fork(1));
    const startMs = this.now();
    const state =
      options.savedState ??
      seedOrganization(this.scenario, options.seed, startMs, {
        rootQuorumThreshold: options.rootQuorumThreshold,
      });
    this.store = new OrgStore(state, options.savedState !== undefined, {
      statePath: options.statePath,
      onSaveError: options.log,
    });
    this.signer = EnclaveSigner.fromSeed(options.seed);
    // Each feature's generator is forked in this order whatever order they are built in, so a
    // seed's data stays what it was.
    const logsRng = rng.fork(2);
    const canaryRng = rng.fork(9);
    const emailsRng = rng.fork(3);
    const solRng = rng.fork(4);
    const queueRng = rng.fork(5);
    const s = this.scenario;
    this.emails = new EmailEvents(
      emailsRng,
      s.organizationId,
      s.emails,
      s.emailPerMinute,
      startMs,
      options.retentionMs,
    );
    this.solanaAddresses = solanaAccountAddresses(this.store.state);
    this.sol = new SolTransactions(
      solRng,
      this.solanaAddresses,
      s.solPerMinute,
      startMs,
      options.retentionMs,
    );
    this.queue = new ActivityQueue(queueRng, s, state, {
      perMinute: s.activityPerMinute,
      solanaSigners: this.solanaAddresses,
      startMs,
      signSession: (claims) => signSessionJwt(this.signer, claims),
    });
    this.services = new ServiceLines(state, this.queue, this.sol, this.emails);
    this.logs = new DebugLogs(logsRng, {
      replicas: options.replicas,
      logRate: options.logRate,
      retentionMs: options.retentionMs,
      ingestLagMs: options.ingestLagMs,
      startMs,
      incident: options.scenario === "incident",
      truthFile: options.truthFile,
      services: this.services,
    });
    this.canaryLogs = new DebugLogs(canaryRng, {
      replicas: 2,
      logRate: Math.max(1, (options.logRate ?? 8) / 2),
      retentionMs: options.retentionMs,
      ingestLagMs: options.ingestLagMs,
      startMs,
      incident: false,
    });
    this.tvc = new TvcDirectory(s, startMs);
    this.lifecycle = new ActivityLifecycle(this.store, this.queue, this.signer, () => this.now());
  }

  /** The organization's records. */
  get state(): OrgState {
    return this.store.state;
  }

  /** The server's clock: the host's plus the configured skew. */
  now(): number {
    return this.clock.now();
  }

  close(): void {
    this.logs.close();
    this.canaryLogs.close();
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
    request: SubmittedRequest,
  ): Promise<unknown | RawJson> {
    const op = getOperation(name);
    if (op.kind === "activity" && op.vote) {
      return this.lifecycle.vote(op.vote, String(input.fingerprint), caller, request);
    }
    if (isRunnable(name)) return this.lifecycle.submit(name, input, caller, request);
    if (isQuery(name)) return runQuery(name, this.world(), input, caller);
    throw new SimError(GrpcCode.UNIMPLEMENTED, `the simulator does not serve ${name}`);
  }

  private world(): SimWorld {
    return {
      now: this.now(),
      state: this.state,
      scenario: this.scenario,
      ledger: this.store.ledger,
      queue: this.queue,
      tvc: this.tvc,
      logs: this.logs,
      canaryLogs: this.canaryLogs,
      emails: this.emails,
      sol: this.sol,
    };
  }
}
