/**
 * Saved lines as the dashboard reads a live log: a SavedLog (./saved-log.ts) with each replica's
 * lifecycle markers among its lines (joined, stopped sending, back, the replica count changing)
 * and each replica's counts and sparkline, both made by src/logs/model/replica-activity.ts from the
 * lines in order, as a live follow makes them. Read from the index (each line's time, level and
 * stream) and the stream table (each stream's label as shown), never by decoding a line (but one
 * of a stream past the table's end); the replica numbers (what 1-9 can hide) come from those
 * labels too. Linear in lines and replicas.
 *
 * Lines that come after (a stream followed, a file growing, the rest of a large file indexed) are
 * observed as they come; when the order changed before what was observed (a late line, a
 * rebuild), everything is observed again. Lines that come after it was made are observed in
 * slices, a batch at least and a frame's share of time at most each (../work-budget.ts), the
 * next one later, so that keys, q and signals are answered however many lines and replicas come
 * at once; the markers they bring are placed once all of them are observed.
 */

import type { LogLevel } from "../../text/log-level.js";
import type { Pattern } from "../../text/pattern.js";
import type { HeatmapOptions } from "../error-heatmap.js";
import type { IndexedEvents } from "../line-groups.js";
import type { LogLine, ReplicaMarker, StoreEvent } from "../model/log-line.js";
import type { LogRows, SearchSoFar, StoredRow } from "../model/log-store.js";
import {
  ReplicaActivity,
  type ReplicaSnapshots,
  type ReplicaStats,
} from "../model/replica-activity.js";
import { replicaNumber } from "../replicas.js";
import { SLICE_MS, WorkBudget } from "../work-budget.js";
import { IS_GAP, LEVEL_MASK } from "./line-index.js";
import { levelCode, levelOfCode } from "./saved-line.js";
import { type SavedLog, SEARCH_STEP_LINES } from "./saved-log.js";
import { NO_STREAM, OVERFLOW_STREAM } from "./stream-table.js";

/** Rows observed in one batch. */
const BATCH = 8192;
/** The index's level codes of the levels that count as errors. */
const ERROR_CODE = levelCode("error");
const FATAL_CODE = levelCode("fatal");

export interface MarkedLogOptions {
  /** One slice's budget (default: SLICE_MS of the clock). */
  budget?: () => WorkBudget;
  /** Runs the next slice later (default: after the events waiting, setImmediate); a canceller. */
  later?: (run: () => void) => () => void;
}

/** A batch's rows read from the index's columns, and the lines of them with a replica. */
interface Batch {
  keys: Float64Array;
  flags: Uint8Array;
  streams: Uint32Array;
  labels: string[];
  lineKeys: Float64Array;
  errors: Uint8Array;
}

function newBatch(): Batch {
  return {
    keys: new Float64Array(BATCH),
    flags: new Uint8Array(BATCH),
    streams: new Uint32Array(BATCH),
    labels: [],
    lineKeys: new Float64Array(BATCH),
    errors: new Uint8Array(BATCH),
  };
}

/**
 * The most slices of one catch-up that wait for a search reading between them (each search
 * slice is a frame's share of time: a search over ten million lines takes a few hundred).
 */
const SEARCH_FIRST_SLICES = 1000;

function afterEvents(run: () => void): () => void {
  const id = setImmediate(run);
  return () => clearImmediate(id);
}

