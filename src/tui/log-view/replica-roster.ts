/**
 * The replicas the log has shown, kept up to date by looking only at lines appended since the
 * last look: which numbers the 1-9 keys can hide, and why a view is empty.
 */
import type { LogRows } from "../../logs/model/log-store.js";
import { replicaNumber } from "./log-view.js";

export class ReplicaRoster {
  private seen = 0;
  private readonly numbers = new Set<number>();

  /** Replica numbers (of `replica N/K` labels) in the store so far. */
  update(store: LogRows): ReadonlySet<number> {
    const total = store.evicted() + store.size();
    // Lines appended since the last look are the newest ones (a late line may land a little
    // earlier; looking at a few more than needed is harmless).
    const from = Math.max(0, Math.min(store.size(), store.size() - (total - this.seen)) - 64);
    for (let i = from; i < store.size(); i++) {
      const row = store.at(i);
      if (row?.event.kind !== "line") continue;
      const n = replicaNumber(row.event.replicaLabel);
      if (n !== undefined) this.numbers.add(n);
    }
    this.seen = total;
    return this.numbers;
  }
}
