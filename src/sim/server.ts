/**
 * `tvcwatch sim`: a local simulator of Turnkey's API on node:http, for demos and tests. It is a
 * test double, not the real service: it serves the scenario's generated data, checks real
 * X-Stamp signatures, and can inject faults (errors, dropped connections, latency, clock skew,
 * ingest lag).
 */
import { randomInt } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../api/clock.js";
import { systemClock } from "../api/clock.js";
import { GrpcCode } from "../api/grpc-codes.js";
import { operationByPath } from "../api/operations.js";
import { removeStaleTempFiles } from "../config/atomic-file.js";
import { sayAs } from "../text/stderr.js";
import { readBody } from "./http/body.js";
import { FaultInjector } from "./http/faults.js";
import { send } from "./http/respond.js";
import { invalidArgument, SimError } from "./http/sim-error.js";
import { readStateFile, StateFileError } from "./organization/state-file.js";
import type { ScenarioName } from "./scenario.js";
import { SimService } from "./service.js";

export interface SimulatorOptions {
  host?: string;
  port?: number;
  seed?: number;
  scenario?: ScenarioName;
  replicas?: number;
  logRate?: number;
  retentionMs?: number;
  /** Fraction of requests answered by 500, 503, 429 or a dropped connection. */
  faultRate?: number;
  latencyMs?: [number, number];
  /** Every request answered 503 from `fromMs` to `toMs` after the simulator started. */
  outage?: { fromMs: number; toMs: number };
  clockSkewMs?: number;
  ingestLagMs?: number;
  truthFile?: string;
  clock?: Clock;
  /** Keep the organization in this file: loaded at start, saved after every change. */
  statePath?: string;
  /** Root users that must approve set_organization_feature (a new organization only). */
  rootQuorumThreshold?: number;
  /** Where to report what the operator should know; default stderr, `tvcwatch sim: ` first. */
  log?: (message: string) => void;
}

/** Exactly the fields of a `--config` file that points tvcwatch at this simulator. */
export interface SimConfig {
  baseUrl: string;
  authProxyUrl: string;
  authProxyConfigId: string;
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  deploymentId: string;
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  /** The simulator's enclave key (uncompressed P-256, hex) that signs bundles and sessions. */
  signerPublicKey: string;
}

export interface RunningSimulator {
  url: string;
  /** A config for the demo key (oncall-root, a root user). */
  config: SimConfig;
  /** The same for the second root user (sre-lead): the two-vote flow, by hand. */
  secondRootConfig: SimConfig;
  /** The seed the data derives from (drawn at random when none was given). */
  seed: number;
  service: SimService;
  close(): Promise<void>;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? sayAs("sim");
  if (options.statePath) removeStaleTempFiles(options.statePath);
  const saved = options.statePath ? readStateFile(options.statePath) : undefined;
  if (saved) {
    // What the file holds wins; a flag that says otherwise is a mistake to name, not to ignore.
    const clash = (flag: string, given: unknown, held: unknown) => {
      if (given !== undefined && given !== held) {
        throw new StateFileError(
          `--state ${options.statePath} holds an organization with ${flag} ${held}; drop ${flag} ${given} or use another state file`,
        );
      }
    };
    clash("--seed", options.seed, saved.seed);
    clash("--scenario", options.scenario, saved.scenario);
    clash("--root-quorum", options.rootQuorumThreshold, saved.rootQuorum.threshold);
  }
  const seed = saved?.seed ?? options.seed ?? randomInt(0, 2 ** 31);
  const service = new SimService({
    seed,
    scenario: saved?.scenario ?? options.scenario ?? "demo",
    savedState: saved,
    statePath: options.statePath,
    rootQuorumThreshold: options.rootQuorumThreshold,
    clock,
    clockSkewMs: options.clockSkewMs ?? 0,
    replicas: options.replicas ?? 3,
    logRate: options.logRate ?? 5,
    retentionMs: options.retentionMs ?? 3_600_000,
    ingestLagMs: options.ingestLagMs ?? 0,
    truthFile: options.truthFile,
    log,
  });
  const faults = new FaultInjector({
    seed,
    rate: options.faultRate ?? 0,
    latencyMs: options.latencyMs,
    outage: options.outage,
  });
  const startedMono = clock.monotonic();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const delay = faults.delayMs();
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const fault = faults.next(clock.monotonic() - startedMono);
    if (fault?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault) {
      send(res, fault.status, fault.body, service.now(), fault.headers);
      return;
    }
    const route = operationByPath(path);
    try {
      if (req.method !== "POST")
        throw new SimError(
          GrpcCode.UNIMPLEMENTED,
          `${req.method} is not supported; every operation is a POST`,
        );
      if (!route) throw new SimError(GrpcCode.NOT_FOUND, `no operation at ${path}`);
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = raw.length === 0 ? {} : JSON.parse(raw);
      } catch {
        throw invalidArgument("request body is not valid JSON");
      }
      if (typeof body !== "object" || body === null || Array.isArray(body))
        throw invalidArgument("request body must be a JSON object");
      const record = body as Record<string, unknown>;
      if (route.op.kind === "auth-proxy") {
        send(
          res,
          200,
          service.walletKitConfig(header(req, "x-auth-proxy-config-id")),
          service.now(),
        );
        return;
      }
      const caller = service.authenticate({
        stamp: header(req, "x-stamp"),
        webAuthnStamp: header(req, "x-stamp-webauthn"),
        rawBody: raw,
        body: record,
      });
      const input = service.validate(route.name, route.op, record);
      const answer = await service.handle(route.name, input, caller, {
        rawBody: raw,
        body: record,
      });
      send(res, 200, answer, service.now());
    } catch (err) {
      const simErr =
        err instanceof SimError ? err : new SimError(GrpcCode.INTERNAL, "internal error");
      if (!(err instanceof SimError)) log((err as Error)?.stack ?? String(err));
      send(res, simErr.httpStatus, simErr.body(), service.now());
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  const s = service.scenario;
  const config: SimConfig = {
    baseUrl: url,
    authProxyUrl: url,
    authProxyConfigId: s.authProxyConfigId,
    organizationId: s.organizationId,
    apiPublicKey: s.rootKey.publicKey,
    apiPrivateKey: s.rootKey.privateKey,
    deploymentId: s.deploymentId,
    emails: s.emails,
    solanaAddresses: s.solanaWalletAddresses,
    caip2: s.caip2,
    signerPublicKey: service.signer.publicKey,
  };
  return {
    url,
    seed,
    service,
    config,
    secondRootConfig: {
      ...config,
      apiPublicKey: s.secondRootKey.publicKey,
      apiPrivateKey: s.secondRootKey.privateKey,
    },
    close: () =>
      new Promise<void>((resolve) => {
        service.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
