/**
 * The dashboard's first line: what it shows. A deployment by its app and id once the app is
 * known (the id alone until then, its first 8 characters when narrow), several by their labels,
 * or whatever the caller names (saved lines: `tvcwatch open`).
 */
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { joinSafe, lit, type Safe, safeBounded, truncate, widthOf } from "../../text/safe-text.js";

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

/**
 * "payments-signer · deployment 5b2da4c2-… (0.8.0 canary)": its app, its id, its QOS version and
 * whether it is the app's live deployment, as far as known; the id alone until the name is
 * known; `short` keeps the id's first 8 characters, and "bare" leaves the word "deployment" out
 * too (what it is, live or canary, is what must not be cut).
 */
export function deploymentTitle(
  id: string,
  d: DeploymentChoice | undefined,
  short: boolean | "bare" = false,
): Safe {
  const idText = d?.idText ?? safeBounded(id, 200);
  const shown = short ? truncate(idText, 9) : idText;
  if (!d) return lit`deployment ${shown}`;
  if (short === "bare") return lit`${d.appName} · ${shown}${described(d)}`;
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

/** "3 deployments: 5b2da4 0.7.2 live, 9c1e07 0.8.0 canary, a0f3d2" */
export function severalTitle(deployments: readonly { label: string }[]): Safe {
  const labels = deployments.map((d) => safeBounded(d.label, 40));
  return lit`${deployments.length} deployments: ${labels.reduce((a, b) => lit`${a}, ${b}`)}`;
}

/** The title for `width` columns; `several` are the deployments when more than one is followed. */
export function dashboardTitle(
  heading: Heading,
  several: readonly { label: string }[],
  width: number,
): Safe {
  const prefix = lit`tvcwatch · ${safeBounded(heading.prefix ?? "", 200)}`;
  if (heading.kind === "named")
    return truncate(lit`${prefix}${safeBounded(heading.name, 500)}`, width);
  if (several.length > 1) return truncate(lit`${prefix}${severalTitle(several)}`, width);
  const full = lit`${prefix}${deploymentTitle(heading.deploymentId, heading.deployment)}`;
  if (widthOf(full) <= width) return full;
  const short = lit`${prefix}${deploymentTitle(heading.deploymentId, heading.deployment, true)}`;
  if (widthOf(short) <= width || !heading.deployment) return short;
  return truncate(
    lit`${prefix}${deploymentTitle(heading.deploymentId, heading.deployment, "bare")}`,
    width,
  );
}
