/**
 * Lines of several deployments merged by timestamp: each deployment's follower hands on its lines
 * in order (after its own hold-back); they wait here until the server's clock, less `delayMs`, has
 * passed them, and go out in timestamp order across deployments. Sharing ./sorted-insert.ts.
 */
import { insertSorted } from "../logs/model/sorted-insert.js";

export class CrossMerge<T extends { sortKey: number }> {
  private held: T[] = [];

  push(items: readonly T[]): void {
    insertSorted(this.held, 0, items, (x) => x.sortKey);
  }

  /**
   * What is stamped at or before `upTo` (epoch ms, server clock), in order; and what is stamped
   * after `aheadOf` (ahead of the server's clock: waiting for it would hold a line stamped a year
   * ahead for a year), after it.
   */
  release(upTo: number, aheadOf = Number.POSITIVE_INFINITY): T[] {
    let n = 0;
    while (n < this.held.length && (this.held[n] as T).sortKey <= upTo) n++;
    let ahead = this.held.length;
    while (ahead > n && (this.held[ahead - 1] as T).sortKey > aheadOf) ahead--;
    const later = ahead < this.held.length ? this.held.splice(ahead) : [];
    const now = n === 0 ? [] : this.held.splice(0, n);
    return later.length === 0 ? now : now.concat(later);
  }

  /** Everything held, in order (the follow is ending). */
  drain(): T[] {
    const all = this.held;
    this.held = [];
    return all;
  }

  size(): number {
    return this.held.length;
  }
}
