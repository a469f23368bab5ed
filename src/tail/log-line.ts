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
