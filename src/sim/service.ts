/**
 * The simulated service behind the HTTP server: authenticates a request, validates it against the
 * operation table and answers it from the scenario's generated state. No HTTP here.
 */
import type { Clock } from "../api/clock.js";
import type { Operation, OperationName } from "../api/operations.js";
import { StampError, verifyStamp } from "../api/stamp.js";
import { Activities } from "./activities.js";
import { DebugLogs } from "./debug-logs.js";
import { EmailEvents, toEmailEventJson } from "./email-events.js";
import { paginate } from "./pagination.js";
import { Random } from "./random.js";
import type { Scenario, ScenarioName } from "./scenario.js";
import { buildScenario } from "./scenario.js";
import {
  failedPrecondition,
  invalidArgument,
  notFound,
  permissionDenied,
  SimError,
  unauthenticated,
} from "./sim-error.js";
import { SolTransactions, toSolTransactionJson } from "./sol-transactions.js";

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
  /** How far timestampMs may be from the server's clock. Default 5 minutes. */
  livenessMs?: number;
}

/** A response body already serialized (large debug-log responses are built from cached parts). */
export class RawJson {
  constructor(readonly text: string) {}
}

const protoTs = (ms: number) => ({
  seconds: String(Math.floor(ms / 1000)),
  nanos: String(Math.floor((ms % 1000) * 1e6)),
});

export class SimService {
  readonly scenario: Scenario;
  readonly logs: DebugLogs;
  private readonly emails: EmailEvents;
  private readonly sol: SolTransactions;
  readonly activities: Activities;
  private readonly startMs: number;

  constructor(private readonly options: ServiceOptions) {
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
  }

  /** The server's clock: the host's plus the configured skew. */
  now(): number {
    return this.options.clock.now() + this.options.clockSkewMs;
  }

  close(): void {
    this.logs.close();
  }

  /** Checks X-Stamp against the exact body bytes; throws Turnkey's 401 / 403 errors. */
  authenticate(
    stampHeader: string | undefined,
    rawBody: string,
    body: Record<string, unknown>,
  ): void {
    if (!stampHeader)
      throw unauthenticated("request is missing the X-Stamp or X-Stamp-WebAuthn header");
    let publicKey: string;
    try {
      publicKey = verifyStamp(stampHeader, rawBody).publicKey.toLowerCase();
    } catch (err) {
      const msg = err instanceof StampError ? err.message : "invalid";
      if (msg === "signature does not verify")
        throw unauthenticated("could not verify api key signature");
      throw unauthenticated(`malformed activity stamp: ${msg}`);
    }
    if (publicKey !== this.scenario.rootKey.publicKey) {
      throw unauthenticated("could not find public key in organization");
    }
    if (body.organizationId !== this.scenario.organizationId) {
      throw permissionDenied(
        "request not authorized: the API key does not belong to that organization",
      );
    }
  }

  /** An activity's timestampMs must be within the liveness window of the server's clock. */
  checkLiveness(timestampMs: unknown): void {
    const window = this.options.livenessMs ?? 5 * 60_000;
    const ts = Number(timestampMs);
    if (typeof timestampMs !== "string" || !Number.isFinite(ts)) {
      throw invalidArgument("timestampMs must be a string of epoch milliseconds", "timestampMs");
    }
    if (Math.abs(ts - this.now()) > window) {
      throw invalidArgument(
        `timestampMs ${timestampMs} is outside the liveness window (server time ${Math.round(this.now())}, allowed ±${window / 1000}s); check the client clock`,
        "timestampMs",
      );
    }
  }

  /** Validates a body against the table; INVALID_ARGUMENT names the field. */
  validate(
    name: OperationName,
    op: Operation,
    body: Record<string, unknown>,
  ): Record<string, unknown> {
    if (op.kind === "activity") {
      if (body.type !== op.activityType) {
        throw invalidArgument(`type must be ${op.activityType} for ${name}`, "type");
      }
      this.checkLiveness(body.timestampMs);
      const parsed = op.params.safeParse(body.parameters);
      if (!parsed.success) throw zodToSim(parsed.error, "parameters");
      return parsed.data as Record<string, unknown>;
    }
    const { organizationId: _org, ...fields } = body;
    const parsed = op.request.safeParse(fields);
    if (!parsed.success) throw zodToSim(parsed.error, "");
    return parsed.data as Record<string, unknown>;
  }

