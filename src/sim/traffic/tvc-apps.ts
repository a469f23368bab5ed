/**
 * The scenario's TVC apps and deployments as the API returns them (list_tvc_apps,
 * list_tvc_app_deployments, get_tvc_deployment), and which deployment's debug logs may be read.
 *
 * Each app has its quorum key, a manifest set (operators who approve manifests, 2 of 3) and a
 * share set (operators holding shares of the quorum key, 2 of 3); each deployment its QOS
 * manifest (base64 JSON naming the app, its pivot container and both sets), the manifest set's
 * approvals of it (real P-256 signatures over the manifest by the operators' keys) and the pivot
 * container it runs. All derived from the scenario's ids: the same seed, the same records.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { z } from "zod";
import type { tvcApp, tvcDeployment, tvcOperator, tvcOperatorSet } from "../../api/schemas.js";
import { failedPrecondition, notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { Scenario, SimApp, SimDeployment } from "../scenario.js";
import { uuidOf } from "../seeded.js";

const DAY_MS = 86_400_000;

type TvcAppJson = z.input<typeof tvcApp>;
type TvcDeploymentJson = z.input<typeof tvcDeployment>;
type OperatorJson = z.input<typeof tvcOperator>;
type OperatorSetJson = z.input<typeof tvcOperatorSet>;

const bytesOf = (label: string) => sha256(new TextEncoder().encode(`tvcwatch-sim-tvc-${label}`));

interface Operator {
  json: OperatorJson;
  privateKey: Uint8Array;
}

const MANIFEST_OPERATORS = ["alice (platform)", "bob (security)", "carol (sre)"];
const SHARE_OPERATORS = ["dave (security)", "erin (platform)", "frank (finance)"];

export class TvcDirectory {
  private readonly apps = new Map<string, TvcAppJson>();
  private readonly deployments = new Map<string, TvcDeploymentJson>();

  constructor(
    private readonly scenario: Scenario,
    /** Server time the simulator started: creation times are set back from it. */
    startMs: number,
  ) {
    for (const app of scenario.apps) this.add(app, startMs);
  }

  private add(app: SimApp, startMs: number): void {
    const orgId = this.scenario.organizationId;
    const created = protoTimestamp(startMs - 7 * DAY_MS);
    const operator = (name: string): Operator => {
      const privateKey = bytesOf(`operator-${name}-${orgId}`);
      return {
        privateKey,
        json: {
          id: uuidOf(bytesOf(`operator-id-${name}-${orgId}`)),
          name,
          publicKey: bytesToHex(p256.getPublicKey(privateKey, false)),
          createdAt: created,
          updatedAt: created,
        },
      };
    };
    const manifestOperators = MANIFEST_OPERATORS.map(operator);
    const set = (kind: string, operators: Operator[]): OperatorSetJson => ({
      id: uuidOf(bytesOf(`${kind}-set-${app.id}`)),
      name: `${app.name} ${kind} set`,
      organizationId: orgId,
      operators: operators.map((o) => o.json),
      threshold: 2,
      createdAt: created,
      updatedAt: created,
    });
    const manifestSet = set("manifest", manifestOperators);
    const shareSet = set("share", SHARE_OPERATORS.map(operator));
    const quorumPublicKey = bytesToHex(p256.getPublicKey(bytesOf(`quorum-key-${app.id}`), false));
    this.apps.set(app.id, {
      id: app.id,
      organizationId: orgId,
      name: app.name,
      quorumPublicKey,
      manifestSet,
      shareSet,
      enableEgress: app.name !== "payments-signer",
      createdAt: created,
      updatedAt: protoTimestamp(startMs - DAY_MS),
      ...(app.liveDeploymentId ? { liveDeploymentId: app.liveDeploymentId } : {}),
      publicDomain: `app-${app.id}.turnkey.cloud`,
      enableDebugModeDeployments: app.enableDebugModeDeployments,
    });
    for (const d of app.deployments) {
      this.deployments.set(
        d.id,
        this.deploymentJson(
          app,
          d,
          { manifestSet, shareSet, manifestOperators, quorumPublicKey },
          startMs,
        ),
      );
    }
  }

  private deploymentJson(
    app: SimApp,
    d: SimDeployment,
    sets: {
      manifestSet: OperatorSetJson;
      shareSet: OperatorSetJson;
      manifestOperators: Operator[];
      quorumPublicKey: string;
    },
    startMs: number,
  ): TvcDeploymentJson {
    const created = protoTimestamp(startMs - DAY_MS);
    const updated = protoTimestamp(startMs - 3_600_000);
    const image = bytesToHex(bytesOf(`image-${d.id}`));
    const args = ["--port", "3000", "--log-format", "json"];
    const pivotContainer = {
      containerUrl: `ghcr.io/acme-payments/${app.name}@sha256:${image}`,
      path: `/usr/local/bin/${app.name}`,
      args,
      hasPullSecret: true,
      healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP",
      healthCheckPort: 3001,
      publicIngressPort: 3000,
    };
    const members = (set: OperatorSetJson) => ({
      threshold: set.threshold,
      members: set.operators.map((o) => ({ alias: o.name, pubKey: o.publicKey })),
    });
    const manifestText = JSON.stringify({
      namespace: { name: app.name, nonce: 3, quorumKey: sets.quorumPublicKey },
      pivot: { hash: image, restart: "RESTART_POLICY_ALWAYS", args },
      manifestSet: members(sets.manifestSet),
      shareSet: members(sets.shareSet),
      enclave: {
        pcr0: bytesToHex(bytesOf(`pcr0-${d.qosVersion}`)).padEnd(96, "0"),
        pcr1: bytesToHex(bytesOf(`pcr1-${d.qosVersion}`)).padEnd(96, "0"),
        pcr2: bytesToHex(bytesOf(`pcr2-${d.qosVersion}`)).padEnd(96, "0"),
        pcr3: bytesToHex(bytesOf(`pcr3-${app.id}`)).padEnd(96, "0"),
        qosCommit: bytesToHex(bytesOf(`qos-${d.qosVersion}`)).slice(0, 40),
      },
      debugMode: d.debugMode,
    });
    const manifestBytes = new TextEncoder().encode(manifestText);
    const manifestId = uuidOf(bytesOf(`manifest-${d.id}`));
    return {
      id: d.id,
      organizationId: this.scenario.organizationId,
      appId: d.appId,
      manifestSet: sets.manifestSet,
      shareSet: sets.shareSet,
      manifest: {
        id: manifestId,
        manifest: Buffer.from(manifestBytes).toString("base64"),
        createdAt: created,
        updatedAt: created,
      },
      // The manifest set's threshold of approvals: each operator's signature over the manifest.
      manifestApprovals: sets.manifestOperators.slice(0, sets.manifestSet.threshold).map((o) => ({
        id: uuidOf(bytesOf(`approval-${d.id}-${o.json.id}`)),
        manifestId,
        operator: o.json,
        approval: Buffer.from(p256.sign(manifestBytes, o.privateKey)).toString("base64"),
        createdAt: created,
        updatedAt: created,
      })),
      qosVersion: d.qosVersion,
      pivotContainer,
      createdAt: created,
      updatedAt: updated,
      delete: false,
      debugMode: d.debugMode,
    };
  }

  /** Every app of the organization. */
  list(): TvcAppJson[] {
    return [...this.apps.values()];
  }

  deploymentsOf(appId: string): TvcDeploymentJson[] {
    const app = this.scenario.apps.find((a) => a.id === appId);
    if (!app)
      throw notFound(`TVC app ${appId} not found in organization ${this.scenario.organizationId}`);
    return app.deployments.map((d) => this.deployment(d.id));
  }

  deployment(id: string): TvcDeploymentJson {
    const found = this.deployments.get(id);
    if (!found) {
      throw notFound(
        `TVC deployment ${id} not found in organization ${this.scenario.organizationId}`,
      );
    }
    return found;
  }

  /** The deployment whose debug logs are asked for: it must exist and run in debug mode. */
  debugDeployment(id: string): SimDeployment {
    for (const app of this.scenario.apps) {
      const d = app.deployments.find((x) => x.id === id);
      if (!d) continue;
      if (!d.debugMode) {
        throw failedPrecondition(
          `deployment ${d.id} is not running in debug mode; debug logs are only available for debug-mode deployments`,
        );
      }
      return d;
    }
    throw notFound(
      `TVC deployment ${id} not found in organization ${this.scenario.organizationId}`,
    );
  }
}
