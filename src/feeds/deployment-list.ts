/**
 * The picker's rows: every TVC app's deployments (the apps' deployment lists loaded in parallel),
 * debug-mode (tailable) first, each with why it cannot be tailed when it cannot.
 */
import type { TurnkeyClient } from "../api/client.js";
import type { TvcApp, TvcDeployment } from "../api/schemas.js";
import { type Safe, safeBounded } from "../text/safe-text.js";
import { timestampMs } from "./activity-summary.js";
import { keyMaker } from "./unique-keys.js";

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
  createdAt: number | undefined;
  qosVersion: Safe | undefined;
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
    createdAt: created !== undefined && Number.isFinite(created) ? created : undefined,
    qosVersion: d.qosVersion === undefined ? undefined : safeBounded(d.qosVersion, MAX_FIELD),
  };
}

/** Debug-mode first, then by app name, the live deployment and the newest first within an app. */
export function sortChoices(choices: DeploymentChoice[]): DeploymentChoice[] {
  return choices.sort(
    (a, b) =>
      Number(b.tailable) - Number(a.tailable) ||
      a.appName.localeCompare(b.appName) ||
      Number(b.live) - Number(a.live) ||
      (b.createdAt ?? 0) - (a.createdAt ?? 0),
  );
}

export async function listDeploymentChoices(
  client: TurnkeyClient,
  signal?: AbortSignal,
): Promise<DeploymentChoice[]> {
  const { tvcApps } = await client.call("list_tvc_apps", {}, { signal });
  const perApp = await Promise.all(
    tvcApps.map(async (app) => {
      const { tvcDeployments } = await client.call(
        "list_tvc_app_deployments",
        { appId: app.id },
        { signal },
      );
      return tvcDeployments.map((d) => deploymentChoice(app, d));
    }),
  );
  const keyOf = keyMaker();
  return sortChoices(perApp.flat().map((c) => ({ ...c, key: keyOf(c.deploymentId) })));
}

/** How often `--app` / `--all` list the deployments again (tail and the dashboard). */
export const RELIST_MS = 30_000;

/**
 * The debug-mode deployments of one app (`--app`, its id or else its name) or of the
 * organization (`--all`), now.
 */
export async function debugDeployments(
  client: TurnkeyClient,
  scope: { app?: string | undefined; all?: boolean | undefined },
  signal?: AbortSignal,
): Promise<string[]> {
  const choices = await listDeploymentChoices(client, signal);
  const byId = choices.some((c) => c.appId === scope.app);
  return choices
    .filter(
      (c) =>
        c.tailable &&
        (scope.all === true || (byId ? c.appId === scope.app : c.appName === scope.app)),
    )
    .map((c) => c.deploymentId);
}

/** The one-line error when `--app` / `--all` find nothing to follow. */
export function noDebugDeployment(scope: { app?: string | undefined; all?: boolean }): string {
  return scope.all
    ? "no debug-mode deployment in the organization: only those in debug mode have logs to read"
    : `app ${scope.app} has no debug-mode deployment: only those in debug mode have logs to read`;
}
