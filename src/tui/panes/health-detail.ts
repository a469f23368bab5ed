/**
 * What `i` says of the followed deployments' health (get_app_status, ./deployment-health.ts):
 * each one's ready and desired replicas and whether its app targets it, how old that is, why it
 * is not known, and the latest changes the record holds.
 */

import type {
  DeploymentHealth,
  HealthChange,
  HealthView,
  Replicas,
} from "../../feeds/deployment-health.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import type { GroupMember } from "../../tail/follower-group.js";
import { lit, safeBounded } from "../../text/safe-text.js";
import type { DetailField } from "./detail-view.js";
import { field } from "./detail-view.js";

/** The most changes `i` lists (the newest). */
const SHOWN_CHANGES = 5;

/** `2/3 ready`: what the title, `i` and the picker say of a deployment's replicas. */
export function readyText(r: Replicas): string {
  return `${r.ready}/${r.desired} ready`;
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s}s ago` : `${Math.round(s / 60)}m ago`;
}

function healthLine(h: DeploymentHealth | undefined, known: boolean): string {
  if (!h) return known ? "not in its app's status" : "not known yet";
  return `${readyText(h)}${h.targeted ? ", targeted by its app (serves its traffic)" : ""}`;
}

function changeLine(c: HealthChange, labelOf: (id: string) => string, now: number): string {
  const when = ago(now - c.seenAt);
  if (c.kind === "targeted")
    return `${when}: app ${c.appId} targets ${c.to === undefined ? "no deployment" : labelOf(c.to)} (was ${c.from === undefined ? "none" : labelOf(c.from)})`;
  const from = c.from ? readyText(c.from) : "not listed";
  const to = c.to ? readyText(c.to) : "no longer listed";
  return `${when}: ${labelOf(c.deploymentId)} ${from} → ${to}`;
}

/**
 * The health fields of `i` for the deployments followed; none when health is not polled (saved
 * lines, or a follow without it).
 */
export function healthFields(
  snapshot: FeedSnapshot<HealthView> | undefined,
  deployments: readonly GroupMember[],
  now: number,
): DetailField[] {
  if (!snapshot || deployments.length === 0) return [];
  const view = snapshot.data;
  const known = view !== undefined && view.apps > 0;
  const followed = new Map(deployments.map((d) => [d.deploymentId, d.label]));
  const labelOf = (id: string) => followed.get(id) ?? id;
  const age =
    snapshot.lastUpdated === undefined
      ? ""
      : ` · as Turnkey's get_app_status said ${ago(now - snapshot.lastUpdated)}`;
  const failed = snapshot.error === undefined ? "" : ` — the last poll failed: ${snapshot.error}`;
  const fields: DetailField[] = [];
  if (deployments.length === 1) {
    const [one] = deployments;
    const h = one ? view?.deployments.get(one.deploymentId) : undefined;
    fields.push(field(lit`ready`, `${healthLine(h, known)}${h ? age : ""}${failed}`));
  } else {
    fields.push({
      label: lit`ready`,
      lines: [
        ...deployments.map((d) =>
          safeBounded(
            `${d.label}: ${healthLine(view?.deployments.get(d.deploymentId), known)}`,
            600,
          ),
        ),
        ...(age || failed ? [safeBounded(`${age.replace(/^ · /, "")}${failed}`, 2000)] : []),
      ],
    });
  }
  if (view && view.problems.length > 0) {
    fields.push({
      label: lit`app status`,
      lines: view.problems.map((p) => safeBounded(p, 600)),
    });
  }
  const apps = new Set(
    deployments.flatMap((d) => view?.deployments.get(d.deploymentId)?.appId ?? []),
  );
  const changes = (view?.changes ?? []).filter((c) =>
    c.kind === "targeted" ? apps.has(c.appId) : followed.has(c.deploymentId),
  );
  if (changes.length > 0) {
    fields.push({
      label: lit`health changes`,
      lines: changes
        .slice(-SHOWN_CHANGES)
        .reverse()
        .map((c) => safeBounded(changeLine(c, labelOf, now), 600)),
    });
  }
  return fields;
}
