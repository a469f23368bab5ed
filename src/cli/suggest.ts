/** Edit distance between two short strings (operation names, command names). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + cost);
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** The candidates closest to `input`: substring matches and names within a few edits. */
export function closeMatches(input: string, candidates: readonly string[], max = 3): string[] {
  const needle = input.toLowerCase();
  return candidates
    .map((c) => ({ c, d: c.includes(needle) || needle.includes(c) ? 0 : editDistance(needle, c) }))
    .filter(({ d }) => d <= Math.max(2, Math.floor(needle.length / 3)))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, max)
    .map(({ c }) => c);
}
