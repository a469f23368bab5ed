/**
 * The one sorted insert of the follower's buffers (the merge hold-back, ./merge-buffer.ts, and
 * the dashboard's log store, ./log-store.ts): a batch of rows goes into an array kept in key
 * order, each after every row whose key is <= its own, so equal keys keep arrival order.
 *
 * Lines nearly always come in order and after what is held: then the batch is appended. Otherwise
 * (late lines, a response listed backwards) the batch is sorted once and merged from the back, so
 * only the rows after the earliest new key move, once: a batch of k rows costs O(k log k) plus the
 * rows it lands before, never a shift of the whole array per row.
 */
export function insertSorted<T, C = never>(
  rows: T[],
  from: number,
  batch: readonly T[],
  keyOf: (row: T) => number,
  /** An array kept parallel to `rows`, and the batch's values for it: moved the same way. */
  companion?: { rows: C[]; batch: readonly C[] },
): void {
  const k = batch.length;
  if (k === 0) return;
  let sorted = true;
  for (let j = 1; j < k && sorted; j++) sorted = keyOf(batch[j - 1] as T) <= keyOf(batch[j] as T);
  const n = rows.length;
  if (sorted && (n === from || keyOf(rows[n - 1] as T) <= keyOf(batch[0] as T))) {
    for (let j = 0; j < k; j++) rows.push(batch[j] as T);
    if (companion) for (let j = 0; j < k; j++) companion.rows.push(companion.batch[j] as C);
    return;
  }
  let order: number[] | undefined;
  if (!sorted) {
    order = Array.from({ length: k }, (_, j) => j);
    const keys = batch.map(keyOf);
    order.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
  }
  const c = companion?.rows;
  rows.length = n + k;
  if (c) c.length = n + k;
  let i = n - 1;
  let w = n + k - 1;
  for (let j = k - 1; j >= 0; w--) {
    const p = order ? (order[j] as number) : j;
    const item = batch[p] as T;
    if (i >= from && keyOf(rows[i] as T) > keyOf(item)) {
      rows[w] = rows[i] as T;
      if (c) c[w] = c[i] as C;
      i--;
    } else {
      rows[w] = item;
      if (c) c[w] = companion?.batch[p] as C;
      j--;
    }
  }
}
