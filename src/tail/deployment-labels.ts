/**
 * Short labels for the deployments a follow merges: the shortest prefix of each id (at least
 * MIN_LABEL characters) that no other followed id shares. In O(n log n) comparisons: sorted, the
 * ids that share the longest prefix with an id are its neighbours, so its label is one character
 * longer than the longest prefix it shares with either of them (the whole id at most).
 */
export const MIN_LABEL = 6;

/** The length of the common prefix of `a` and `b`. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Each id's label, in the order the ids were given (a repeated id once). */
export function shortLabels(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  const sorted = [...unique].sort();
  const lengths = new Map<string, number>();
  let before = 0;
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i] as string;
    const next = sorted[i + 1];
    const after = next === undefined ? 0 : commonPrefix(id, next);
    lengths.set(id, Math.min(id.length, Math.max(MIN_LABEL, Math.max(before, after) + 1)));
    before = after;
  }
  return new Map(unique.map((id) => [id, id.slice(0, lengths.get(id))]));
}
