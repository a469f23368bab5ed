/**
 * The dashboard's log buffer: lines and gap markers in timestamp order, with a hard cap in lines
 * and in bytes (the oldest go first). Appends are O(1); late lines are merged in order, a batch at
 * a time (./sorted-insert.ts, shared with the merge hold-back). Readers use `subscribe` and
 * `getVersion` (for React's useSyncExternalStore) and `slice` or `at` to read only the rows they
 * show.
 *
 * Memory: a buffered line costs its event (see ./log-line.ts, shared with the follower) and one
 * slot in each of two arrays (the event, its id); rows are made when read. `npm run bench --
 * tail-memory` gives the bytes per line beyond its content.
 */

import type { Pattern } from "../../text/pattern.js";
import type { HeatmapOptions } from "../error-heatmap.js";
import type { IndexedEvents } from "../line-groups.js";
import type { WorkBudget } from "../work-budget.js";
import type { StoreEvent } from "./log-line.js";
import { insertSorted } from "./sorted-insert.js";

export interface StoredRow {
  /** Increasing with arrival, unique: a stable React key. */
  id: number;
  event: StoreEvent;
  bytes: number;
}

/**
 * What the dashboard reads of a log, in key order: this buffer of a live follow, or saved lines
 * read from files (src/logs/saved/saved-log.ts) behind `tvcwatch open`.
 */
export interface LogRows {
  /** The most lines held (what the status line says as the buffer's cap). */
  readonly maxLines: number;
  subscribe(listener: () => void): () => void;
  getVersion(): number;
  size(): number;
  /**
   * The rows held that count against maxLines: here every row; of saved lines, the files' lines
   * (the replicas' markers placed among them are not).
   */
  cappedSize(): number;
  /** Rows let go before the oldest held. */
  evicted(): number;
  /** Of the rows held, the side panes' events (absent: none). */
  eventCount?(): number;
  /** Rows [start, end), 0 = oldest held. */
  slice(start: number, end: number): StoredRow[];
  at(index: number): StoredRow | undefined;
  /** The index of the row with this id, or -1. */
  indexOfId(id: number): number;
  rowById(id: number): StoredRow | undefined;
  /** The index of the first row whose sort key is at least `key` (size() when none is). */
  firstAtOrAfter(key: number): number;
  /**
   * The indexes of the rows whose content (a marker's text) `pattern` matches, ascending, for a
   * log that finds them without decoding every row (saved lines: read from their bytes). Absent,
   * a search reads the rows. Within `budget`: undefined when it ran out first (the next call goes
   * on where this one stopped).
   */
  matching?(pattern: Pattern, budget?: WorkBudget): Uint32Array | undefined;
  /**
   * How far the search `matching` runs in slices for `pattern` has read: what it found so far;
   * undefined when none runs for it (not begun, or done).
   */
  searchProgress?(pattern: Pattern): SearchSoFar | undefined;
  /**
   * The rows as the error heatmap reads them, when the log can give them without decoding every
   * row (saved lines: from their index); absent, it reads `at`.
   */
  heatmapSource?(): { source: IndexedEvents; options: HeatmapOptions };
}

/** How far a search run in slices is: the matches found so far, the lines read, of how many. */
export interface SearchSoFar {
  found: number;
  read: number;
  lines: number;
}

export interface LogStoreOptions {
  maxLines?: number;
  maxBytes?: number;
}

const keyOfEvent = (event: StoreEvent) => event.sortKey;

/** What a row counts against the byte cap. */
function bytesOf(event: StoreEvent): number {
  return (
    (event.kind === "line"
      ? event.content.length + event.replicaLabel.length
      : event.kind === "gap"
        ? event.reason.length
        : event.text.length) + 48
  );
}

export class LogStore implements LogRows {
  private events: StoreEvent[] = [];
  private ids: number[] = [];
  private head = 0;
  private bytes = 0;
  private nextId = 1;
  private version = 0;
  private dropped = 0;
  private heldEvents = 0;
  private readonly listeners = new Set<() => void>();
  readonly maxLines: number;
  readonly maxBytes: number;

  constructor(options: LogStoreOptions = {}) {
    this.maxLines = options.maxLines ?? 100_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  size(): number {
    return this.events.length - this.head;
  }

  cappedSize(): number {
    return this.size();
  }

  byteSize(): number {
    return this.bytes;
  }

  /** Of the rows held, the side panes' events. */
  eventCount(): number {
    return this.heldEvents;
  }

  /** Rows evicted by the caps so far. */
  evicted(): number {
    return this.dropped;
  }

  /** Rows [start, end) in timestamp order, 0 = oldest held. */
  slice(start: number, end: number): StoredRow[] {
    const s = Math.max(0, start);
    const e = Math.min(this.size(), end);
    const rows: StoredRow[] = [];
    for (let i = s; i < e; i++) rows.push(this.row(this.head + i));
    return rows;
  }

  at(index: number): StoredRow | undefined {
    return index >= 0 && index < this.size() ? this.row(this.head + index) : undefined;
  }

  /** The index of the row with this id, or -1 (evicted, or never held). */
  indexOfId(id: number): number {
    const at = this.ids.indexOf(id, this.head);
    return at < 0 ? -1 : at - this.head;
  }

  /** The row with this id, while the buffer holds it. */
  rowById(id: number): StoredRow | undefined {
    return this.at(this.indexOfId(id));
  }

  /**
   * The index of the first row whose sort key is at least `key` (size() when none is): rows are
   * in key order, so this is a binary search.
   */
  firstAtOrAfter(key: number): number {
    let lo = 0;
    let hi = this.size();
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[this.head + mid] as StoreEvent).sortKey < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private row(i: number): StoredRow {
    const event = this.events[i] as StoreEvent;
    return { id: this.ids[i] as number, event, bytes: bytesOf(event) };
  }

  /** Adds events (one batch, one notification). */
  append(events: readonly StoreEvent[]): void {
    if (events.length === 0) return;
    const ids: number[] = new Array(events.length);
    for (let i = 0; i < events.length; i++) {
      ids[i] = this.nextId++;
      this.bytes += bytesOf(events[i] as StoreEvent);
      if ((events[i] as StoreEvent).kind === "event") this.heldEvents += 1;
    }
    // Late lines land after every row with a key <= their own, so equal keys keep arrival order.
    insertSorted(this.events, this.head, events, keyOfEvent, { rows: this.ids, batch: ids });
    while (this.size() > this.maxLines || (this.bytes > this.maxBytes && this.size() > 1)) {
      this.bytes -= bytesOf(this.events[this.head] as StoreEvent);
      if ((this.events[this.head] as StoreEvent).kind === "event") this.heldEvents -= 1;
      this.events[this.head] = undefined as unknown as StoreEvent;
      this.head += 1;
      this.dropped += 1;
    }
    if (this.head > 4096 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
    this.version += 1;
    for (const l of this.listeners) l();
  }

  clear(): void {
    this.events = [];
    this.ids = [];
    this.head = 0;
    this.bytes = 0;
    this.heldEvents = 0;
    this.version += 1;
    for (const l of this.listeners) l();
  }
}
