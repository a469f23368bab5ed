/**
 * The dashboard's first line: what it shows. A deployment by its app and id once the app is
 * known (the id alone until then, its first 8 characters when narrow), several by their labels,
 * or whatever the caller names (saved lines: `tvcwatch open`); a deployment followed with its
 * ready/desired replicas as Turnkey records them, once known.
 */
import type { HealthView, Replicas } from "../../feeds/deployment-health.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import {
  joinSafe,
  lit,
  type Safe,
  safe,
  safeBounded,
  truncate,
  widthOf,
} from "../../text/safe-text.js";
import { readyText } from "../panes/health-detail.js";

export type Heading =
  /** Deployments followed: the first named (with its app when known), or several by label. */
  | {
      kind: "deployments";
      /** Said before the deployment ("demo (simulated) · "). */
      prefix?: string | undefined;
      /** The deployment watched (the first, when several are). */
      deploymentId: string;
      /** The deployment as the picker knows it (its app's name), when known. */
      deployment?: DeploymentChoice | undefined;
    }
  /** Anything else, named by the caller: saved files, their lines and time range. */
  | {
      kind: "named";
      prefix?: string | undefined;
      name: string;
      /** The deployment(s) the lines are of, when known: what `S` records in its header. */
      deploymentId?: string | undefined;
    };

/** How much of the deployment a title names, from the most to the least. */
type TitleForm =
  /** "payments-signer · deployment 5b2da4c2-…-9c1e07 (0.8.0 canary)": all of it. */
  | "full"
  /** "payments-signer · deployment 5b2da4c2… (0.8.0 canary)": the id's first 8 characters. */
  | "short"
  /** "payments-signer · 5b2da4c2… (0.8.0 canary)": without the word "deployment". */
  | "bare"
  /** "payments-signer · 5b2da4… (0.8.0 canary)": the id's first 6 characters, as labels have. */
  | "label"
  /** "payments-signer (0.8.0 canary)": the app and what the deployment is, no id. */
  | "app";

/**
 * "payments-signer · deployment 5b2da4c2-… (0.8.0 canary)": its app, its id, its QOS version and
 * whether it is the app's live deployment, as far as known; the id alone until the name is
 * known. The narrower forms shorten the id, leave out the word "deployment", then the id: what it
 * is, live or canary, is what must not be cut.
 */
export function deploymentTitle(
  id: string,
  d: DeploymentChoice | undefined,
  form: TitleForm = "full",
): Safe {
  const idText = d?.idText ?? safeBounded(id, 200);
  const shown =
    form === "full" ? idText : form === "label" ? truncate(idText, 7) : truncate(idText, 9);
  if (!d) return lit`deployment ${shown}`;
  if (form === "app") return lit`${d.appName}${described(d)}`;
  if (form === "bare" || form === "label") return lit`${d.appName} · ${shown}${described(d)}`;
  return lit`${d.appName} · deployment ${shown}${described(d)}`;
}

/** " (0.8.0 canary)": its version and role as far as known, or nothing. */
function described(d: DeploymentChoice): Safe {
  const what = [
    ...(d.qosVersion ? [truncate(d.qosVersion, 24)] : []),
    ...(d.live ? [lit`live`] : d.canary ? [lit`canary`] : []),
  ];
  return what.length > 0 ? lit` (${joinSafe(what, lit` `)})` : lit``;
}

/**
 * "3 deployments: 5b2da4 0.7.2 live 2/3, 9c1e07 0.8.0 canary 2/2, a0f3d2": each label, with its
 * ready/desired replicas when known.
 */
export function severalTitle(
  deployments: readonly { id?: string; label: string }[],
  health?: ReadonlyMap<string, Replicas>,
): Safe {
  const labels = deployments.map((d) => {
    const h = d.id === undefined ? undefined : health?.get(d.id);
    const label = safeBounded(d.label, 40);
    return h ? lit`${label} ${h.ready}/${h.desired}` : label;
  });
  return lit`${deployments.length} deployments: ${labels.reduce((a, b) => lit`${a}, ${b}`)}`;
}

/** " · 2/3 ready", " · 2/3 ready (stale)" after the last poll failed; nothing when unknown. */
function readySuffix(id: string, health: FeedSnapshot<HealthView> | undefined): Safe {
  const h = health?.data?.deployments.get(id);
  if (!h) return lit``;
  return lit` · ${safe(readyText(h))}${health?.error === undefined ? lit`` : lit` (stale)`}`;
}

/**
 * The title for `width` columns; `several` are the deployments when more than one is followed;
 * `health` their replicas as polled (`2/3 ready`), never cut before the deployment's name is.
 */
export function dashboardTitle(
  heading: Heading,
  several: readonly { id?: string; label: string }[],
  width: number,
  health?: FeedSnapshot<HealthView>,
): Safe {
  const prefix = lit`tvcwatch · ${safeBounded(heading.prefix ?? "", 200)}`;
  if (heading.kind === "named")
    return truncate(lit`${prefix}${safeBounded(heading.name, 500)}`, width);
  if (several.length > 1)
    return truncate(lit`${prefix}${severalTitle(several, health?.data?.deployments)}`, width);
  const ready = readySuffix(heading.deploymentId, health);
  const titled = (form: TitleForm) =>
    lit`${prefix}${deploymentTitle(heading.deploymentId, heading.deployment, form)}`;
  const full = lit`${titled("full")}${ready}`;
  if (widthOf(full) <= width) return full;
  const short = lit`${titled("short")}${ready}`;
  if (widthOf(short) <= width || !heading.deployment) return short;
  for (const form of ["bare", "label", "app"] as const) {
    const title = lit`${titled(form)}${ready}`;
    if (widthOf(title) <= width) return title;
  }
  return lit`${truncate(titled("app"), Math.max(1, width - widthOf(ready)))}${ready}`;
}
