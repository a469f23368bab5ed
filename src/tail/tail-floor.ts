/**
 * `--tail N`: the first response holds the last N lines of each replica. A replica that sent all N
 * may have older lines not shown: that is said with a gap marker, and nothing older than its
 * oldest line shown is printed later (a later window reaching further back would otherwise print
 * lines from before the gap).
 */
import type { DebugLogEntry } from "../api/schemas.js";
import type { GapMarker } from "../logs/model/log-line.js";

export class TailFloor {
  /** Per replica: lines older than this were cut by a full tailLines response. */
  private readonly floors = new Map<string, number>();

  /**
   * The first response's new lines (`indexes` into `entries`, with their sort keys): sets each
   * full replica's floor, and returns the gap to report, if any. `serverNow` and `sinceMs` place
   * its start.
   */
  cut(
    entries: readonly DebugLogEntry[],
    indexes: readonly number[],
    keys: Float64Array,
    tailLines: number,
    serverNow: number,
    sinceMs: number | undefined,
  ): GapMarker | undefined {
    const perReplica = new Map<string, { count: number; oldest: number }>();
    for (const i of indexes) {
      const label = (entries[i] as DebugLogEntry).replicaLabel;
      const r = perReplica.get(label) ?? { count: 0, oldest: Number.POSITIVE_INFINITY };
      r.count += 1;
      r.oldest = Math.min(r.oldest, keys[i] as number);
      perReplica.set(label, r);
    }
    let earliestCut = Number.POSITIVE_INFINITY;
    for (const [label, r] of perReplica) {
      if (r.count >= tailLines) {
        this.floors.set(label, r.oldest);
        earliestCut = Math.min(earliestCut, r.oldest);
      }
    }
    if (!Number.isFinite(earliestCut)) return undefined;
    const from = sinceMs ? serverNow - sinceMs : serverNow - 3_600_000;
    return {
      kind: "gap",
      from: Math.min(from, earliestCut),
      to: earliestCut,
      reason: `earlier lines not shown: the last ${tailLines} lines of each replica were asked for`,
      sortKey: earliestCut - 1e-6,
    };
  }

  /** Whether any replica has a floor. */
  active(): boolean {
    return this.floors.size > 0;
  }

  /** Whether a later line of `replicaLabel` at `sortKey` is shown. */
  keeps(replicaLabel: string, sortKey: number): boolean {
    const floor = this.floors.get(replicaLabel);
    return floor === undefined || sortKey >= floor;
  }
}
