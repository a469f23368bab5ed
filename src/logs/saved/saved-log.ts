/**
 * Saved logs read as one log: the lines of every file (./saved-file.ts) merged by their keys, as
 * the dashboard's LogStore holds a live one, and read the same way (`size`, `at`, `slice`,
 * `indexOfId`, `firstAtOrAfter`, `subscribe`/`getVersion`, `evicted`) so that what shows a live
 * log shows a saved one unchanged. Within a file, lines keep their order unless one came late
 * (then that file is sorted, stably); across files, equal keys keep the files' order.
 *
 * Nothing is held per line but the index's columns and one 8-byte reference a row: a row is
 * decoded from its bytes when read (the last EVENT_CACHE rows read keep their event, so a row
 * read twice is the same object). A row's id is stable across everything that changes the
 * order: its file and the byte it starts at.
 *
 * Beyond the LogStore's reads: each row's level and stream from the index (no decoding), the time
 * range, the header of a saved view, and `search` over the content of every line.
 */

import type { LogLevel } from "../../text/log-level.js";
import type { Pattern } from "../../text/pattern.js";
import { textLine } from "../formats/plain-line.js";
import { filteredLevel } from "../line-filter.js";
import { MIN_LABEL, shortLabels } from "../model/deployment-labels.js";
import type { GapMarker, LogLine, StoreEvent } from "../model/log-line.js";
import type { SearchSoFar, StoredRow } from "../model/log-store.js";
import { BytePrefilter } from "./byte-prefilter.js";
import { HeldBytes, READ_BYTES } from "./byte-source.js";
import { checkHeader, type HeaderCheck } from "./header-claim.js";
import { JsonLineWalker } from "./json-line-walker.js";
import { ESCAPED, IS_GAP, LATE, LEVEL_MASK, NO_SPAN, TIMED, UNREADABLE } from "./line-index.js";
import type { SavedFile } from "./saved-file.js";
import type { SavedHeader } from "./saved-header.js";
import { decodeLine, levelOfCode, lineContent, spanContent } from "./saved-line.js";
import { NO_STREAM, OVERFLOW_STREAM, StreamTable } from "./stream-table.js";

/** A row's file, times this, plus its line number: the order's references. */
const FILE_STRIDE = 2 ** 32;
/** A row's file, times this, plus its first byte, plus one: its id. */
const ID_STRIDE = 2 ** 40;
/** Rows whose events are kept after being read (two generations of this many). */
const EVENT_CACHE = 8192;
/** What one step of a search reads of a file: one read into the file's buffer. */
const SEARCH_PIECE_BYTES = READ_BYTES;
/** The same, when only the lines a literal may match are tested (their bytes searched at once). */
const PREFILTERED_PIECE_BYTES = 1024 * 1024;
/** The most lines one step of a search tests (a slice stops between steps). */
export const SEARCH_STEP_LINES = 256;
/** More inserts than this (or this share of the rows) in one update: the order is made again. */
const MAX_INSERTS = 2048;
/** The order of a log whose rows are one file's lines as they are. */
const NO_ORDER = new Float64Array(0);

export interface SavedFileSummary {
  name: string;
  /** The other names it was given (the same file): it was read once. */
  aliases: readonly string[];
  /**
   * Which of the files its name named while followed this is ("before it was replaced", "the
   * new file by that name"); undefined when it named one.
   */
  about: string | undefined;
  format: string | undefined;
  lines: number;
  unreadable: number;
  /** Lines longer than a line's cap, kept as their first bytes (counted in `unreadable` too). */
  cut: number;
  /** Bytes of those lines past the cap: never read. */
  passedOver: number;
  /** Bytes of a stream held now (0 for a file, read by position). */
  heldBytes: number;
  /** Lines let go by the caps. */
  dropped: number;
  /** False while only the file's end is indexed. */
  complete: boolean;
  /** Read to its end: a stream that ended, a file not (or no longer) followed. */
  done: boolean;
  indexedBytes: number;
  totalBytes: number;
}

export interface SavedSummary {
  files: SavedFileSummary[];
  /** Rows: lines and gaps. */
  lines: number;
  unreadable: number;
  /** The oldest and newest time of a line (epoch ms), when any line has one. */
  from: number | undefined;
  to: number | undefined;
  complete: boolean;
  notes: string[];
}

