/**
 * What each replica of a deployment is doing, from the lines themselves: counts of lines and
 * errors (in total and per interval, for the dashboard's sparkline), when it last sent, and its
 * lifecycle as markers for the log: a replica that joins, stops sending (silent for longer than
 * ten of its usual gaps, at least QUIET_FLOOR_MS, while others go on), comes back, and changes
 * of the replica count (`replica 2/3` becoming `replica 2/4`).
 *
 * Time is the lines' own (their sort keys): a quiet deployment raises no alarm, and the same
 * lines always give the same markers.
 *
 * The work is linear in lines and replicas: a batch looks only at the replicas it brought lines
 * of, and at those whose silence became long enough (each is due at a time, in a DeadlineQueue);
 * a snapshot sorts only the replicas new since the last one and reuses the figures of a replica
 * that sent nothing since.
 */

import { levelOf } from "../../text/log-level.js";
import { DeadlineQueue } from "./deadline-queue.js";
import { IntervalCounts } from "./interval-counts.js";
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

/**
 * The same figures under another label (a replica of one of several deployments): its intervals
 * are still computed when read, as the original's are, never copied out by a spread (a spread of
 * the class below would drop its getters).
 */
export function relabelled(stats: ReplicaStats, label: string): ReplicaStats {
  return {
    label,
    lines: stats.lines,
    errors: stats.errors,
    lastMs: stats.lastMs,
    stopped: stats.stopped,
    get buckets() {
      return stats.buckets;
    },
    get errorBuckets() {
      return stats.errorBuckets;
    },
  };
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
  /** Its intervals with lines: bucket number, lines, errors, three numbers each (./interval-counts). */
  counts: IntervalCounts;
  /** Its key split for sorting: the text before a trailing number, and the number (NaN: none). */
  prefix: string;
  number: number;
  /** Its figures as the last snapshot made them, until it sends again or stops. */
  shown: { newest: number; buckets: number; stats: ReplicaStats } | undefined;
}

/**
 * A replica's figures, its intervals made when first read (the strip reads them for the few
 * replicas it draws; `i` and the roster read only the counts).
 */
class Figures implements ReplicaStats {
  readonly label: string;
  readonly lines: number;
  readonly errors: number;
  readonly lastMs: number;
  readonly stopped: boolean;
  private series: { lines: number[]; errors: number[] } | undefined;

  constructor(
    r: Replica,
    private readonly counts: IntervalCounts,
    private readonly newest: number,
    private readonly n: number,
  ) {
    this.label = r.label;
    this.lines = r.lines;
    this.errors = r.errors;
    this.lastMs = r.lastMs;
    this.stopped = r.stopped;
  }

  get buckets(): readonly number[] {
    return this.intervals().lines;
  }

  get errorBuckets(): readonly number[] {
    return this.intervals().errors;
  }

  private intervals(): { lines: number[]; errors: number[] } {
    if (!this.series) {
      const lines: number[] = new Array(this.n).fill(0);
      const errors: number[] = new Array(this.n).fill(0);
      const first = this.newest - this.n + 1;
      this.counts.forEach((b, l, e) => {
        const k = b - first;
        if (k < 0 || k >= this.n) return;
        lines[k] = l;
        errors[k] = e;
      });
      this.series = { lines, errors };
    }
    return this.series;
  }
}

/**
 * Replica keys in reading order: `replica 2` before `replica 10`, others as text. Made when first
 * needed: a collator loads ICU's collation data (megabytes of the runtime's image read into
 * memory), which the common case below does without.
 */
let collator: Intl.Collator | undefined;

function byKey(a: Replica, b: Replica): number {
  // The common case (one prefix, numbered replicas) without the collator.
  if (a.prefix === b.prefix && a.number !== b.number && !Number.isNaN(a.number + b.number))
    return a.number - b.number;
  collator ??= new Intl.Collator("en", { numeric: true });
  return collator.compare(a.key, b.key);
}

