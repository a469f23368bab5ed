/**
 * React keys from ids a server chose: `<occurrence>:<id>`, unique even when a response repeats an
 * id (the occurrence has no colon, so two different pairs never give the same key).
 */
export function keyMaker(): (id: string) => string {
  const seen = new Map<string, number>();
  return (id) => {
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return `${n}:${id}`;
  };
}
