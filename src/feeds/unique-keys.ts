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

/**
 * Each item once by its identity, an id plus what the record is (`contentOf`): items under one id
 * with the same content are one item sent again (counted in `times`); items under one id whose
 * contents differ are each kept, in order of first appearance, with how many different ones
 * the id had (`variants`, 1 when the id is not contested).
 */
export function onceEachRecord<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  contentOf: (item: T) => string,
): { item: T; times: number; variants: number }[] {
  const byId = new Map<string, Map<string, { item: T; times: number; variants: number }>>();
  const order: { item: T; times: number; variants: number }[] = [];
  for (const item of items) {
    const id = idOf(item);
    let records = byId.get(id);
    if (!records) {
      records = new Map();
      byId.set(id, records);
    }
    const content = contentOf(item);
    const seen = records.get(content);
    if (seen) {
      seen.times += 1;
      continue;
    }
    const record = { item, times: 1, variants: 1 };
    records.set(content, record);
    order.push(record);
    for (const r of records.values()) r.variants = records.size;
  }
  return order;
}

/** The mark of an item the server sent more than once (`×2`), or nothing. */
export function repeatMark(times: number): Safe | undefined {
  return times > 1 ? lit`×${times}` : undefined;
}
