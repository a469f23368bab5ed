/** The picker's rows: every TVC app's deployments, debug-mode (tailable) first. */
import type { TurnkeyClient } from "../api/client.js";

export interface DeploymentChoice {
  appName: string;
  appId: string;
  deploymentId: string;
  tailable: boolean;
  reason: string | undefined;
  live: boolean;
}

export async function listDeploymentChoices(
  client: TurnkeyClient,
  signal?: AbortSignal,
): Promise<DeploymentChoice[]> {
  const { tvcApps } = await client.call("list_tvc_apps", {}, { signal });
  const choices: DeploymentChoice[] = [];
  for (const app of tvcApps) {
    const { tvcDeployments } = await client.call(
      "list_tvc_app_deployments",
      { appId: app.id },
      { signal },
    );
    for (const d of tvcDeployments) {
      choices.push({
        appName: app.name,
        appId: app.id,
        deploymentId: d.id,
        tailable: d.debugMode && !d.delete,
        reason: d.delete
          ? "being deleted"
          : d.debugMode
            ? undefined
            : "not in debug mode: its logs cannot be read",
        live: app.liveDeploymentId === d.id,
      });
    }
  }
  return choices.sort(
    (a, b) => Number(b.tailable) - Number(a.tailable) || a.appName.localeCompare(b.appName),
  );
}
