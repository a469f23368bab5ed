/**
 * The scenario's TVC apps and deployments as the API returns them: list_tvc_apps,
 * list_tvc_app_deployments, get_tvc_deployment, and which deployment's debug logs may be read.
 */

import { failedPrecondition, notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { Scenario, SimDeployment } from "../scenario.js";

const DAY_MS = 86_400_000;

export class TvcDirectory {
  constructor(
    private readonly scenario: Scenario,
    /** Server time the simulator started: creation times are set back from it. */
    private readonly startMs: number,
  ) {}

  apps() {
    const s = this.scenario;
    return s.apps.map((a) => ({
      id: a.id,
      organizationId: s.organizationId,
      name: a.name,
      enableDebugModeDeployments: a.enableDebugModeDeployments,
      ...(a.liveDeploymentId ? { liveDeploymentId: a.liveDeploymentId } : {}),
      publicDomain: `app-${a.id}.turnkey.cloud`,
      createdAt: protoTimestamp(this.startMs - 7 * DAY_MS),
      updatedAt: protoTimestamp(this.startMs - DAY_MS),
    }));
  }

  deploymentsOf(appId: string) {
    const app = this.scenario.apps.find((a) => a.id === appId);
    if (!app)
      throw notFound(`TVC app ${appId} not found in organization ${this.scenario.organizationId}`);
    return app.deployments.map((d) => this.toJson(d));
  }

  deployment(id: string) {
    return this.toJson(this.find(id));
  }

  /** The deployment whose debug logs are asked for: it must exist and run in debug mode. */
  debugDeployment(id: string): SimDeployment {
    const d = this.find(id);
    if (!d.debugMode) {
      throw failedPrecondition(
        `deployment ${d.id} is not running in debug mode; debug logs are only available for debug-mode deployments`,
      );
    }
    return d;
  }

  private find(id: string): SimDeployment {
    for (const app of this.scenario.apps) {
      const d = app.deployments.find((x) => x.id === id);
      if (d) return d;
    }
    throw notFound(
      `TVC deployment ${id} not found in organization ${this.scenario.organizationId}`,
    );
  }

  private toJson(d: SimDeployment) {
    return {
      id: d.id,
      organizationId: this.scenario.organizationId,
      appId: d.appId,
      debugMode: d.debugMode,
      delete: false,
      qosVersion: d.qosVersion,
      createdAt: protoTimestamp(this.startMs - DAY_MS),
      updatedAt: protoTimestamp(this.startMs - 3_600_000),
    };
  }
}