export interface SearchResult {
  /** The rows whose content matched, oldest first. */
  rows: Uint32Array;
  /** The version of the log the rows are of. */
  version: number;
}

export interface SearchSteps {
  step(): boolean;
  result(): SearchResult;
  sofar(): SearchSoFar;
}

interface SearchProgress {
  read: number;
}

interface Synced {
  index: unknown;
  first: number;
  next: number;
  revision: number;
}

export class SavedLog {
  readonly files: SavedFile[] = [];
  readonly streams = new StreamTable();
  /** The most lines a file keeps (what the dashboard says as the buffer's cap). */
  readonly maxLines: number;
  private order = new Float64Array(1024);
  /**
   * At least 0 while the order is one file's lines as they are (one file, its lines in key
   * order): row r is its line `identityFirst + r`, and `order` holds nothing.
   */
  private identityFirst = -1;
  private rows = 0;
  private synced: Synced[] = [];
  private version = 0;
  private evictedRows = 0;
  private readonly listeners = new Set<() => void>();
  private inverse: Int32Array[] | undefined;
  private cache = new Map<number, StoreEvent>();
  private older = new Map<number, StoreEvent>();
  private readonly levels = new WeakMap<LogLine, number>();
  /** Walks NDJSON lines read again (search). */
  private readonly walker = new JsonLineWalker();
  private labels: Map<string, string> | undefined;
  private deploymentCount = 0;
  /** The last header check, by the version and whether its file was read to its end. */
  private checked:
    | { key: string; check: HeaderCheck & { file: string; sofar: boolean } }
    | undefined;
  /** Files read to their end, as of the last update: one more is news even without lines. */
  private doneFiles = 0;

  constructor(maxLines = Number.POSITIVE_INFINITY) {
    this.maxLines = maxLines;
  }

