/**
 * What each replica of a deployment is doing, from the lines themselves: counts of lines and
 * errors (in total and per interval, for the dashboard's sparkline), when it last sent, and its
 * lifecycle as markers for the log: a replica that joins, stops sending (silent for longer than
 * ten of its usual gaps, at least QUIET_FLOOR_MS, while others go on), comes back, and changes
 * of the replica count (`replica 2/3` becoming `replica 2/4`).
 *
 * Time is the lines' own (their sort keys): a quiet deployment raises no alarm, and the same
 * lines always give the same markers.
 */
import { levelOf } from "../text/log-level.js";
import type { LogEvent, ReplicaMarker } from "./log-line.js";

/** A replica is not called stopped before this much silence. */
export const QUIET_FLOOR_MS = 2_000;
/** Labels whose parts are remembered. */
const MAX_SPLITS = 1024;
/** Intervals of the sparkline kept per replica. */
export const SPARK_BUCKETS = 60;

/** What the sparkline strip and the replica list read: one deployment's replicas, or several. */
export interface ReplicaSnapshots {
  snapshot(buckets?: number): ReplicaStats[];
}

export interface ReplicaStats {
  label: string;
  lines: number;
  errors: number;
  /** Sort key (epoch ms) of its newest line. */
  lastMs: number;
  /** Lines and errors per interval, oldest first, ending at the newest interval of all. */
  buckets: readonly number[];
  errorBuckets: readonly number[];
  /** Silent for longer than its usual: stopped sending. */
  stopped: boolean;
}

interface Replica {
  /** Its label without the count: `replica 2`. */
  key: string;
  label: string;
  lines: number;
  errors: number;
  firstMs: number;
  lastMs: number;
  /** Smoothed gap between its lines, ms. */
  gapMs: number | undefined;
  stopped: boolean;
  /** Bucket number -> [lines, errors]. */
  counts: Map<number, [number, number]>;
}

const COUNT = /^(.*?\d+)\s*\/\s*(\d+)\s*$/;

function split(label: string): { key: string; count: number | undefined } {
  const m = COUNT.exec(label.slice(0, 200));
  return m ? { key: m[1] as string, count: Number(m[2]) } : { key: label, count: undefined };
}

const isError = (content: string) => {
  const level = levelOf(content);
  return level === "error" || level === "fatal";
};

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

export class ReplicaActivity {
  private readonly replicas = new Map<string, Replica>();
  private newestMs = Number.NEGATIVE_INFINITY;
  private count: number | undefined;
  private version = 0;
  private batches = 0;
  private readonly splits = new Map<string, { key: string; count: number | undefined }>();

  constructor(readonly bucketMs = 10_000) {}