  walletKitConfig(configId: string | undefined) {
    if (!configId)
      throw invalidArgument("missing X-Auth-Proxy-Config-Id header", "X-Auth-Proxy-Config-Id");
    if (configId !== this.scenario.authProxyConfigId)
      throw notFound(`auth proxy config ${configId} not found`);
    return {
      enabledProviders: ["email", "passkey", "google"],
      sessionExpirationSeconds: "900",
      organizationId: this.scenario.organizationId,
      oauthClientIds: { google: "sim-google-client.apps.example" },
      oauthRedirectUrl: "http://localhost:3000/oauth/callback",
      otpAlphanumeric: false,
      otpLength: "6",
    };
  }

  private deployment(id: string) {
    for (const app of this.scenario.apps) {
      const d = app.deployments.find((x) => x.id === id);
      if (d) return d;
    }
    throw notFound(
      `TVC deployment ${id} not found in organization ${this.scenario.organizationId}`,
    );
  }

  private deploymentJson(id: string) {
    const d = this.deployment(id);
    return {
      id: d.id,
      organizationId: this.scenario.organizationId,
      appId: d.appId,
      debugMode: d.debugMode,
      delete: false,
      qosVersion: d.qosVersion,
      createdAt: protoTs(this.startMs - 86_400_000),
      updatedAt: protoTs(this.startMs - 3_600_000),
    };
  }

  /** Answers a validated, authenticated request. */
  handle(name: OperationName, input: Record<string, unknown>): unknown {
    const now = this.now();
    const s = this.scenario;
    switch (name) {
      case "whoami":
        return {
          organizationId: s.organizationId,
          organizationName: s.organizationName,
          userId: s.userId,
          username: s.username,
        };
      case "list_tvc_apps":
        return {
          tvcApps: s.apps.map((a) => ({
            id: a.id,
            organizationId: s.organizationId,
            name: a.name,
            enableDebugModeDeployments: a.enableDebugModeDeployments,
            liveDeploymentId: a.liveDeploymentId,
            publicDomain: `app-${a.id}.turnkey.cloud`,
            createdAt: protoTs(this.startMs - 7 * 86_400_000),
            updatedAt: protoTs(this.startMs - 86_400_000),
          })),
        };
      case "list_tvc_app_deployments": {
        const app = s.apps.find((a) => a.id === input.appId);
        if (!app) throw notFound(`TVC app ${String(input.appId)} not found`);
        return { tvcDeployments: app.deployments.map((d) => this.deploymentJson(d.id)) };
      }
      case "get_tvc_deployment":
        return { tvcDeployment: this.deploymentJson(String(input.deploymentId)) };
      case "get_tvc_deployment_debug_logs": {
        const d = this.deployment(String(input.deploymentId));
        if (!d.debugMode) {
          throw failedPrecondition(
            `deployment ${d.id} is not running in debug mode; debug logs are only available for debug-mode deployments`,
          );
        }
        const since = input.sinceSeconds === undefined ? 0 : Number(input.sinceSeconds);
        if (since < 0) throw invalidArgument("sinceSeconds must not be negative", "sinceSeconds");
        const tail = input.tailLines === undefined ? 0 : Number(input.tailLines);
        if (d.id !== s.deploymentId) return { entries: [] };
        return new RawJson(this.logs.queryJson(now, since, tail));
      }
      case "list_email_events": {
        const email = String(input.email);
        const events = this.emails.list(now, email, input.eventType as string | undefined);
        const page = paginate(events, (e) => e.id, input.paginationOptions as never);
        return { emailEvents: page.map(toEmailEventJson) };
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
        const page = paginate(txs, (t) => t.signature, input.paginationOptions as never);
        const last = page[page.length - 1];
        const olderExists = last ? txs.indexOf(last) < txs.length - 1 : false;
        return {
          transactions: page.map((t) => toSolTransactionJson(t, now, String(input.caip2))),
          pageInfo: {
            hasNextPage: olderExists,
            hasPreviousPage: page[0] ? txs.indexOf(page[0]) > 0 : false,
            ...(page[0] ? { startCursor: page[0].signature } : {}),
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
        const page = paginate(list, (a) => a.id, input.paginationOptions as never);
        return { activities: page.map((a) => this.activities.toJson(a, now)) };
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

function zodToSim(
  error: { issues: { path: PropertyKey[]; message: string }[] },
  prefix: string,
): SimError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  const field = [prefix, path].filter(Boolean).join(".");
  return invalidArgument(
    `invalid request: ${field || "body"}: ${issue?.message ?? "invalid"}`,
    field || "body",
  );
}