/** `replica 12` as ["replica ", 12]; a key without a trailing number as [key, NaN]. */
function splitNumber(key: string): { prefix: string; number: number } {
  let k = key.length;
  while (k > 0 && key.charCodeAt(k - 1) >= 48 && key.charCodeAt(k - 1) <= 57) k--;
  if (k === key.length || key.length - k > 15) return { prefix: key, number: Number.NaN };
  return { prefix: key.slice(0, k), number: Number(key.slice(k)) };
}

const COUNT = /^(.*?\d+)\s*\/\s*(\d+)\s*$/;

/** A label's parts, and the replica its key names once one was met. */
interface LabelParts {
  key: string;
  count: number | undefined;
  replica: Replica | undefined;
}

function split(label: string): LabelParts {
  const m = COUNT.exec(label.slice(0, 200));
  return m
    ? { key: m[1] as string, count: Number(m[2]), replica: undefined }
    : { key: label, count: undefined, replica: undefined };
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
  private readonly splits = new Map<string, LabelParts>();
  /** When each replica's silence becomes long enough to call it stopped. */
  private readonly due = new DeadlineQueue<Replica>();
  /** Replicas in key order as of the last snapshot, and those seen since. */
  private ordered: Replica[] = [];
  private fresh: Replica[] = [];
  private shown: { version: number; buckets: number; stats: ReplicaStats[] } | undefined;

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
    const touched = new Set<Replica>();
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as LogEvent;
      if (e.kind !== "line") continue;
      this.take(e.replicaLabel, e.sortKey, errorAt(i), markers, touched);
    }
    this.finish(events.length, markers, touched);
    return markers;
  }

  /**
   * The same as `observe` over `n` lines given as columns (saved lines read from their index):
   * line i's replica label `labels[i]`, its sort key `keys[i]`, and whether it is an error
   * (`errors[i]` not 0); no event is made of them.
   */
  observeRows(
    n: number,
    labels: readonly string[],
    keys: ArrayLike<number>,
    errors: ArrayLike<number>,
  ): ReplicaMarker[] {
    const markers: ReplicaMarker[] = [];
    const touched = new Set<Replica>();
    for (let i = 0; i < n; i++)
      this.take(labels[i] as string, keys[i] as number, errors[i] !== 0, markers, touched);
    this.finish(n, markers, touched);
    return markers;
  }

  /** One line of a batch: its replica's counts, and the markers it brings. */
  private take(
    replicaLabel: string,
    sortKey: number,
    error: boolean,
    markers: ReplicaMarker[],
    touched: Set<Replica>,
  ): void {
    const parts = this.splitOf(replicaLabel);
    const { key, count } = parts;
    if (count !== undefined && this.count !== undefined && count !== this.count) {
      markers.push({
        kind: "replica",
        replicaLabel,
        text: `replicas: ${this.count} → ${count}`,
        // Just before the line it is about.
        sortKey: sortKey - 0.001,
      });
    }
    if (count !== undefined) this.count = count;
    // Replicas are never let go: the one a label's key named stays its replica.
    let r = parts.replica ?? this.replicas.get(key);
    if (!r) {
      r = {
        key,
        label: replicaLabel,
        lines: 0,
        errors: 0,
        firstMs: sortKey,
        lastMs: sortKey,
        gapMs: undefined,
        stopped: false,
        counts: new IntervalCounts(),
        ...splitNumber(key),
        shown: undefined,
      };
      this.fresh.push(r);
      // The replicas of the first batch are the deployment as found, not joiners.
      if (this.batches > 0) {
        markers.push({
          kind: "replica",
          replicaLabel,
          text: `${replicaLabel} joined`,
          // Just before the line it is about.
          sortKey: sortKey - 0.001,
        });
      }
      this.replicas.set(key, r);
    } else if (
      !r.stopped &&
      r.lines > 1 &&
      sortKey - r.lastMs > this.quietFor(r) &&
      this.newestMs - r.lastMs > this.quietFor(r)
    ) {
      // Silent and back within one batch (a backlog, or a slow poll): both said.
      markers.push(this.stoppedMarker(r));
      r.stopped = true;
    }
    parts.replica = r;
    if (r.stopped && sortKey > r.lastMs) {
      r.stopped = false;
      markers.push({
        kind: "replica",
        replicaLabel,
        text: `${replicaLabel} back after ${seconds(sortKey - r.lastMs)} silent (restarted?)`,
        // Just before the line it is about.
        sortKey: sortKey - 0.001,
      });
    }
    if (sortKey > r.lastMs) {
      const gap = sortKey - r.lastMs;
      r.gapMs = r.gapMs === undefined ? gap : r.gapMs * 0.9 + gap * 0.1;
      r.lastMs = sortKey;
    }
    r.label = replicaLabel;
    r.lines += 1;
    r.shown = undefined;
    touched.add(r);
    if (error) r.errors += 1;
    r.counts.add(Math.floor(sortKey / this.bucketMs), error);
    if (sortKey > this.newestMs) this.newestMs = sortKey;
  }

  /** After a batch of `n` events: the replicas it touched due to be judged, the silent stopped. */
  private finish(n: number, markers: ReplicaMarker[], touched: Set<Replica>): void {
    for (const r of touched) {
      if (!r.stopped && r.lines > 1) this.due.push(r.lastMs + this.quietFor(r), r);
      this.prune(r);
    }
    this.stopSilent(markers);
    if (n > 0) {
      this.version += 1;
      this.batches += 1;
    }
  }

  /**
   * Calls stopped each replica silent for longer than its usual while others went on: those
   * whose due time the newest line passed (an entry out of date, the replica having sent since,
   * is judged again and let go).
   */
  private stopSilent(markers: ReplicaMarker[]): void {
    for (let at = this.due.peek(); at !== undefined && at < this.newestMs; at = this.due.peek()) {
      const r = this.due.pop() as Replica;
      if (!r.stopped && r.lines > 1 && this.newestMs - r.lastMs > this.quietFor(r)) {
        r.stopped = true;
        r.shown = undefined;
        markers.push(this.stoppedMarker(r));
      }
    }
    // Out-of-date entries let go now and then: one entry a replica still sending.
    if (this.due.size() > 2 * this.replicas.size + 1024) {
      const live: [number, Replica][] = [];
      for (const r of this.replicas.values())
        if (!r.stopped && r.lines > 1) live.push([r.lastMs + this.quietFor(r), r]);
      this.due.rebuild(live);
    }
  }

  /** A label read once: a deployment has a few, each on thousands of lines. */
  private splitOf(label: string): LabelParts {
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
    if (r.counts.size() <= SPARK_BUCKETS * 2) return;
    r.counts.dropBefore(Math.floor(this.newestMs / this.bucketMs) - SPARK_BUCKETS);
  }

  /** Changes with every batch observed (for React's useSyncExternalStore). */
  getVersion(): number {
    return this.version;
  }

  /** Each replica, in label order, with its last `buckets` intervals. */
  snapshot(buckets = SPARK_BUCKETS): ReplicaStats[] {
    const n = Math.max(0, Math.min(SPARK_BUCKETS, buckets));
    if (this.shown?.version === this.version && this.shown.buckets === n) return this.shown.stats;
    const newest = Math.floor(this.newestMs / this.bucketMs);
    const stats = this.inOrder().map((r) => {
      if (r.shown?.newest === newest && r.shown.buckets === n) return r.shown.stats;
      const s = new Figures(r, r.counts, newest, n);
      r.shown = { newest, buckets: n, stats: s };
      return s;
    });
    this.shown = { version: this.version, buckets: n, stats };
    return stats;
  }

  /** The replicas in key order: those new since the last time sorted and merged in. */
  private inOrder(): Replica[] {
    if (this.fresh.length === 0) return this.ordered;
    const fresh = this.fresh.sort(byKey);
    const old = this.ordered;
    const merged: Replica[] = new Array(old.length + fresh.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++) {
      const take =
        j >= fresh.length || (i < old.length && byKey(old[i] as Replica, fresh[j] as Replica) <= 0);
      merged[k] = take ? (old[i++] as Replica) : (fresh[j++] as Replica);
    }
    this.ordered = merged;
    this.fresh = [];
    return merged;
  }
}
