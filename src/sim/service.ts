/**
 * The simulated service behind the HTTP server: authenticates a request, validates it against the
 * operation table and answers it from the scenario's generated state. No HTTP here.
 */
import type { Clock } from "../api/clock.js";
import type { Operation, OperationName } from "../api/operations.js";
import { Activities } from "./activities.js";
import { authenticate, checkLiveness, LIVENESS_WINDOW_MS, type StampedRequest } from "./auth.js";
import { walletKitConfig } from "./auth-proxy.js";
import { DebugLogs } from "./debug-logs.js";
import { EmailEvents, toEmailEventJson } from "./email-events.js";
import { type PaginationInput, paginate } from "./pagination.js";
import { Random } from "./random.js";
import { validateRequest } from "./request-validation.js";
import type { Scenario, ScenarioName } from "./scenario.js";
import { buildScenario } from "./scenario.js";
import { skewedClock } from "./server-clock.js";
import { invalidArgument, SimError } from "./sim-error.js";
import { SolTransactions, toSolTransactionJson } from "./sol-transactions.js";
import { TvcDirectory } from "./tvc.js";

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
  private readonly emails: EmailEvents;
  private readonly sol: SolTransactions;
  private readonly clock: Clock;
  private readonly startMs: number;

  constructor(private readonly options: ServiceOptions) {
    this.clock = skewedClock(options.clock, options.clockSkewMs);
    const rng = new Random(options.seed);
    this.scenario = buildScenario(options.scenario, options.seed, rng.fork(1));
    this.startMs = this.now();
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
  }

  /** The server's clock: the host's plus the configured skew. */
  now(): number {
    return this.clock.now();
  }

  close(): void {
    this.logs.close();
  }

  /** Checks X-Stamp against the exact body bytes; throws Turnkey's 401 / 403 errors. */
  authenticate(request: StampedRequest): void {
    authenticate(request, {
      organizationId: this.scenario.organizationId,
      apiPublicKeys: [this.scenario.rootKey.publicKey],
    });
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
  handle(name: OperationName, input: Record<string, unknown>): unknown {
    const now = this.now();
    const s = this.scenario;
    const page = input.paginationOptions as PaginationInput | undefined;
    switch (name) {
      case "whoami":
        return {
          organizationId: s.organizationId,
          organizationName: s.organizationName,
          userId: s.userId,
          username: s.username,
        };
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
        if (s.solanaPrivateKeyAddresses.includes(address)) {
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
      case "list_activities": {
        const list = this.activities.list(
          now,
          input.filterByStatus as string[] | undefined,
          input.filterByType as string[] | undefined,
        );
        return {
          activities: paginate(list, (a) => a.id, page).map((a) => this.activities.toJson(a, now)),
        };
      }
      case "get_activity":
        return {
          activity: this.activities.toJson(this.activities.get(now, String(input.activityId)), now),
        };
      case "approve_activity":
      case "reject_activity": {
        const a = this.activities.decide(
          now,
          String(input.fingerprint),
          name === "approve_activity",
        );
        return { activity: this.activities.toJson(a, now) };
      }
      default:
        throw new SimError(
          12,
          `the simulator does not serve ${name}; it covers the observability operations (tvcwatch call --list shows the API)`,
        );
    }
  }
}
