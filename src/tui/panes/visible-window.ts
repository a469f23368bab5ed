/** The rows of a list to show in `rows` lines so that the selected one is on screen. */
export function visibleWindow<T>(
  items: readonly T[],
  selected: number,
  rows: number,
): { first: number; items: readonly T[] } {
  if (rows <= 0) return { first: 0, items: [] };
  const first = Math.max(0, Math.min(selected - rows + 1, items.length - rows));
  const start = Math.max(0, Math.min(first, selected));
  return { first: start, items: items.slice(start, start + rows) };
}
