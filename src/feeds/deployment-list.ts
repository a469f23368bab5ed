/**
 * The picker's rows: every TVC app's deployments (the apps' deployment lists loaded in parallel,
 * at most --max-concurrent at once), debug-mode (tailable) first, each with why it cannot be
 * tailed when it cannot.
 */

import { timestampMs } from "../activity/activity-fields.js";
import type { TurnkeyClient } from "../api/client.js";
import type { TvcApp, TvcDeployment } from "../api/schemas.js";
import type { DeploymentDescription } from "../logs/model/deployment-labels.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../tail/request-limit.js";
import { type Safe, safeBounded } from "../text/safe-text.js";
import { appHealth, type DeploymentHealth } from "./deployment-health.js";
import { keyMaker, onceEach } from "./unique-keys.js";

export interface DeploymentChoice {
  /** As received: what requests are made with, never rendered from here. */
  deploymentId: string;
  /** Unique among the choices (a React key). */
  key: string;
  appId: string;
  appName: Safe;
  /** The deployment id, sanitized, for the screen. */
  idText: Safe;
  tailable: boolean;
  reason: Safe | undefined;
  /** The app's live deployment. */
  live: boolean;
  /** Not live, while its app names another deployment live (a version rolling out beside it). */
  canary?: boolean | undefined;
  createdAt: number | undefined;
  qosVersion: Safe | undefined;
  /** How many times the server listed it: a repeat is shown once, marked. */
  listed: number;
  /**
   * Its replicas and whether its app targets it, as its app's status said when listed (with
   * `health`); undefined when not asked, not read, or the status does not list it.
   */
  health?: DeploymentHealth | undefined;
}

const MAX_FIELD = 200;

export function deploymentChoice(app: TvcApp, d: TvcDeployment, key = d.id): DeploymentChoice {
  const created = timestampMs(d.createdAt);
  return {
    deploymentId: d.id,
    key,
    appId: app.id,
    appName: safeBounded(app.name, MAX_FIELD),
    idText: safeBounded(d.id, MAX_FIELD),
    tailable: d.debugMode && !d.delete,
    reason: d.delete
      ? safeBounded("being deleted", MAX_FIELD)
      : d.debugMode
        ? undefined
        : safeBounded("not in debug mode", MAX_FIELD),
    live: app.liveDeploymentId === d.id,
    canary: app.liveDeploymentId !== undefined && app.liveDeploymentId !== d.id,
    createdAt: created !== undefined && Number.isFinite(created) ? created : undefined,
    qosVersion: d.qosVersion === undefined ? undefined : safeBounded(d.qosVersion, MAX_FIELD),
    listed: 1,
  };
}

/**
 * Debug-mode first, then by app name, the live deployment and the newest first within an app,
 * then by id (the order `--max-deployments` takes them in).
 */
export function sortChoices(choices: DeploymentChoice[]): DeploymentChoice[] {
  return choices.sort(
    (a, b) =>
      Number(b.tailable) - Number(a.tailable) ||
      a.appName.localeCompare(b.appName) ||
      Number(b.live) - Number(a.live) ||
      (b.createdAt ?? 0) - (a.createdAt ?? 0) ||
      (a.deploymentId < b.deploymentId ? -1 : a.deploymentId > b.deploymentId ? 1 : 0),
  );
}

/**
 * Every app's deployments (or those of the apps `pick` keeps). One list_tvc_app_deployments per
 * app, each taking a slot of `limit` (the follow's own `--max-concurrent`, or one of the default
 * size); with `health` (the picker), each app's get_app_status too, in a slot of its own: a
 * status that cannot be read (or answers about another app) leaves its deployments without
 * health, never the list without its deployments.
 */
