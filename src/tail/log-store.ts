/**
 * The dashboard's log buffer: lines and gap markers in timestamp order, with a hard cap in lines
 * and in bytes (the oldest go first). Appends are O(1); late lines are merged in order, a batch
 * at a time (./sorted-insert.ts, shared with the merge hold-back). Readers use `subscribe` and `getVersion` (for React's
 * useSyncExternalStore) and `slice` to read only the rows they show.
 */
import type { LogEvent } from "./log-line.js";
import { insertSorted } from "./sorted-insert.js";

export interface StoredRow {
  /** Increasing with arrival, unique: a stable React key. */
  id: number;
  event: LogEvent;
  bytes: number;
}

export interface LogStoreOptions {
  maxLines?: number;
  maxBytes?: number;
}

const keyOfRow = (row: StoredRow) => row.event.sortKey;

export class LogStore {
  private rows: StoredRow[] = [];
  private head = 0;
  private bytes = 0;
  private nextId = 1;
  private version = 0;
  private dropped = 0;
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
    return this.rows.length - this.head;
  }

  byteSize(): number {
    return this.bytes;
  }

  /** Rows evicted by the caps so far. */
  evicted(): number {
    return this.dropped;
  }

  /** Rows [start, end) in timestamp order, 0 = oldest held. */
  slice(start: number, end: number): StoredRow[] {
    const s = Math.max(0, start);
    const e = Math.min(this.size(), end);
    return e <= s ? [] : this.rows.slice(this.head + s, this.head + e);
  }

  at(index: number): StoredRow | undefined {
    return this.rows[this.head + index];
  }

  /** Adds events (one batch, one notification). */
  append(events: readonly LogEvent[]): void {
    if (events.length === 0) return;
    const batch: StoredRow[] = new Array(events.length);
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as LogEvent;
      const bytes =
        (event.kind === "line"
          ? event.content.length + event.replicaLabel.length
          : event.reason.length) + 48;
      batch[i] = { id: this.nextId++, event, bytes };
      this.bytes += bytes;
    }
    // Late lines land after every row with a key <= their own, so equal keys keep arrival order.
    insertSorted(this.rows, this.head, batch, keyOfRow);
    while (this.size() > this.maxLines || (this.bytes > this.maxBytes && this.size() > 1)) {
      const old = this.rows[this.head] as StoredRow;
      this.bytes -= old.bytes;
      this.rows[this.head] = undefined as unknown as StoredRow;
      this.head += 1;
      this.dropped += 1;
    }
    if (this.head > 4096 && this.head * 2 > this.rows.length) {
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
    this.version += 1;
    for (const l of this.listeners) l();
  }

  clear(): void {
    this.rows = [];
    this.head = 0;
    this.bytes = 0;
    this.version += 1;
    for (const l of this.listeners) l();
  }
}
