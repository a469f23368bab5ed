/**
 * One replica's lines and errors per interval, for its sparkline: a flat list of (interval,
 * lines, errors), newest last when lines come in order (then a line costs one look at the end),
 * instead of a Map a replica (a log of 200,000 replicas holds 200,000 of these).
 */
export class IntervalCounts {
  private cells: number[] = [];

  /** Intervals with lines. */
  size(): number {
    return this.cells.length / 3;
  }

  /** A line in interval `bucket`, an error or not. */
  add(bucket: number, error: boolean): void {
    const c = this.cells;
    const e = error ? 1 : 0;
    const last = c.length - 3;
    if (last < 0 || bucket > (c[last] as number)) {
      c.push(bucket, 1, e);
      return;
    }
    for (let k = last; k >= 0; k -= 3) {
      if (c[k] === bucket) {
        c[k + 1] = (c[k + 1] as number) + 1;
        c[k + 2] = (c[k + 2] as number) + e;
        return;
      }
    }
    // An interval before the newest, not yet counted (a late line): in order.
    let at = 0;
    while (at < c.length && (c[at] as number) < bucket) at += 3;
    c.splice(at, 0, bucket, 1, e);
  }

  /** Lets the intervals before `bucket` go. */
  dropBefore(bucket: number): void {
    const c = this.cells;
    let k = 0;
    while (k < c.length && (c[k] as number) < bucket) k += 3;
    if (k > 0) c.splice(0, k);
  }

  forEach(visit: (bucket: number, lines: number, errors: number) => void): void {
    const c = this.cells;
    for (let k = 0; k < c.length; k += 3)
      visit(c[k] as number, c[k + 1] as number, c[k + 2] as number);
  }
}
