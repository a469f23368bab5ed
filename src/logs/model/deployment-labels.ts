/**
 * Labels for the deployments a follow merges: the shortest prefix of each id (at least
 * MIN_LABEL characters) that no other followed id shares, found in O(n log n) from sorted
 * neighbours (../text/unique-prefix.ts), then what Turnkey's records say the deployment is, when
 * they say it: its QOS version and whether it is its app's live deployment (`0c7e55 0.8.0
 * canary`, `9463b1 0.7.2 live`). A repeated id gets one label.
 */
import { uniquePrefixes } from "../../text/unique-prefix.js";

export const MIN_LABEL = 6;

/** The most characters of a version a label carries. */
const MAX_VERSION = 24;

/**
 * What a deployment is, as get_tvc_deployment and its app say: the QOS version it runs, and
 * `live` when it is its app's live deployment, `canary` when the app names another one live.
 */
export interface DeploymentDescription {
  version?: string | undefined;
  role?: "live" | "canary" | undefined;
  /** Its app, as received (what its app's status is asked by; not part of its label). */
  appId?: string | undefined;
}

export function shortLabels(ids: readonly string[]): Map<string, string> {
  return uniquePrefixes(ids, MIN_LABEL);
}

/** A version as a label shows it: one word, printable, bounded. */
function versionWord(version: string): string {
  const word = version.replaceAll(/[^\w.+-]+/g, "_").slice(0, MAX_VERSION);
  return word === "" ? "?" : word;
}

/** `0c7e55 0.8.0 canary`: the short label, then the version and the role known. */
export function describedLabel(short: string, d: DeploymentDescription | undefined): string {
  if (!d) return short;
  const parts = [short];
  if (d.version !== undefined) parts.push(versionWord(d.version));
  if (d.role !== undefined) parts.push(d.role);
  return parts.join(" ");
}
