/**
 * Which deployments a command follows, from `--deployment` (repeated), `--app APP` (its id or
 * name) or `--all`, or the config file's deployment: the same for `tail` and the dashboard.
 */
import type { TurnkeyClient } from "../api/client.js";
import type { DeploymentWatch } from "../feeds/dashboard-sources.js";
import { debugDeployments, noDebugDeployment } from "../feeds/deployment-list.js";
import { describeError } from "../feeds/poller.js";
import { CliError } from "./cli-error.js";

export interface DeploymentScope {
  deployment?: string[] | undefined;
  app?: string | undefined;
  all?: boolean | undefined;
}

/**
 * The deployments to follow: those `--app` / `--all` find now (none: a one-line error), each
 * `--deployment` once, or the configured one; none at all: the dashboard's picker.
 */
export async function deploymentsToFollow(
  client: TurnkeyClient,
  scope: DeploymentScope,
  configured: string | undefined,
): Promise<string[]> {
  if (scope.app !== undefined || scope.all) {
    let ids: string[];
    try {
      ids = await debugDeployments(client, scope);
    } catch (err) {
      throw new CliError(`could not list the deployments: ${describeError(err)}`, 1);
    }
    if (ids.length === 0) throw new CliError(noDebugDeployment(scope), 1);
    return ids;
  }
  if (scope.deployment && scope.deployment.length > 0) return [...new Set(scope.deployment)];
  return configured ? [configured] : [];
}

/** With `--app` / `--all`, how the dashboard lists the deployments again; else undefined. */
export function deploymentWatch(
  client: TurnkeyClient,
  scope: DeploymentScope,
): DeploymentWatch | undefined {
  if (scope.app === undefined && !scope.all) return undefined;
  return {
    relist: (signal) => debugDeployments(client, scope, signal),
    label: scope.all ? "--all" : `--app ${scope.app}`,
  };
}
