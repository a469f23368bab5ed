/**
 * Short labels for the deployments a follow merges: the shortest prefix of each id (at least
 * MIN_LABEL characters) that no other followed id shares, found in O(n log n) from sorted
 * neighbours (../text/unique-prefix.ts). A repeated id gets one label.
 */
import { uniquePrefixes } from "../text/unique-prefix.js";

export const MIN_LABEL = 6;

export function shortLabels(ids: readonly string[]): Map<string, string> {
  return uniquePrefixes(ids, MIN_LABEL);
}