export class MarkedLog implements LogRows, ReplicaSnapshots {
  readonly maxLines: number;
  private activity = new ReplicaActivity();
  private markers: ReplicaMarker[] = [];
  /** Where each marker goes: before this row of the saved log. */
  private places = new Int32Array(0);
  /** Rows of the saved log observed, and the id of the last of them. */
  private observed = 0;
  private lastId: number | undefined;
  private labels = new Map<number, string>();
  private numbers = new Set<number>();
  private version = 0;
  /** The last search's rows, by the version and the pattern. */
  private found: { key: string; rows: Uint32Array } | undefined;
  /**
   * A search of the saved rows still reading, continued by the next call for the same pattern
   * while the saved log's rows are the same (markers placed meanwhile do not start it again);
   * then its rows, kept to be merged again with markers placed later.
   */
  private running:
    | { key: string; steps: ReturnType<SavedLog["searchInSteps"]>; pattern: Pattern }
    | undefined;
  private savedFound: { key: string; rows: Uint32Array } | undefined;
  /** Markers of rows observed in slices not yet all done: placed once they are. */
  private unplaced: ReplicaMarker[] = [];
  /**
   * While a catch-up goes on in slices, the replicas as first read during it (by the buckets
   * asked for), so that reading them does not count every replica again at each frame.
   */
  private frozen: Map<number | undefined, ReplicaStats[]> | undefined;
  /** One batch's rows, filled again for each batch (observeRows keeps none of it). */
  private batch: Batch | undefined;
  /** Cancels the next slice, while one is to come. */
  private nextSlice: (() => void) | undefined;
  /** A search of the saved rows read since the last slice of observing (which then waits). */
  private searched = false;
  /** Slices of this catch-up that waited for a search (at most SEARCH_FIRST_SLICES). */
  private waited = 0;
  private readonly listeners = new Set<() => void>();
  private readonly detach: () => void;
  private readonly budget: () => WorkBudget;
  private readonly later: (run: () => void) => () => void;

  constructor(
    readonly log: SavedLog,
    options: MarkedLogOptions = {},
  ) {
    this.maxLines = log.maxLines;
    this.budget = options.budget ?? (() => WorkBudget.of(SLICE_MS));
    this.later = options.later ?? afterEvents;
    // What is read when it is made (the end of a large file, a small file) is observed at once.
    this.catchUp(WorkBudget.unlimited());
    this.detach = log.subscribe(() => this.observeSlice());
  }

  close(): void {
    this.detach();
    this.nextSlice?.();
    this.nextSlice = undefined;
  }

  /**
   * One slice of observing; the next one later while rows are left. Listeners are told when the
   * log changed (its rows are new) and when every row is observed, not between; the replicas
   * they read meanwhile are counted once (see frozen). A search someone waits for goes first:
   * while one reads between slices, a slice observes nothing and the next one comes later, up to
   * SEARCH_FIRST_SLICES slices of a catch-up (a search started again and again, over a file
   * still growing, does not hold it back for ever).
   */
  private readonly observeSlice = (changed = true): void => {
    this.nextSlice?.();
    this.nextSlice = undefined;
    this.frozen ??= new Map();
    const waits = this.searched && this.waited < SEARCH_FIRST_SLICES;
    this.searched = false;
    if (waits) this.waited++;
    const done = !waits && this.catchUp(this.budget());
    if (done) {
      this.frozen = undefined;
      this.waited = 0;
    } else this.nextSlice = this.later(() => this.observeSlice(false));
    if (!changed && !done) return;
    this.version += 1;
    for (const l of this.listeners) l();
  };

  // -------------------------------------------------------------------------------------------
  // Observing the lines

  /**
   * Observes the rows not observed yet, a batch at least, within `budget`; true once every row
   * is and the markers are placed.
   */
  private catchUp(budget: WorkBudget): boolean {
    const log = this.log;
    const size = log.size();
    const same =
      this.observed === 0 ||
      (this.observed <= size && log.at(this.observed - 1)?.id === this.lastId);
    if (!same) {
      this.activity = new ReplicaActivity();
      this.markers = [];
      this.unplaced = [];
      this.places = new Int32Array(0);
      this.labels = new Map();
      this.numbers = new Set();
      this.observed = 0;
    }
    this.batch ??= newBatch();
    const { keys, flags, streams, labels, lineKeys, errors } = this.batch;
    let from = this.observed;
    for (; from < size && (from === this.observed || budget.allows(BATCH)); from += BATCH) {
      const to = Math.min(size, from + BATCH);
      log.rowColumns(from, to, keys, flags, streams);
      let n = 0;
      for (let k = 0; k < to - from; k++) {
        const f = flags[k] as number;
        if ((f & IS_GAP) !== 0) continue;
        const label = this.labelOf(streams[k] as number, from + k);
        if (label === undefined) continue;
        labels[n] = label;
        lineKeys[n] = keys[k] as number;
        const level = f & LEVEL_MASK;
        errors[n] = level === ERROR_CODE || level === FATAL_CODE ? 1 : 0;
        n++;
      }
      for (const m of this.activity.observeRows(n, labels, lineKeys, errors)) this.unplaced.push(m);
    }
    this.observed = Math.min(from, size);
    this.lastId = this.observed > 0 ? log.at(this.observed - 1)?.id : undefined;
    if (this.observed < size) return false;
    this.place();
    return true;
  }