  /**
   * Takes a batch of the follower's events; returns the markers they bring, to show in the log.
   * `errorAt` says whether the event at an index is an error (saved lines: read from their
   * index); by default, its content's level.
   */
  observe(
    events: readonly LogEvent[],
    errorAt: (index: number) => boolean = (i) => {
      const e = events[i];
      return e?.kind === "line" && isError(e.content);
    },
  ): ReplicaMarker[] {
    const markers: ReplicaMarker[] = [];
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as LogEvent;
      if (e.kind !== "line") continue;
      const { key, count } = this.splitOf(e.replicaLabel);
      if (count !== undefined && this.count !== undefined && count !== this.count) {
        markers.push({
          kind: "replica",
          replicaLabel: e.replicaLabel,
          text: `replicas: ${this.count} → ${count}`,
          // Just before the line it is about.
          sortKey: e.sortKey - 0.001,
        });
      }
      if (count !== undefined) this.count = count;
      let r = this.replicas.get(key);
      if (!r) {
        r = {
          key,
          label: e.replicaLabel,
          lines: 0,
          errors: 0,
          firstMs: e.sortKey,
          lastMs: e.sortKey,
          gapMs: undefined,
          stopped: false,
          counts: new Map(),
        };
        // The replicas of the first batch are the deployment as found, not joiners.
        if (this.batches > 0) {
          markers.push({
            kind: "replica",
            replicaLabel: e.replicaLabel,
            text: `${e.replicaLabel} joined`,
            // Just before the line it is about.
            sortKey: e.sortKey - 0.001,
          });
        }
        this.replicas.set(key, r);
      } else if (
        !r.stopped &&
        r.lines > 1 &&
        e.sortKey - r.lastMs > this.quietFor(r) &&
        this.newestMs - r.lastMs > this.quietFor(r)
      ) {
        // Silent and back within one batch (a backlog, or a slow poll): both said.
        markers.push(this.stoppedMarker(r));
        r.stopped = true;
      }
      if (r.stopped && e.sortKey > r.lastMs) {
        r.stopped = false;
        markers.push({
          kind: "replica",
          replicaLabel: e.replicaLabel,
          text: `${e.replicaLabel} back after ${seconds(e.sortKey - r.lastMs)} silent (restarted?)`,
          // Just before the line it is about.
          sortKey: e.sortKey - 0.001,
        });
      }
      if (e.sortKey > r.lastMs) {
        const gap = e.sortKey - r.lastMs;
        r.gapMs = r.gapMs === undefined ? gap : r.gapMs * 0.9 + gap * 0.1;
        r.lastMs = e.sortKey;
      }
      r.label = e.replicaLabel;
      r.lines += 1;
      const error = errorAt(i);
      if (error) r.errors += 1;
      const bucket = Math.floor(e.sortKey / this.bucketMs);
      const c = r.counts.get(bucket);
      if (c) {
        c[0] += 1;
        if (error) c[1] += 1;
      } else {
        r.counts.set(bucket, [1, error ? 1 : 0]);
      }
      if (e.sortKey > this.newestMs) this.newestMs = e.sortKey;
    }
    for (const r of this.replicas.values()) {
      if (!r.stopped && r.lines > 1 && this.newestMs - r.lastMs > this.quietFor(r)) {
        r.stopped = true;
        markers.push(this.stoppedMarker(r));
      }
      this.prune(r);
    }
    if (events.length > 0) {
      this.version += 1;
      this.batches += 1;
    }
    return markers;
  }

  /** A label read once: a deployment has a few, each on thousands of lines. */
  private splitOf(label: string): { key: string; count: number | undefined } {
    let parts = this.splits.get(label);
    if (!parts) {
      if (this.splits.size >= MAX_SPLITS) this.splits.clear();
      parts = split(label);
      this.splits.set(label, parts);
    }
    return parts;
  }

  /** Silence longer than this (ten of its usual gaps, at least QUIET_FLOOR_MS) is stopping. */
  private quietFor(r: Replica): number {
    return Math.max(QUIET_FLOOR_MS, 10 * (r.gapMs ?? QUIET_FLOOR_MS));
  }

  private stoppedMarker(r: Replica): ReplicaMarker {
    return {
      kind: "replica",
      replicaLabel: r.label,
      text: `${r.label} stopped sending (last line ${clock(r.lastMs)}Z)`,
      sortKey: r.lastMs + 0.001,
    };
  }

  private prune(r: Replica): void {
    if (r.counts.size <= SPARK_BUCKETS * 2) return;
    const oldest = Math.floor(this.newestMs / this.bucketMs) - SPARK_BUCKETS;
    for (const b of r.counts.keys()) if (b < oldest) r.counts.delete(b);
  }

  /** Changes with every batch observed (for React's useSyncExternalStore). */
  getVersion(): number {
    return this.version;
  }

  /** Each replica, in label order, with its last `buckets` intervals. */
  snapshot(buckets = SPARK_BUCKETS): ReplicaStats[] {
    const newest = Math.floor(this.newestMs / this.bucketMs);
    const n = Math.max(0, Math.min(SPARK_BUCKETS, buckets));
    return [...this.replicas.values()]
      .sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }))
      .map((r) => {
        const lines: number[] = [];
        const errors: number[] = [];
        for (let b = newest - n + 1; b <= newest; b++) {
          const c = r.counts.get(b);
          lines.push(c?.[0] ?? 0);
          errors.push(c?.[1] ?? 0);
        }
        return {
          label: r.label,
          lines: r.lines,
          errors: r.errors,
          lastMs: r.lastMs,
          buckets: lines,
          errorBuckets: errors,
          stopped: r.stopped,
        };
      });
  }
}
