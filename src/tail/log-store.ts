/**
 * The dashboard's log buffer: lines and gap markers in timestamp order, with a hard cap in lines
 * and in bytes (the oldest go first). Appends are O(1); a late line is inserted in order by a
 * binary search (it lands near the end). Readers use `subscribe` and `getVersion` (for React's
 * useSyncExternalStore) and `slice` to read only the rows they show.
 */
import type { LogEvent } from "./log-line.js";

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
    for (const event of events) {
      const bytes =
        (event.kind === "line"
          ? event.content.length + event.replicaLabel.length
          : event.reason.length) + 48;
      const row: StoredRow = { id: this.nextId++, event, bytes };
      const last = this.rows[this.rows.length - 1];
      if (this.size() === 0 || !last || last.event.sortKey <= event.sortKey) {
        this.rows.push(row);
      } else {
        // Late: after every row with a key <= its own, so equal keys keep arrival order.
        let lo = this.head;
        let hi = this.rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((this.rows[mid] as StoredRow).event.sortKey <= event.sortKey) lo = mid + 1;
          else hi = mid;
        }
        this.rows.splice(lo, 0, row);
      }
      this.bytes += bytes;
    }
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