  add(file: SavedFile): void {
    this.files.push(file);
    this.synced.push({ index: undefined, first: 0, next: 0, revision: -1 });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  size(): number {
    return this.rows;
  }

  evicted(): number {
    return this.evictedRows;
  }

  // -------------------------------------------------------------------------------------------
  // Keeping the order

  /**
   * Brings the order up to what the files have indexed; tells the listeners when it changed, or
   * when a file came to its end (a stream that ended: what it said is to be said, and it is no
   * longer followed).
   */
  update(): void {
    const done = this.files.reduce((n, f) => n + (f.done ? 1 : 0), 0);
    const ended = done !== this.doneFiles;
    this.doneFiles = done;
    let rebuild = false;
    const added: number[] = [];
    for (let f = 0; f < this.files.length; f++) {
      const file = this.files[f] as SavedFile;
      const index = file.index;
      const sync = this.synced[f] as Synced;
      if (sync.index !== index || index.first() > sync.first || file.revision !== sync.revision) {
        rebuild = true;
        continue;
      }
      for (let n = sync.next; n < index.next(); n++) added.push(f * FILE_STRIDE + n);
    }
    const deployments = this.streams.deployments();
    if (deployments.length !== this.deploymentCount) {
      this.deploymentCount = deployments.length;
      this.labels = deployments.length >= 2 ? shortLabels(deployments) : undefined;
      this.forgetEvents();
    }
    if (rebuild) this.rebuild();
    else if (added.length > 0) this.insert(added);
    else {
      if (ended) for (const l of this.listeners) l();
      return;
    }
    for (let f = 0; f < this.files.length; f++) {
      const file = this.files[f] as SavedFile;
      this.synced[f] = {
        index: file.index,
        first: file.index.first(),
        next: file.index.next(),
        revision: file.revision,
      };
    }
    this.inverse = undefined;
    this.version += 1;
    for (const l of this.listeners) l();
  }

  private keyOf(ref: number): number {
    const f = Math.floor(ref / FILE_STRIDE);
    return (this.files[f] as SavedFile).index.key(ref - f * FILE_STRIDE);
  }

  /** The reference of the line at `row` (0 ≤ row < rows). */
  private refAt(row: number): number {
    return this.identityFirst >= 0 ? this.identityFirst + row : (this.order[row] as number);
  }

  /** The order kept as references (it is no longer one sorted file's lines as they are). */
  private materialize(): void {
    if (this.identityFirst < 0) return;
    const order = new Float64Array(Math.max(1024, Math.ceil(this.rows * 1.1)));
    for (let r = 0; r < this.rows; r++) order[r] = this.identityFirst + r;
    this.order = order;
    this.identityFirst = -1;
  }

  private ensure(capacity: number): void {
    if (capacity <= this.order.length) return;
    const grown = new Float64Array(Math.max(capacity, Math.ceil(this.order.length * 1.5)));
    grown.set(this.order.subarray(0, this.rows));
    this.order = grown;
  }

  /** New lines after the order's end when not older than it, else where their key goes. */
  private insert(added: number[]): void {
    let inserts = 0;
    let k = 0;
    if (this.identityFirst >= 0 && this.files.length === 1) {
      // The one file's next lines, in order: the order stays its lines as they are.
      for (; k < added.length; k++) {
        const ref = added[k] as number;
        if (ref !== this.identityFirst + this.rows) break;
        if (this.rows > 0 && this.keyOf(ref) < this.keyOf(ref - 1)) break;
        this.rows++;
      }
      if (k === added.length) return;
    }
    this.materialize();
    this.ensure(this.rows + added.length - k);
    for (; k < added.length; k++) {
      const ref = added[k] as number;
      const key = this.keyOf(ref);
      if (this.rows === 0 || key >= this.keyOf(this.order[this.rows - 1] as number)) {
        this.order[this.rows++] = ref;
        continue;
      }
      if (++inserts > MAX_INSERTS) {
        this.rebuild();
        return;
      }
      let lo = 0;
      let hi = this.rows;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.keyOf(this.order[mid] as number) <= key) lo = mid + 1;
        else hi = mid;
      }
      this.order.copyWithin(lo + 1, lo, this.rows);
      this.order[lo] = ref;
      this.rows++;
    }
  }

  /** Every file's lines in key order (a file sorted stably when needed), merged. */
  private rebuild(): void {
    const runs = this.files.map((file, f) => {
      const index = file.index;
      const first = index.first();
      const count = index.size();
      let seq: Uint32Array | undefined;
      if (!file.sorted) {
        seq = new Uint32Array(count);
        for (let k = 0; k < count; k++) seq[k] = k;
        const keys = new Float64Array(count);
        for (let k = 0; k < count; k++) keys[k] = index.key(first + k);
        seq.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
      }
      return { f, first, count, seq, at: 0 };
    });
    let total = 0;
    for (const r of runs) total += r.count;
    const refAt = (r: (typeof runs)[number]) =>
      r.f * FILE_STRIDE + r.first + (r.seq ? (r.seq[r.at] as number) : r.at);
    const one = runs.length === 1 ? (runs[0] as (typeof runs)[number]) : undefined;
    // One file in order: its lines as they are, no reference kept a row.
    const identity = one !== undefined && one.seq === undefined;
    const order = identity ? NO_ORDER : new Float64Array(Math.max(1024, Math.ceil(total * 1.1)));
    if (one) {
      if (!identity) for (; one.at < one.count; one.at++) order[one.at] = refAt(one);
    } else {
      const heads = runs.map((r) => (r.count > 0 ? this.keyOf(refAt(r)) : Number.NaN));
      for (let k = 0; k < total; k++) {
        let best = -1;
        let bestKey = Number.POSITIVE_INFINITY;
        for (let j = 0; j < runs.length; j++) {
          const key = heads[j] as number;
          if (!Number.isNaN(key) && (best < 0 || key < bestKey)) {
            best = j;
            bestKey = key;
          }
        }
        const r = runs[best] as (typeof runs)[number];
        order[k] = refAt(r);
        r.at++;
        heads[best] = r.at < r.count ? this.keyOf(refAt(r)) : Number.NaN;
      }
    }
    this.order = order;
    this.identityFirst = identity ? (one as (typeof runs)[number]).first : -1;
    this.rows = total;
    // Lines let go by the caps, as the LogStore counts its evictions.
    this.evictedRows = this.files.reduce((n, f) => n + f.index.first(), 0);
    this.forgetEvents();
  }

  // -------------------------------------------------------------------------------------------
  // Reading rows

  private fileOf(row: number): { file: SavedFile; f: number; number: number } | undefined {
    if (row < 0 || row >= this.rows) return undefined;
    const ref = this.refAt(row);
    const f = Math.floor(ref / FILE_STRIDE);
    return { file: this.files[f] as SavedFile, f, number: ref - f * FILE_STRIDE };
  }

  /** The row at `index` (0 = oldest), decoded from its bytes. */
  at(index: number): StoredRow | undefined {
    const where = this.fileOf(index);
    if (!where) return undefined;
    const { file, f, number } = where;
    const id = f * ID_STRIDE + file.index.start(number) + 1;
    let event = this.cache.get(id) ?? this.older.get(id);
    if (!event) {
      event = this.decode(file, number);
      if (this.cache.size >= EVENT_CACHE) {
        this.older = this.cache;
        this.cache = new Map();
      }
    }
    this.cache.set(id, event);
    return { id, event, bytes: file.index.length(number) };
  }

  slice(start: number, end: number): StoredRow[] {
    const rows: StoredRow[] = [];
    for (let i = Math.max(0, start); i < Math.min(this.rows, end); i++)
      rows.push(this.at(i) as StoredRow);
    return rows;
  }

  private decode(file: SavedFile, number: number): StoreEvent {
    const flags = file.index.flags(number);
    const key = file.index.key(number);
    const text = file.holds(number) ? file.text(number) : "";
    const read = decodeLine(text, file.format ?? "plain", (flags & UNREADABLE) !== 0);
    if (read.kind === "gap") return { ...read.gap, sortKey: key } satisfies GapMarker;
    const line = read.kind === "line" ? read.line : textLine(text);
    line.sortKey = key;
    line.late = (flags & LATE) !== 0;
    if (line.deploymentId !== undefined)
      line.replicaLabel = this.shownLabel(line.replicaLabel, line.deploymentId);
    this.levels.set(line, flags & LEVEL_MASK);
    return line;
  }

  /** A replica's label as shown: after its deployment's short label when several are read. */
  private shownLabel(label: string, deploymentId: string): string {
    const short = this.labels?.get(deploymentId);
    return short !== undefined && !prefixedBy(label, deploymentId) ? `${short} ${label}` : label;
  }

  /**
   * The replica label the lines of a stream (./stream-table.ts) are shown with, as decoding one
   * of them gives it, without decoding: undefined for no stream, or one past the table's end
   * (OVERFLOW_STREAM: read the line).
   */
  streamLabel(stream: number): string | undefined {
    if (stream === NO_STREAM || stream === OVERFLOW_STREAM) return undefined;
    const s = this.streams.get(stream);
    if (!s) return undefined;
    return s.deploymentId === undefined
      ? s.replicaLabel
      : this.shownLabel(s.replicaLabel, s.deploymentId);
  }

  private forgetEvents(): void {
    this.cache = new Map();
    this.older = new Map();
  }

  /** The row of every line of a file (built when asked, until the order changes). */
  private rowsOf(): Int32Array[] {
    if (this.inverse) return this.inverse;
    const inverse = this.files.map((file) => new Int32Array(file.index.size()).fill(-1));
    for (let row = 0; row < this.rows; row++) {
      const ref = this.refAt(row);
      const f = Math.floor(ref / FILE_STRIDE);
      const index = (this.files[f] as SavedFile).index;
      (inverse[f] as Int32Array)[ref - f * FILE_STRIDE - index.first()] = row;
    }
    this.inverse = inverse;
    return inverse;
  }

  /**
   * The rows of the lines as the order is now: the row of line `number` of file `f`, or -1. While
   * the order is one file's lines as they are, worked out (no row of every line built).
   */
  private rowFinder(): (f: number, number: number) => number {
    if (this.identityFirst >= 0) {
      const first = this.identityFirst;
      const rows = this.rows;
      return (f, number) => {
        const row = number - first;
        return f === 0 && row >= 0 && row < rows ? row : -1;
      };
    }
    const inverse = this.rowsOf();
    return (f, number) =>
      (inverse[f] as Int32Array)[number - (this.files[f] as SavedFile).index.first()] ?? -1;
  }

  /** The index of the row with this id, or -1. */
  indexOfId(id: number): number {
    const f = Math.floor((id - 1) / ID_STRIDE);
    const file = this.files[f];
    if (!file) return -1;
    const number = file.index.numberAt(id - 1 - f * ID_STRIDE);
    if (number < 0) return -1;
    return this.rowFinder()(f, number);
  }

  rowById(id: number): StoredRow | undefined {
    return this.at(this.indexOfId(id));
  }

  /** The first row whose key is at least `key` (size() when none is). */
  firstAtOrAfter(key: number): number {
    let lo = 0;
    let hi = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keyOf(this.refAt(mid)) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // -------------------------------------------------------------------------------------------
  // What the index says without decoding

  /** The row's sort key (epoch ms). */
  keyAt(row: number): number | undefined {
    if (row < 0 || row >= this.rows) return undefined;
    return this.keyOf(this.refAt(row));
  }

  /** The index's flags of the row's line (./line-index.ts: level, gap, timed, …); 0 for none. */
  flagsAt(row: number): number {
    if (row < 0 || row >= this.rows) return 0;
    const ref = this.refAt(row);
    const f = Math.floor(ref / FILE_STRIDE);
    return (this.files[f] as SavedFile).index.flags(ref - f * FILE_STRIDE);
  }

  /** The level read in the row's line (undefined: none stated, or a gap). */
  levelAt(row: number): LogLevel | undefined {
    if (row < 0 || row >= this.rows) return undefined;
    return levelOfCode(this.flagsAt(row) & LEVEL_MASK);
  }

  /** Whether the row is a gap, a line with a time of its own, a line kept as text, late. */
  kindAt(row: number): { gap: boolean; timed: boolean; unreadable: boolean; late: boolean } {
    const flags = this.flagsAt(row);
    return {
      gap: (flags & IS_GAP) !== 0,
      timed: (flags & TIMED) !== 0,
      unreadable: (flags & UNREADABLE) !== 0,
      late: (flags & LATE) !== 0,
    };
  }

  /**
   * The sort key, index flags and stream of rows [from, to) (within the rows) into `keys`,
   * `flags` and `streams` from their slot 0: what keyAt, flagsAt and streamAt say of each, read
   * at once (a sorted file's rows as its columns are).
   */
  rowColumns(
    from: number,
    to: number,
    keys: Float64Array,
    flags: Uint8Array,
    streams: Uint32Array,
  ): void {
    if (this.identityFirst >= 0) {
      (this.files[0] as SavedFile).index.copyRows(
        this.identityFirst + from,
        to - from,
        keys,
        flags,
        streams,
      );
      return;
    }
    for (let row = from; row < to; row++) {
      const ref = this.order[row] as number;
      const f = Math.floor(ref / FILE_STRIDE);
      const index = (this.files[f] as SavedFile).index;
      const n = ref - f * FILE_STRIDE;
      keys[row - from] = index.key(n);
      flags[row - from] = index.flags(n);
      streams[row - from] = index.stream(n);
    }
  }

  /** The row's stream (./stream-table.ts), from the index. */
  streamAt(row: number): number {
    if (row < 0 || row >= this.rows) return 0;
    const ref = this.refAt(row);
    const f = Math.floor(ref / FILE_STRIDE);
    return (this.files[f] as SavedFile).index.stream(ref - f * FILE_STRIDE);
  }

  /**
   * The level of a line read from this log, from the index (the reading the filters make, made
   * once); any other line's as the filters read it. For LineFilterSpec.levelOfLine.
   */
  levelOfLine = (line: LogLine): LogLevel | undefined => {
    const code = this.levels.get(line);
    return code === undefined ? filteredLevel(line) : levelOfCode(code);
  };

  /** The header of the first file that has one (a saved view): its filters, its deployment. */
  header(): SavedHeader | undefined {
    for (const f of this.files) if (f.header) return f.header;
    return undefined;
  }

  /**
   * The header's claims checked against the lines of its file (./header-claim.ts), once that
   * file is indexed whole (a stream: once it ended); `sofar` while a followed file may grow.
   * Undefined without a header, or before.
   */
  headerCheck(): (HeaderCheck & { file: string; sofar: boolean }) | undefined {
    const file = this.files.find((f) => f.header);
    const header = file?.header;
    const read = file?.read;
    if (!file || !header || !read || file.state !== "complete") return undefined;
    if (file.source instanceof HeldBytes && !file.done) return undefined;
    const key = `${this.version}\u0000${file.done}`;
    if (this.checked?.key !== key)
      this.checked = {
        key,
        check: { ...checkHeader(header, read, this.streams), file: file.name, sofar: !file.done },
      };
    return this.checked.check;
  }

  summary(): SavedSummary {
    let from: number | undefined;
    let to: number | undefined;
    for (const f of this.files) {
      const r = f.timeRange();
      if (r === undefined) continue;
      from = from === undefined ? r.from : Math.min(from, r.from);
      to = to === undefined ? r.to : Math.max(to, r.to);
    }
    return {
      files: this.files.map((f) => {
        const p = f.progress();
        return {
          name: f.name,
          aliases: f.aliases,
          about: f.about,
          format: f.format,
          lines: f.index.size(),
          unreadable: f.unreadable,
          cut: f.unread.cut,
          passedOver: f.unread.passedOver,
          heldBytes: f.heldBytes,
          dropped: f.index.first() - f.forgottenLines,
          complete: f.state === "complete",
          done: f.done,
          indexedBytes: p.indexed,
          totalBytes: p.total,
        };
      }),
      lines: this.rows,
      unreadable: this.files.reduce((n, f) => n + f.unreadable, 0),
      from,
      to,
      complete: this.files.every((f) => f.state === "complete"),
      notes: this.files.flatMap((f) => f.notes),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Search

  /**
   * The rows whose content (as filters see it: the first FILTERED_CHARS) matches `pattern`,
   * oldest first. Reads each file in order a piece at a time, calling `pause` between pieces;
   * stops early (with what it found) when `signal` is aborted.
   */
  async search(
    pattern: Pattern,
    options: { pause?: () => Promise<void>; signal?: AbortSignal } = {},
  ): Promise<SearchResult> {
    const version = this.version;
    const hits: number[] = [];
    for (const _piece of this.scan(pattern, hits, { read: 0 })) {
      if (options.signal?.aborted) break;
      if (options.pause) await options.pause();
    }
    return { rows: sortedRows(hits), version };
  }

  /** The same search at once, without pausing (what a key waits for: the match counter). */
  searchNow(pattern: Pattern): SearchResult {
    const version = this.version;
    const hits: number[] = [];
    for (const _piece of this.scan(pattern, hits, { read: 0 }));
    return { rows: sortedRows(hits), version };
  }

  /**
   * The same search a step at a time, for a caller that runs it in slices between other work
   * (src/logs/work-budget.ts): `step` reads at most SEARCH_STEP_LINES lines and says whether the
   * search is done; `result` is its rows once it is; `sofar` what it found so far, and of how
   * many lines it read how many.
   */
  searchInSteps(pattern: Pattern): SearchSteps {
    const version = this.version;
    const hits: number[] = [];
    const progress = { read: 0 };
    const steps = this.scan(pattern, hits, progress);
    const lines = this.files.reduce((n, f) => n + f.index.size(), 0);
    let done = false;
    return {
      step: () => {
        if (!done) done = steps.next().done === true;
        return done;
      },
      result: () => ({ rows: sortedRows(hits), version }),
      sofar: () => ({ found: hits.length, read: Math.min(progress.read, lines), lines }),
    };
  }

  /**
   * Reads each file in order a piece at a time, adding the matching rows to `hits` and counting
   * the lines read in `progress`; yields after each piece and every SEARCH_STEP_LINES lines
   * tested. A literal pattern tests only the lines its bytes may match (./byte-prefilter.ts).
   */
  private *scan(pattern: Pattern, hits: number[], progress: SearchProgress): Generator<void> {
    const rowOf = this.rowFinder();
    for (let f = 0; f < this.files.length; f++) {
      const file = this.files[f] as SavedFile;
      const index = file.index;
      const format = file.format ?? "plain";
      const prefilter = BytePrefilter.of(pattern, format);
      const pieceBytes = prefilter ? PREFILTERED_PIECE_BYTES : SEARCH_PIECE_BYTES;
      let n = index.first();
      const last = index.next();
      while (n < last) {
        // A run of lines whose bytes are read at once.
        const from = index.start(n);
        let m = n;
        while (m < last && index.start(m) + index.length(m) - from <= pieceBytes) m++;
        if (m === n) m = n + 1;
        const lastLine = m - 1;
        const bytes = file.source.read(from, index.start(lastLine) + index.length(lastLine));
        const test = (k: number): void => {
          const flags = index.flags(k);
          if ((flags & IS_GAP) !== 0) return;
          const s = index.start(k) - from;
          const e = s + index.length(k);
          if (e > bytes.length) return;
          const before = index.contentStart(k);
          const content =
            before === NO_SPAN
              ? lineContent(bytes, s, e, format, (flags & UNREADABLE) !== 0, this.walker)
              : spanContent(bytes, s, e, before, index.contentTail(k), (flags & ESCAPED) !== 0);
          if (content === undefined || !pattern.test(content)) return;
          const row = rowOf(f, k);
          if (row >= 0) hits.push(row);
        };
        if (prefilter) {
          // Only the lines holding a needle's first byte, each once: one whose content holds the
          // literal whole as its bytes are is a match without decoding it.
          const literal = prefilter.literalHits(bytes);
          const other = prefilter.otherHits(bytes);
          let i = 0;
          let j = 0;
          let k = n;
          let tested = 0;
          while (i < literal.length || j < other.length) {
            const a = i < literal.length ? (literal[i] as number) : Number.POSITIVE_INFINITY;
            const b = j < other.length ? (other[j] as number) : Number.POSITIVE_INFINITY;
            const at = a < b ? a : b;
            k = lineHolding(index, k, m, from + at);
            const s = index.start(k) - from;
            const e = s + index.length(k);
            if (at >= e) {
              // Past the line's bytes (the rest of a line cut at its cap).
              if (a === at) i++;
              else j++;
              continue;
            }
            const flags = index.flags(k);
            const before = index.contentStart(k);
            const plain =
              (flags & (IS_GAP | ESCAPED)) === 0 && before !== NO_SPAN && e <= bytes.length;
            const cs = s + before;
            const ce = e - index.contentTail(k);
            let proven = false;
            for (; i < literal.length && (literal[i] as number) < e; i++)
              if (plain && !proven) proven = prefilter.proves(literal[i] as number, cs, ce);
            while (j < other.length && (other[j] as number) < e) j++;
            if (proven) {
              const row = rowOf(f, k);
              if (row >= 0) hits.push(row);
            } else test(k);
            if (++tested % SEARCH_STEP_LINES === 0) yield;
          }
        } else {
          for (let k = n; k < m; k++) {
            test(k);
            if ((k - n) % SEARCH_STEP_LINES === SEARCH_STEP_LINES - 1) yield;
          }
        }
        progress.read += m - n;
        n = m;
        yield;
      }
    }
  }
}

/** The last line in [lo, hi) starting at or before byte `offset` (starts grow with the number). */
function lineHolding(index: SavedFile["index"], lo: number, hi: number, offset: number): number {
  let a = lo;
  let b = hi - 1;
  while (a < b) {
    const mid = (a + b + 1) >>> 1;
    if (index.start(mid) <= offset) a = mid;
    else b = mid - 1;
  }
  return a;
}

function sortedRows(hits: number[]): Uint32Array {
  const sorted = Uint32Array.from(hits);
  sorted.sort();
  return sorted;
}

/** Whether a label already starts with a prefix (of at least MIN_LABEL) of its deployment's id. */
function prefixedBy(label: string, deploymentId: string): boolean {
  const space = label.indexOf(" ");
  return (
    space >= Math.min(MIN_LABEL, deploymentId.length) &&
    deploymentId.startsWith(label.slice(0, space))
  );
}
