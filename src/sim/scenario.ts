/**
 * The simulated organization a scenario starts from: its root user and API key, TVC apps and
 * deployments and email recipients. Everything derives from the seed. (Its Solana addresses are
 * its wallets' accounts: ./organization/wallet-queries.ts, solanaAccountAddresses.)
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { publicKeyOf } from "../api/stamp.js";
import type { Random } from "./random.js";
import { uuidOf } from "./seeded.js";

export type ScenarioName = "demo" | "quiet" | "incident";
export const SCENARIOS: readonly ScenarioName[] = ["demo", "quiet", "incident"];

export interface SimApp {
  id: string;
  name: string;
  enableDebugModeDeployments: boolean;
  liveDeploymentId?: string;
  deployments: SimDeployment[];
}

export interface SimDeployment {
  id: string;
  appId: string;
  debugMode: boolean;
  qosVersion: string;
  /**
   * Its replicas, all ready, for a deployment whose logs are not generated (get_app_status); the
   * others' replicas are their logs' (./traffic/debug-logs.ts).
   */
  replicas?: number;
}

export interface Scenario {
  name: ScenarioName;
  organizationId: string;
  organizationName: string;
  userId: string;
  username: string;
  /** The demo API key: oncall-root's, printed at start-up. */
  rootKey: { publicKey: string; privateKey: string };
  /** The second root user's API key (sre-lead), so the two-vote flow can be tried by hand. */
  secondRootKey: { userName: string; publicKey: string; privateKey: string };
  authProxyConfigId: string;
  apps: SimApp[];
  /** The debug-mode deployment whose logs are generated. */
  deploymentId: string;
  /**
   * A second debug-mode deployment of the same app (a new version rolling out beside it), with
   * logs of its own: what `tail --app` and `--all` merge.
   */
  canaryDeploymentId: string;
  emails: string[];
  caip2: string;
  /** Rough activity per minute, scaled by the scenario. */
  activityPerMinute: number;
  emailPerMinute: number;
  solPerMinute: number;
}

/** A P-256 key pair derived from the seed and a label (the same seed, the same keys). */
function seededKeyPair(label: string, seed: number): { publicKey: string; privateKey: string } {
  const privateKey = bytesToHex(sha256(new TextEncoder().encode(`tvcwatch-sim-${label}-${seed}`)));
  return { privateKey, publicKey: publicKeyOf(privateKey) };
}

export function buildScenario(name: ScenarioName, seed: number, rng: Random): Scenario {
  const appId = rng.uuid();
  const riskAppId = rng.uuid();
  const deploymentId = rng.uuid();
  const prodDeploymentId = rng.uuid();
  const riskDeploymentId = rng.uuid();
  const busy = name === "quiet" ? 0.2 : name === "incident" ? 2 : 1;
  // Derived, not drawn: every other id and value stays what the seed gave before it existed.
  const canaryDeploymentId = uuidOf(sha256(new TextEncoder().encode(`canary-${deploymentId}`)));
  return {
    name,
    organizationId: rng.uuid(),
    organizationName: "Acme Payments (simulated)",
    userId: rng.uuid(),
    username: "oncall-root",
    rootKey: seededKeyPair("root-key", seed),
    secondRootKey: { userName: "sre-lead", ...seededKeyPair("second-root-key", seed) },
    authProxyConfigId: rng.uuid(),
    apps: [
      {
        id: appId,
        name: "payments-signer",
        enableDebugModeDeployments: true,
        // The app's live deployment is the one whose logs are generated (0.7.2, in debug mode so
        // its logs can be read); 0.8.0 rolls out beside it as a canary; an older deployment,
        // not in debug mode, has no logs to read and is scaled down to none.
        liveDeploymentId: deploymentId,
        deployments: [
          { id: deploymentId, appId, debugMode: true, qosVersion: "0.7.2" },
          { id: prodDeploymentId, appId, debugMode: false, qosVersion: "0.7.1", replicas: 0 },
          { id: canaryDeploymentId, appId, debugMode: true, qosVersion: "0.8.0" },
        ],
      },
      {
        id: riskAppId,
        name: "risk-engine",
        enableDebugModeDeployments: false,
        liveDeploymentId: riskDeploymentId,
        deployments: [
          {
            id: riskDeploymentId,
            appId: riskAppId,
            debugMode: false,
            qosVersion: "0.7.1",
            replicas: 2,
          },
        ],
      },
    ],
    deploymentId,
    canaryDeploymentId,
    emails: ["alice@example.com", "ops-alerts@example.com"],
    caip2: "solana:devnet",
    activityPerMinute: 6 * busy,
    emailPerMinute: 4 * busy,
    solPerMinute: 3 * busy,
  };
}
