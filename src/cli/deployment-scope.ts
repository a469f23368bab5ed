/**
 * Which deployments a command follows, from `--deployment` (repeated), `--app APP` (its id or
 * name) or `--all`, or the config file's deployment: the same for `tail` and the dashboard.
 * `--app` / `--all` follow at most `--max-deployments` (tail/follow-set/deployment-cap.ts).
 */
import type { TurnkeyClient } from "../api/client.js";
import type { DeploymentWatch } from "../feeds/dashboard-sources.js";
import { debugDeployments, noDebugDeployment } from "../feeds/deployment-list.js";
import { describeError } from "../feeds/poller.js";
import {
  capDeployments,
  DEFAULT_MAX_DEPLOYMENTS,
  type ListingCount,
} from "../tail/follow-set/deployment-cap.js";
import type { RequestLimit } from "../tail/request-limit.js";
import { CliError } from "./cli-error.js";

export interface DeploymentScope {
  deployment?: string[] | undefined;
  app?: string | undefined;
  all?: boolean | undefined;
  maxDeployments?: number | undefined;
}

export interface ToFollow {
  ids: string[];
  /** With `--app` / `--all`: how many were listed, and left out by `--max-deployments`. */
  listing?: ListingCount | undefined;
}

/**
 * The deployments to follow: those `--app` / `--all` find now (none: a one-line error; more
 * than --max-deployments: the first of them), each `--deployment` once, or the configured one;
 * none at all: the dashboard's picker. The listing takes slots of `limit` (--max-concurrent).
 */
export async function deploymentsToFollow(
  client: TurnkeyClient,
  scope: DeploymentScope,
  configured: string | undefined,
  limit?: RequestLimit,
): Promise<ToFollow> {
  if (scope.app !== undefined || scope.all) {
    let listed: string[];
    try {
      listed = await debugDeployments(client, scope, undefined, limit);
    } catch (err) {
      throw new CliError(`could not list the deployments: ${describeError(err)}`, 1);
    }
    if (listed.length === 0) throw new CliError(noDebugDeployment(scope), 1);
    const capped = capDeployments(listed, scope.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS);
    return { ids: capped.follow, listing: { listed: capped.listed, leftOut: capped.leftOut } };
  }
  if (scope.deployment && scope.deployment.length > 0)
    return { ids: [...new Set(scope.deployment)] };
  return { ids: configured ? [configured] : [] };
}

/**
 * With `--app` / `--all`, how the dashboard lists the deployments again (within the session's
 * request limit), how many it follows at most and what the first listing left out; else
 * undefined.
 */
export function deploymentWatch(
  client: TurnkeyClient,
  scope: DeploymentScope,
  atStart?: ListingCount,
): DeploymentWatch | undefined {
  if (scope.app === undefined && !scope.all) return undefined;
  return {
    relist: (signal, limit) => debugDeployments(client, scope, signal, limit),
    label: scope.all ? "--all" : `--app ${scope.app}`,
    maxDeployments: scope.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS,
    ...(atStart ? { atStart } : {}),
  };
}
