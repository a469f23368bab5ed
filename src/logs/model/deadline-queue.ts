/**
 * Items each due at a time, taken back soonest first: a binary min-heap on the due time. An item
 * may be put in more than once (each time its due time moves); whoever takes them judges an
 * entry again when it comes out, so an out-of-date entry costs one look, never a search.
 */
export class DeadlineQueue<T> {
  private due: number[] = [];
  private items: T[] = [];

  size(): number {
    return this.due.length;
  }

  push(at: number, item: T): void {
    const due = this.due;
    const items = this.items;
    let k = due.length;
    due.push(at);
    items.push(item);
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if ((due[parent] as number) <= at) break;
      due[k] = due[parent] as number;
      items[k] = items[parent] as T;
      k = parent;
    }
    due[k] = at;
    items[k] = item;
  }

  /** The soonest due time, or undefined when empty. */
  peek(): number | undefined {
    return this.due[0];
  }

  /** Takes the soonest item out; undefined when empty. */
  pop(): T | undefined {
    const due = this.due;
    const items = this.items;
    if (due.length === 0) return undefined;
    const top = items[0] as T;
    const lastDue = due.pop() as number;
    const lastItem = items.pop() as T;
    const n = due.length;
    if (n > 0) {
      let k = 0;
      for (;;) {
        const left = 2 * k + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && (due[right] as number) < (due[left] as number) ? right : left;
        if ((due[child] as number) >= lastDue) break;
        due[k] = due[child] as number;
        items[k] = items[child] as T;
        k = child;
      }
      due[k] = lastDue;
      items[k] = lastItem;
    }
    return top;
  }

  /** Starts again from `entries` alone (to let out-of-date entries go). */
  rebuild(entries: Iterable<[number, T]>): void {
    this.due = [];
    this.items = [];
    for (const [at, item] of entries) this.push(at, item);
  }
}
