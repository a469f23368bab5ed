import type { PaneEvent } from "./pane-event.js";

/** One log line as the follower emits it. */
export interface LogLine {
  kind: "line";
  replicaLabel: string;
  /**
   * The platform timestamp as received (undefined, both, when the line had none): its seconds as
   * text, one string for the lines of a second; its nanos as a number when they came as plain
   * digits (no leading zero), else as text. A buffered line holds no object and no string for its
   * time: `lineTimestamp` gives the {seconds, nanos} texts back, exactly as received.
   */
  seconds: string | undefined;
  nanos: number | string | undefined;
  /** Epoch milliseconds (fractional) for ordering: the line's own timestamp, or its neighbour's. */
  sortKey: number;
  content: string;
  /** True when the line is older than lines already emitted (it arrived late). */
  late: boolean;
  /** The deployment it came from, when a view merges several (its label is in replicaLabel). */
  deploymentId?: string | undefined;
}

interface TimeFields {
  seconds: string | undefined;
  nanos: number | string | undefined;
}

/** Whether a line came with a timestamp (its seconds and nanos are set together). */
export function isStamped<T extends TimeFields>(
  line: T,
): line is T & { seconds: string; nanos: number | string } {
  return line.seconds !== undefined && line.nanos !== undefined;
}

/** The {seconds, nanos} texts of a line's timestamp, exactly as received; undefined when it had none. */
export function lineTimestamp(line: TimeFields): { seconds: string; nanos: string } | undefined {
  return isStamped(line) ? { seconds: line.seconds, nanos: String(line.nanos) } : undefined;
}

/**
 * The sort key of a timestamp (epoch ms, fractional) from its seconds and nanos: the one formula
 * the de-duplicator orders lines by and the plain window (./wire/plain-window.ts) reproduces.
 */
export function timestampSortKey(seconds: number, nanos: number): number {
  return seconds * 1000 + nanos / 1e6;
}

/**
 * Nanos as a line keeps them: a number when `String` of it gives the text back (plain digits, no
 * leading zero, below 2^31 so it stays a small integer), else the text.
 */
export function packNanos(text: string): number | string {
  const len = text.length;
  if (len === 0 || len > 9 || (len > 1 && text.charCodeAt(0) === 48)) return text;
  let n = 0;
  for (let i = 0; i < len; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return text;
    n = n * 10 + d;
  }
  return n;
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

/**
 * A side pane's event (./pane-event.ts) among the dashboard's lines, at its time (the server's
 * clock): an activity created, a status changing, a vote, an email event, a Solana transfer, a
 * deployment's health changing. Shown while the events are on (`I`); `tail --events` prints them.
 */
export interface EventMarker {
  kind: "event";
  event: PaneEvent;
  /** The event's text (what search and the filters read). */
  text: string;
  sortKey: number;
  /** A deployment event's deployment (`d` shows it with that deployment's lines). */
  deploymentId?: string | undefined;
}

/** A pane event as a marker among the lines. */
export function eventMarker(event: PaneEvent): EventMarker {
  return {
    kind: "event",
    event,
    text: event.text,
    sortKey: event.at,
    deploymentId: event.kind === "deployment" ? event.fields.deploymentId : undefined,
  };
}

/** What the dashboard's log store holds. */
export type StoreEvent = LogEvent | ReplicaMarker | EventMarker;