  /**
   * The replica label the lines of `stream` are shown with (row `row` one of them, not a gap);
   * undefined for a line without a replica.
   */
  private labelOf(stream: number, row: number): string | undefined {
    if (stream === NO_STREAM) return undefined;
    let label = this.labels.get(stream);
    if (label === undefined) {
      if (stream === OVERFLOW_STREAM) {
        // Past the stream table: the line says it.
        const event = this.log.at(row)?.event;
        label = event?.kind === "line" ? event.replicaLabel : "";
      } else {
        label = this.log.streamLabel(stream) ?? "";
        this.labels.set(stream, label);
      }
      const n = replicaNumber(label);
      // Added in place: the dashboard reads the numbers again at each version of the log.
      if (n !== undefined) this.numbers.add(n);
    }
    return label === "" ? undefined : label;
  }

  /** Each marker before the first saved row not older than it, in order. */
  private place(): void {
    for (const m of this.unplaced) this.markers.push(m);
    this.unplaced = [];
    this.markers.sort((a, b) => a.sortKey - b.sortKey);
    this.places = Int32Array.from(this.markers, (m) => this.log.firstAtOrAfter(m.sortKey));
  }

  /** Markers placed before saved row `row` (at or before it, `inclusive`). */
  private markersBefore(row: number, inclusive: boolean): number {
    let lo = 0;
    let hi = this.places.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.places[mid] as number;
      if (p < row || (inclusive && p === row)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The replica numbers (of `replica N/K` labels) among the lines: what 1-9 can hide. */
  replicaNumbers(): ReadonlySet<number> {
    return this.numbers;
  }

  // -------------------------------------------------------------------------------------------
  // ReplicaSnapshots

  snapshot(buckets?: number) {
    if (this.frozen === undefined) return this.activity.snapshot(buckets);
    let stats = this.frozen.get(buckets);
    if (stats === undefined) {
      stats = this.activity.snapshot(buckets);
      this.frozen.set(buckets, stats);
    }
    return stats;
  }

  // -------------------------------------------------------------------------------------------
  // LogRows: the saved rows with the markers among them

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  size(): number {
    return this.log.size() + this.markers.length;
  }

  cappedSize(): number {
    return this.log.size();
  }

  evicted(): number {
    return this.log.evicted();
  }

  /** Row `index` of the merged rows: a saved row, or a marker (its id negative). */
  at(index: number): StoredRow | undefined {
    if (index < 0 || index >= this.size()) return undefined;
    // The saved row r is at r + (markers placed at or before r); find the first r reaching index.
    let lo = 0;
    let hi = this.log.size();
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (mid + this.markersBefore(mid, true) < index) lo = mid + 1;
      else hi = mid;
    }
    if (lo < this.log.size() && lo + this.markersBefore(lo, true) === index) return this.log.at(lo);
    // A marker: the ones placed at `lo` come just before it.
    const m = index - lo;
    const marker = this.markers[m];
    return marker && { id: -(m + 1), event: marker, bytes: marker.text.length };
  }

  slice(start: number, end: number): StoredRow[] {
    const rows: StoredRow[] = [];
    for (let i = Math.max(0, start); i < Math.min(this.size(), end); i++)
      rows.push(this.at(i) as StoredRow);
    return rows;
  }

  indexOfId(id: number): number {
    if (id < 0) {
      const m = -id - 1;
      const place = this.places[m];
      if (place === undefined) return -1;
      return place + m;
    }
    const row = this.log.indexOfId(id);
    return row < 0 ? -1 : row + this.markersBefore(row, true);
  }

  rowById(id: number): StoredRow | undefined {
    return this.at(this.indexOfId(id));
  }

  /**
   * The saved rows the search finds (./saved-log.ts), and the markers, as merged indexes; read
   * within `budget` (none: at once): undefined when it ran out first, the search kept where it
   * stopped for the next call.
   */
  matching(pattern: Pattern, budget?: WorkBudget): Uint32Array | undefined {
    const key = `${this.version}\u0000${pattern.key}`;
    if (this.found?.key === key) return this.found.rows;
    const savedKey = this.savedKey(pattern);
    let saved = this.savedFound?.key === savedKey ? this.savedFound.rows : undefined;
    if (saved === undefined) {
      if (this.running?.key !== savedKey) {
        this.running = { key: savedKey, steps: this.log.searchInSteps(pattern), pattern };
      }
      const { steps } = this.running;
      this.searched = true;
      for (;;) {
        if (budget && !budget.allows(SEARCH_STEP_LINES)) return undefined;
        if (steps.step()) break;
      }
      this.running = undefined;
      saved = steps.result().rows;
      this.savedFound = { key: savedKey, rows: saved };
    }
    const rows: number[] = [];
    let m = 0;
    const markerRows = (upTo: number) => {
      // Markers placed at or before saved row `upTo`, in order.
      for (; m < this.markers.length && (this.places[m] as number) <= upTo; m++) {
        if (pattern.test((this.markers[m] as ReplicaMarker).text))
          rows.push((this.places[m] as number) + m);
      }
    };
    for (const row of saved) {
      markerRows(row);
      rows.push(row + m);
    }
    markerRows(Number.POSITIVE_INFINITY);
    const found = Uint32Array.from(rows);
    this.found = { key, rows: found };
    return found;
  }

  searchProgress(pattern: Pattern): SearchSoFar | undefined {
    return this.running?.key === this.savedKey(pattern) ? this.running.steps.sofar() : undefined;
  }

  /** What a search of the saved rows is kept by: their version and the pattern. */
  private savedKey(pattern: Pattern): string {
    return `${this.log.getVersion()}\u0000${pattern.key}`;
  }

  /**
   * The rows as the error heatmap (`H`, `!`: ../error-heatmap.ts) reads them, made from the index
   * without decoding a line: each line's replica label and deployment (the stream table's), its
   * key and its level (the index's, the filters' reading); its content is decoded only when read
   * (the onset's errors). A marker is itself. The same heatmap as over `at`, in a fraction of the
   * work.
   */
  heatmapSource(): { source: IndexedEvents; options: HeatmapOptions } {
    const log = this.log;
    const at = (index: number): { event: StoreEvent } | undefined => {
      if (index < 0 || index >= this.size()) return undefined;
      // Markers before this index: the first marker at or after it (their indexes ascend).
      let lo = 0;
      let hi = this.places.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((this.places[mid] as number) + mid < index) lo = mid + 1;
        else hi = mid;
      }
      if (lo < this.places.length && (this.places[lo] as number) + lo === index)
        return { event: this.markers[lo] as ReplicaMarker };
      const row = index - lo;
      const flags = log.flagsAt(row);
      const stream = log.streamAt(row);
      if ((flags & IS_GAP) !== 0 || stream === OVERFLOW_STREAM) return log.at(row);
      const s = stream === NO_STREAM ? undefined : log.streams.get(stream);
      return {
        event: new IndexedLine(
          log.streamLabel(stream) ?? "",
          s?.deploymentId,
          log.keyAt(row) ?? 0,
          levelOfCode(flags & LEVEL_MASK),
          () => (log.at(row)?.event as LogLine | undefined)?.content ?? "",
        ),
      };
    };
    return {
      source: { size: () => this.size(), at },
      options: {
        levelOfLine: (line) =>
          line instanceof IndexedLine ? line.level : this.log.levelOfLine(line),
      },
    };
  }

  firstAtOrAfter(key: number): number {
    const row = this.log.firstAtOrAfter(key);
    return row + this.markersBefore(row, false);
  }
}

/** A line as the index knows it (MarkedLog.heatmapSource): its content read when asked. */
class IndexedLine implements LogLine {
  readonly kind = "line";
  readonly seconds = undefined;
  readonly nanos = undefined;
  readonly late = false;
  private read: string | undefined;

  constructor(
    readonly replicaLabel: string,
    readonly deploymentId: string | undefined,
    readonly sortKey: number,
    readonly level: LogLevel | undefined,
    private readonly decode: () => string,
  ) {}

  get content(): string {
    this.read ??= this.decode();
    return this.read;
  }
}
