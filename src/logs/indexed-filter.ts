/**
 * A filter over a buffer read at any index (the dashboard's log, a file opened whole): whether
 * the line at an index is kept, its event judged whole (./line-groups.ts: the lines the buffer holds
 * of it when first asked), or shown as a context line. It keeps exactly what ./filter-stream.ts prints of the same events in the same
 * order; the verdict on each head is remembered (per filter: a new filter judges afresh), so a
 * view over a buffer of 100k lines asks each head once.
 */

import type { LineFilter } from "./line-filter.js";
import { eventLinesAt, groupHeadAt, type IndexedEvents } from "./line-groups.js";
import type { LogLine } from "./model/log-line.js";

export class IndexedFilter {
  private readonly verdicts = new WeakMap<LogLine, boolean>();

  constructor(readonly filter: LineFilter) {}

  /** The line at `index` is read (its replica selected); false for anything not a line. */
  selected(source: IndexedEvents, index: number): boolean {
    const event = source.at(index)?.event;
    return event?.kind === "line" && this.filter.selects(event);
  }

  /** The line at `index` is kept on its own: selected, and its group's head passes. */
  keeps(source: IndexedEvents, index: number): boolean {
    const event = source.at(index)?.event;
    if (event?.kind !== "line" || !this.filter.selects(event)) return false;
    if (!this.filter.narrows) return true;
    const head = groupHeadAt(source, index) ?? event;
    let kept = this.verdicts.get(head);
    if (kept === undefined) {
      kept = this.filter.keepsEvent(eventLinesAt(source, index) ?? [head]);
      this.verdicts.set(head, kept);
    }
    return kept;
  }

  /**
   * Whether the line at `index` is shown: kept, or within `after` selected lines after a kept
   * line, or within `before` selected lines before one. False for anything not a line.
   */
  shows(source: IndexedEvents, index: number): boolean {
    if (this.keeps(source, index)) return true;
    const f = this.filter;
    if (!f.hasContext || !this.selected(source, index)) return false;
    return this.keptAmong(source, index, -1, f.after) || this.keptAmong(source, index, 1, f.before);
  }

  /** Whether one of the `count` selected lines next to `index` in direction `step` is kept. */
  private keptAmong(source: IndexedEvents, index: number, step: 1 | -1, count: number): boolean {
    let seen = 0;
    for (let i = index + step; seen < count && i >= 0 && i < source.size(); i += step) {
      if (!this.selected(source, i)) continue;
      if (this.keeps(source, i)) return true;
      seen++;
    }
    return false;
  }
}
