/**
 * Lines of several deployments merged by timestamp: each deployment's follower hands on its lines
 * in order (after its own hold-back); they wait here until the server's clock, less `delayMs`, has
 * passed them, and go out in timestamp order across deployments. Sharing ./sorted-insert.ts.
 */
import { insertSorted } from "./sorted-insert.js";

export class CrossMerge<T extends { sortKey: number }> {
  private held: T[] = [];

  push(items: readonly T[]): void {
    insertSorted(this.held, 0, items, (x) => x.sortKey);
  }

  /** What is stamped at or before `upTo` (epoch ms, server clock), in order. */
  release(upTo: number): T[] {
    let n = 0;
    while (n < this.held.length && (this.held[n] as T).sortKey <= upTo) n++;
    return n === 0 ? [] : this.held.splice(0, n);
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
