/** What `startSimulator` is asked for, and what it hands back. */
import type { Clock } from "../api/clock.js";
import type { ScenarioName } from "./scenario.js";
import type { SimService } from "./service.js";

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
