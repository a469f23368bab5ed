/**
 * `tvcwatch sim`: a local simulator of Turnkey's API on node:http, for demos and tests. It is a
 * test double, not the real service: it serves the scenario's generated data, checks real
 * X-Stamp signatures, and can inject faults (errors, dropped connections, latency, clock skew,
 * ingest lag).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock } from "../api/clock.js";
import { sayAs } from "../text/stderr.js";
import { FaultInjector } from "./http/faults.js";
import { SimRequestHandler } from "./request-handler.js";
import type { SimService } from "./service.js";
import { serviceFromOptions } from "./service-from-options.js";
import type { RunningSimulator, SimConfig, SimulatorOptions } from "./simulator-options.js";

export type { RunningSimulator, SimConfig, SimulatorOptions } from "./simulator-options.js";

/** The config for the demo key (oncall-root), for a simulator at `url`. */
function demoKeyConfig(url: string, service: SimService): SimConfig {
  const s = service.scenario;
  return {
    baseUrl: url,
    authProxyUrl: url,
    authProxyConfigId: s.authProxyConfigId,
    organizationId: s.organizationId,
    apiPublicKey: s.rootKey.publicKey,
    apiPrivateKey: s.rootKey.privateKey,
    deploymentId: s.deploymentId,
    emails: s.emails,
    solanaAddresses: [...service.solanaAddresses],
    caip2: s.caip2,
    signerPublicKey: service.signer.publicKey,
  };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? sayAs("sim");
  const { service, seed } = serviceFromOptions(options, clock, log);
  const faults = new FaultInjector({
    seed,
    rate: options.faultRate ?? 0,
    latencyMs: options.latencyMs,
    outage: options.outage,
  });
  const startedMono = clock.monotonic();
  const handler = new SimRequestHandler(
    service,
    faults,
    log,
    () => clock.monotonic() - startedMono,
  );
  const server = createServer((req, res) => {
    handler.handle(req, res).catch(() => res.destroy());
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
  const config = demoKeyConfig(url, service);
  const second = service.scenario.secondRootKey;
  return {
    url,
    seed,
    service,
    config,
    secondRootConfig: {
      ...config,
      apiPublicKey: second.publicKey,
      apiPrivateKey: second.privateKey,
    },
    close: () =>
      new Promise<void>((resolve) => {
        service.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
