/** One log line as the follower emits it. */
export interface LogLine {
  kind: "line";
  replicaLabel: string;
  /** Seconds and nanos of the platform timestamp, as received; undefined when the line had none. */
  ts: { seconds: string; nanos: string } | undefined;
  /** Epoch milliseconds (fractional) for ordering: the line's own timestamp, or its neighbour's. */
  sortKey: number;
  content: string;
  /** True when the line is older than lines already emitted (it arrived late). */
  late: boolean;
  /** The deployment it came from, when a view merges several (its label is in replicaLabel). */
  deploymentId?: string | undefined;
}

/** A stretch of time whose lines could not all be fetched. */
export interface GapMarker {
  kind: "gap";
  /** Server epoch ms. */
  from: number;
  to: number;
  reason: string;
  sortKey: number;
}

export type LogEvent = LogLine | GapMarker;

/**
 * A replica's lifecycle in the dashboard's log (./replica-activity.ts): it joined, stopped
 * sending, came back, or the replica count changed. Never printed by `tail`.
 */
export interface ReplicaMarker {
  kind: "replica";
  replicaLabel: string;
  text: string;
  sortKey: number;
  deploymentId?: string | undefined;
}

/** What the dashboard's log store holds. */
export type StoreEvent = LogEvent | ReplicaMarker;