export async function listDeploymentChoices(
  client: TurnkeyClient,
  signal?: AbortSignal,
  limit: RequestLimit = new RequestLimit(DEFAULT_MAX_CONCURRENT),
  pick: (apps: TvcApp[]) => TvcApp[] = (apps) => apps,
  options: { health?: boolean } = {},
): Promise<DeploymentChoice[]> {
  const { tvcApps } = await client.call("list_tvc_apps", {}, { signal });
  const perApp = await Promise.all(
    pick(tvcApps).map(async (app) => {
      const status = options.health
        ? limit
            .run(() => client.call("get_app_status", { appId: app.id }, { signal }))
            .then(
              ({ appStatus }) => (appStatus.appId === app.id ? appHealth(appStatus) : undefined),
              () => undefined,
            )
        : undefined;
      const { tvcDeployments } = await limit.run(() =>
        client.call("list_tvc_app_deployments", { appId: app.id }, { signal }),
      );
      const health = await status;
      return tvcDeployments.map((d) => ({
        ...deploymentChoice(app, d),
        health: health?.get(d.id),
      }));
    }),
  );
  const keyOf = keyMaker();
  return sortChoices(
    onceEach(perApp.flat(), (c) => c.deploymentId).map(({ item, times }) => ({
      ...item,
      key: keyOf(item.deploymentId),
      listed: times,
    })),
  );
}

/**
 * The debug-mode deployments of one app (`--app`, its id or else its name) or of the
 * organization (`--all`), now, in the picker's order, each once.
 */
export async function debugDeployments(
  client: TurnkeyClient,
  scope: { app?: string | undefined; all?: boolean | undefined },
  signal?: AbortSignal,
  limit?: RequestLimit,
): Promise<string[]> {
  // `--app`: only that app's deployments are listed (by its id, else by its name).
  const pick = (apps: TvcApp[]) => {
    if (scope.all === true) return apps;
    const byId = apps.filter((a) => a.id === scope.app);
    return byId.length > 0 ? byId : apps.filter((a) => a.name === scope.app);
  };
  const choices = await listDeploymentChoices(client, signal, limit, pick);
  return [...new Set(choices.filter((c) => c.tailable).map((c) => c.deploymentId))];
}

/** The one-line error when `--app` / `--all` find nothing to follow. */
export function noDebugDeployment(scope: { app?: string | undefined; all?: boolean }): string {
  return scope.all
    ? "no debug-mode deployment in the organization: only those in debug mode have logs to read"
    : `app ${scope.app} has no debug-mode deployment: only those in debug mode have logs to read`;
}

/**
 * What the deployments followed are, as Turnkey's records say (the follow-set's labels,
 * ../tail/follow-set/): each one's QOS version (get_tvc_deployment) and whether it is its app's
 * live deployment (list_tvc_apps, read once: `liveDeploymentId`), `canary` when its app names
 * another one live, and its app (whose status the dashboard polls). Every request takes a slot of
 * `limit`; an answer about another deployment or app than asked is not used, and a deployment
 * whose record could not be read is left out.
 */
export async function describeDeployments(
  client: TurnkeyClient,
  ids: readonly string[],
  signal: AbortSignal,
  limit: RequestLimit,
): Promise<Map<string, DeploymentDescription>> {
  const apps = limit
    .run(() => client.call("list_tvc_apps", {}, { signal }))
    .then(
      ({ tvcApps }) => new Map(tvcApps.map((a) => [a.id, a])),
      () => new Map<string, TvcApp>(),
    );
  const records = await Promise.all(
    ids.map((id) =>
      limit
        .run(() => client.call("get_tvc_deployment", { deploymentId: id }, { signal }))
        .then(
          ({ tvcDeployment }) => (tvcDeployment.id === id ? tvcDeployment : undefined),
          () => undefined,
        ),
    ),
  );
  const byApp = await apps;
  const out = new Map<string, DeploymentDescription>();
  for (const d of records) {
    if (!d) continue;
    const live = byApp.get(d.appId)?.liveDeploymentId;
    const role = live === undefined ? undefined : live === d.id ? "live" : "canary";
    const version = d.qosVersion === "" ? undefined : d.qosVersion;
    out.set(d.id, { version, role, ...(d.appId === "" ? {} : { appId: d.appId }) });
  }
  return out;
}
