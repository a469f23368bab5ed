/**
 * What a filter keeps of a log, one grammar for `tail`, the dashboard and whatever else reads
 * logs: which replicas are read (`select`), then, judged on each whole event (a line and the lines
 * that continue it, ./line-groups.ts) so a stack trace is kept or hidden whole:
 *
 * - include groups: every group must be matched by some line of the event, and within a group any
 *   pattern. `tail --grep a --grep b` is one group of two (either, as `grep -e`); each of the
 *   dashboard's `f` filters is a group of one (they narrow), whose regex takes `a|b` for either;
 * - field queries (./field-query.ts: `tail --where`, the dashboard's `=`): every one must hold for
 *   some line of the event, each line read with its event's level;
 * - exclude: an event is hidden when any pattern matches any of its lines (`--exclude` repeated);
 * - a minimum level: the event's level (its first line's) as src/text/log-level.ts reads it, info
 *   when it states none.
 *
 * Patterns are the one matcher's (src/text/pattern.ts: linear time, smart case) and see at most
 * FILTERED_CHARS of a line.
 * Context lines (`-A`, `-B`, `-C`, the dashboard's `C`) are counted over the selected lines in
 * the merged order, as grep counts them over its input: ./filter-stream.ts, ./indexed-filter.ts.
 */

import {
  isAtLeast,
  type LogLevel,
  levelOfContent,
  READ_CHARS,
  readPart,
} from "../text/log-level.js";
import { compilePattern as compile, type Pattern } from "../text/pattern.js";
import type { FieldQuery } from "./field-query.js";
import { LineFields } from "./line-fields.js";
import type { LogLine } from "./model/log-line.js";

/** The most of one line patterns and the level reading see (the dashboard renders as much). */
export const FILTERED_CHARS = READ_CHARS;

export interface LineFilterSpec {
  /** Which lines are read at all (replicas, a deployment); undefined: every one. */
  select?: ((line: LogLine) => boolean) | undefined;
  /** Every group must match; within a group, any pattern. */
  include?: readonly (readonly Pattern[])[];
  /** Every query must hold for some line of the event. */
  where?: readonly FieldQuery[];
  /** Any match hides the line. */
  exclude?: readonly Pattern[];
  minLevel?: LogLevel | undefined;
  /** Only events whose first line's time (epoch ms) is within, both ends kept (`open --since`). */
  range?: TimeWindow | undefined;
  /** Context lines kept before and after each kept line (grep -B, -A). */
  before?: number;
  after?: number;
  /** How a line's level is read: a reader that caches it can hand it in (the same reading). */
  levelOfLine?: (line: LogLine) => LogLevel | undefined;
}

/** A stretch of time, epoch ms; an end left out is open. */
export interface TimeWindow {
  fromMs?: number | undefined;
  untilMs?: number | undefined;
}

/** What a line's filters test: its content, up to FILTERED_CHARS. */
export function filteredText(line: LogLine): string {
  return readPart(line.content);
}

/** The level the filters read in a line (undefined when it states none: counted as info). */
export function filteredLevel(line: LogLine): LogLevel | undefined {
  return levelOfContent(line.content);
}

/** A pattern as every reader compiles it (src/text/pattern.ts). Throws PatternError. */
export function compilePattern(source: string): Pattern {
  return compile(source);
}

/** A compiled filter: the spec and the verdict on a group's head. */
export class LineFilter {
  readonly include: readonly (readonly Pattern[])[];
  readonly where: readonly FieldQuery[];
  readonly exclude: readonly Pattern[];
  readonly minLevel: LogLevel | undefined;
  readonly range: TimeWindow | undefined;
  readonly before: number;
  readonly after: number;
  /** True when include, exclude or a level narrows what is kept (context applies only then). */
  readonly narrows: boolean;
  private readonly select: ((line: LogLine) => boolean) | undefined;
  private readonly levelOfLine: (line: LogLine) => LogLevel | undefined;
  /** Whether the lines of a replica (of a deployment) are read: labels repeat line after line. */
  private readonly selected = new Map<string, boolean>();

  constructor(spec: LineFilterSpec = {}) {
    this.include = (spec.include ?? []).filter((group) => group.length > 0);
    this.where = spec.where ?? [];
    this.exclude = spec.exclude ?? [];
    this.minLevel = spec.minLevel;
    this.range =
      spec.range?.fromMs === undefined && spec.range?.untilMs === undefined
        ? undefined
        : spec.range;
    this.before = Math.max(0, spec.before ?? 0);
    this.after = Math.max(0, spec.after ?? 0);
    this.select = spec.select;
    this.levelOfLine = spec.levelOfLine ?? filteredLevel;
    this.narrows =
      this.include.length > 0 ||
      this.where.length > 0 ||
      this.exclude.length > 0 ||
      this.minLevel !== undefined ||
      this.range !== undefined;
  }

  /** Whether context lines are kept at all. */
  get hasContext(): boolean {
    return this.narrows && (this.before > 0 || this.after > 0);
  }

  /** Whether the line's replica (and deployment) is read. */
  selects(line: LogLine): boolean {
    if (!this.select) return true;
    const key =
      line.deploymentId === undefined
        ? line.replicaLabel
        : `${line.deploymentId} ${line.replicaLabel}`;
    let ok = this.selected.get(key);
    if (ok === undefined) {
      ok = this.select(line);
      if (this.selected.size >= 4096) this.selected.clear();
      this.selected.set(key, ok);
    }
    return ok;
  }

  /**
   * Whether the event made of `lines` (its first line first, the lines continuing it after) is
   * kept by the include, query, exclude and level filters.
   */
  keepsEvent(lines: readonly LogLine[]): boolean {
    const head = lines[0];
    if (head === undefined) return false;
    if (this.range && !within(head.sortKey, this.range)) return false;
    const level = this.levelOfLine(head) ?? "info";
    if (this.minLevel !== undefined && !isAtLeast(level, this.minLevel)) return false;
    if (this.include.length === 0 && this.where.length === 0 && this.exclude.length === 0)
      return true;
    const texts = lines.map(filteredText);
    if (this.exclude.some((p) => texts.some((t) => p.test(t)))) return false;
    for (const group of this.include) {
      if (!texts.some((t) => group.some((p) => p.test(t)))) return false;
    }
    if (this.where.length === 0) return true;
    const read = lines.map((line) => {
      const fields = new LineFields(line.content);
      return { field: (path: string) => fields.get(path), level: () => level };
    });
    return this.where.every((q) => read.some((line) => q.matches(line)));
  }

  /**
   * Whether a record that is not a log line (a side pane's event among the lines) is kept by the
   * same filters: its one text read by the patterns, its fields by the queries, its level by the
   * minimum level.
   */
  keepsRecord(text: string, fields: Readonly<Record<string, string>>, level: LogLevel): boolean {
    if (this.minLevel !== undefined && !isAtLeast(level, this.minLevel)) return false;
    const t = readPart(text);
    if (this.exclude.some((p) => p.test(t))) return false;
    if (!this.include.every((group) => group.some((p) => p.test(t)))) return false;
    const read = {
      field: (path: string) => (Object.hasOwn(fields, path) ? fields[path] : undefined),
      level: () => level,
    };
    return this.where.every((q) => q.matches(read));
  }
}

/** Whether `ms` is within the range (both ends kept). */
export function within(ms: number, range: TimeWindow): boolean {
  return (
    (range.fromMs === undefined || ms >= range.fromMs) &&
    (range.untilMs === undefined || ms <= range.untilMs)
  );
}
