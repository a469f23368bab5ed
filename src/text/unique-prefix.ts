/**
 * The shortest prefix of each id that no other id of the list shares, at least `min` characters
 * (the whole id when it is shorter, or when it is itself the start of another id): short enough
 * to fit a narrow column, long enough to tell the rows apart. Sorted, each id only needs to be
 * compared with its neighbours. The map keeps the ids' order.
 */
export function uniquePrefixes(ids: readonly string[], min: number): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const common = (a: string | undefined, b: string) => {
    if (a === undefined) return 0;
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  const lengths = new Map<string, number>();
  sorted.forEach((id, i) => {
    const shared = Math.max(common(sorted[i - 1], id), common(sorted[i + 1], id));
    lengths.set(id, Math.min(id.length, Math.max(min, shared + 1)));
  });
  // In the order the ids came.
  return new Map(ids.map((id) => [id, id.slice(0, lengths.get(id))]));
}
