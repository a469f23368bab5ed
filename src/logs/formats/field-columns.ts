/**
 * Lines as columns of chosen fields (`tail --fields time,replica,msg,service,latencyMs`, the
 * dashboard's column view): each field a cell, read as field queries read it (../line-fields.ts:
 * dotted JSON paths, keys of `key=value` lines), plus what the tool itself reads of a line:
 *
 * - `time`: its timestamp, RFC 3339 in the local zone or UTC (as `--timestamps` prints it);
 * - `replica`: its replica's label;
 * - `level`: the level its content states (a continuing line: its event's), as `-o json` says it;
 * - `msg` / `message`: the line's own `msg` or `message` field (JSON, or a `msg=` pair), else (a
 *   line that is not JSON) its whole text.
 *
 * A line without a field has an empty cell. Every cell goes through the one sanitizer. The
 * layout is bounded: a column is as wide as the widest of its cells seen so far, at most
 * CELL_MAX_WIDTH cells (a longer value is cut, ending in `…`); the last column is never padded
 * nor cut. Widths only grow, and they are settled over windows of at most LAYOUT_WINDOW lines
 * (`measure`), so the rows of a window line up, and a later window only ever widens a column.
 * A line continuing an event (a stack frame) is not cut into cells: it prints whole, indented
 * under its event.
 */

import { levelOfContent } from "../../text/log-level.js";
import {
  EMPTY,
  lit,
  padEnd,
  type Safe,
  safe,
  sliceSafe,
  truncate,
  widthOf,
} from "../../text/safe-text.js";
import { formatRfc3339 } from "../../text/timestamp.js";
import type { Sieved } from "../filter-stream.js";
import { LineFields } from "../line-fields.js";
import { isStamped, type LogEvent, type LogLine } from "../model/log-line.js";

/** The widest a column is (but the last): a longer value ends in `…`. */
export const CELL_MAX_WIDTH = 40;
/** The most lines whose widths are settled together (`measure`). */
export const LAYOUT_WINDOW = 256;
/** Between two columns. */
const GAP = lit`  `;
/** Before a line that continues an event. */
export const CONTINUATION_INDENT = "    ";

/** The pseudo-fields: what the tool reads of a line, beside the line's own fields. */
export const PSEUDO_FIELDS = ["time", "replica", "level", "msg", "message"] as const;

/** A field's value as a cell's text (undefined: the line has no such field). */
function valueText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export interface FieldColumnsOptions {
  /** `time` in UTC instead of the local zone. */
  utc: boolean;
  /** The widest a column but the last is (default CELL_MAX_WIDTH). */
  maxWidth?: number;
}

/** The column layout of a stream of lines: the fields, and each column's width so far. */
export class FieldColumns {
  private readonly widths: number[];
  private readonly maxWidth: number;
  /** The cells of the lines measured in the window being printed. */
  private measured = new Map<LogLine, Safe[]>();

  constructor(
    readonly fields: readonly string[],
    private readonly options: FieldColumnsOptions,
  ) {
    this.widths = fields.map(() => 0);
    this.maxWidth = Math.max(1, options.maxWidth ?? CELL_MAX_WIDTH);
  }

  /** What the rows look like now (the fields and the widths): rows laid out before differ when it does. */
  key(): string {
    return this.widths.join(",");
  }

  /** A line's cells, each sanitized; `head`: the first line of the event it continues. */
  cellsOf(line: LogLine, head?: LogLine): Safe[] {
    const fields = new LineFields(line.content);
    return this.fields.map((name) => {
      const text = this.pseudoField(name, line, head, fields) ?? valueText(fields.get(name));
      return text === undefined ? EMPTY : safe(text);
    });
  }

  private pseudoField(
    name: string,
    line: LogLine,
    head: LogLine | undefined,
    fields: LineFields,
  ): string | undefined {
    switch (name) {
      case "time":
        return isStamped(line) ? formatRfc3339(line.seconds, line.nanos, this.options.utc) : "";
      case "replica":
        return line.replicaLabel;
      case "level":
        return levelOfContent((head ?? line).content) ?? "";
      case "msg":
      case "message":
        return (
          valueText(fields.get("msg")) ??
          valueText(fields.get("message")) ??
          (fields.isJson() ? undefined : line.content)
        );
      default:
        return undefined;
    }
  }

  /**
   * Settles the widths over the next lines to print (at most LAYOUT_WINDOW of them are taken):
   * each column widens to its widest cell there, up to the most it may be.
   */
  measure(lines: readonly { line: LogLine; head?: LogLine | undefined }[]): void {
    this.measured = new Map();
    const last = this.fields.length - 1;
    for (const { line, head } of lines.slice(0, LAYOUT_WINDOW)) {
      if (head) continue;
      const cells = this.cellsOf(line);
      this.measured.set(line, cells);
      this.widen(cells, last);
    }
  }

  /** Before printing `items[at]`: at the start of each window, its widths settled (`measure`). */
  measureAt(items: readonly Sieved<LogEvent>[], at: number): void {
    if (at % LAYOUT_WINDOW !== 0) return;
    const lines: { line: LogLine; head?: LogLine | undefined }[] = [];
    for (const s of items.slice(at, at + LAYOUT_WINDOW))
      if (s.kind === "event" && s.event.kind === "line")
        lines.push({ line: s.event, head: s.head });
    this.measure(lines);
  }

  private widen(cells: readonly Safe[], last: number): void {
    for (let i = 0; i < last; i++) {
      const w = Math.min(this.maxWidth, widthOf(cells[i] ?? EMPTY));
      if (w > (this.widths[i] ?? 0)) this.widths[i] = w;
    }
  }

  /** One line as a row: its cells padded to the widths, or a continuing line, indented. */
  row(line: LogLine, head?: LogLine): Safe {
    if (head) return safe(`${CONTINUATION_INDENT}${line.content}`);
    const last = this.fields.length - 1;
    const cells = this.measured.get(line) ?? this.cellsOf(line);
    this.widen(cells, last);
    let row = EMPTY;
    for (let i = 0; i < last; i++) {
      const width = this.widths[i] ?? 0;
      row = lit`${row}${padEnd(truncate(cells[i] ?? EMPTY, width), width)}${GAP}`;
    }
    row = lit`${row}${cells[last] ?? EMPTY}`;
    // Only spaces are cut off the end (an empty last cell's padding), never an escaped character.
    return sliceSafe(row, 0, row.trimEnd().length);
  }
}
