/**
 * Short labels for the deployments a follow merges: the shortest prefix of each id (at least
 * MIN_LABEL characters) that no other followed id shares.
 */
export const MIN_LABEL = 6;

export function shortLabels(ids: readonly string[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const id of ids) {
    let n = Math.min(MIN_LABEL, id.length);
    while (n < id.length && ids.some((o) => o !== id && o.startsWith(id.slice(0, n)))) n++;
    labels.set(id, id.slice(0, n));
  }
  return labels;
}
