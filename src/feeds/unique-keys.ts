/**
 * Lists built from what a server sent, for the screen: each item once even when a response
 * repeats it (shown once, marked with how many times it came), and React keys that are unique
 * whatever the ids are.
 */
import { lit, type Safe } from "../text/safe-text.js";

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

/** Each item once by its id, in the order of first appearance, with how many times it came. */
export function onceEach<T>(
  items: readonly T[],
  idOf: (item: T) => string,
): { item: T; times: number }[] {
  const byId = new Map<string, { item: T; times: number }>();
  for (const item of items) {
    const id = idOf(item);
    const seen = byId.get(id);
    if (seen) seen.times += 1;
    else byId.set(id, { item, times: 1 });
  }
  return [...byId.values()];
}

/** The mark of an item the server sent more than once (`×2`), or nothing. */
export function repeatMark(times: number): Safe | undefined {
  return times > 1 ? lit`×${times}` : undefined;
}
