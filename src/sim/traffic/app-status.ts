/**
 * get_app_status in the simulator: each deployment of an app with its ready and desired replicas
 * as the cluster counts them, and the deployment serving traffic (the app's live one). A
 * deployment whose logs are generated has its logs' replicas, so a replica in its restart window
 * is not ready (the incident scenario's replica 2) and the scale-up adds one; any other has the
 * scenario's count, all ready, unchanged since the deployment was last updated.
 */
import type { z } from "zod";
import type { appStatus } from "../../api/schemas.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { Scenario } from "../scenario.js";
import type { DebugLogs } from "./debug-logs.js";
import type { TvcDirectory } from "./tvc-apps.js";

type AppStatusJson = z.input<typeof appStatus>;

export interface AppStatusWorld {
  now: number;
  scenario: Scenario;
  tvc: TvcDirectory;
  /** The generated logs of a deployment, if it has any. */
  logsOf(deploymentId: string): DebugLogs | undefined;
}

/** The app's status at the server's now; NOT_FOUND for an app the organization does not have. */
export function simAppStatus(w: AppStatusWorld, appId: string): AppStatusJson {
  // deploymentsOf answers NOT_FOUND for an app of no such id.
  const records = w.tvc.deploymentsOf(appId);
  const app = w.scenario.apps.find((a) => a.id === appId);
  const deployments = records.map((record) => {
    const logs = w.logsOf(record.id);
    if (logs) {
      const { ready, desired, since } = logs.replicasAt(w.now);
      return {
        deploymentId: record.id,
        readyReplicas: ready,
        desiredReplicas: desired,
        lastUpdatedTime: protoTimestamp(since),
      };
    }
    const replicas = app?.deployments.find((d) => d.id === record.id)?.replicas ?? 1;
    return {
      deploymentId: record.id,
      readyReplicas: replicas,
      desiredReplicas: replicas,
      lastUpdatedTime: record.updatedAt ?? protoTimestamp(w.now),
    };
  });
  return {
    appId,
    deployments,
    ...(app?.liveDeploymentId ? { targetedDeploymentId: app.liveDeploymentId } : {}),
  };
}
