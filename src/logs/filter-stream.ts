/**
 * A filter over a stream of events in their merged order (`tail`): each event pushed is judged
 * at once, and what is to be printed comes back in order, with a separator between context
 * groups that are not adjacent, as grep prints `--`.
 *
 * - A line's group is tracked per replica (of its deployment): a continuation line takes the
 *   verdict its head had (./line-groups.ts), so it is kept with it, and hidden with it.
 * - Context is counted over the selected lines (the replicas read) in the order they come, which
 *   is the order they print in: lines after a kept one print as they come, lines before one wait
 *   in a buffer of at most `before` lines.
 * - Gap markers always pass and are not lines: they neither count for context nor break it.
 */

import type { LineFilter } from "./line-filter.js";
import { continuesPrevious, GROUP_LOOKBACK, groupKey } from "./line-groups.js";
import type { LogEvent, LogLine } from "./model/log-line.js";

/** What a stream lets out: an event to print, or the separator between context groups. */
export type Sieved<E extends LogEvent = LogEvent> =
  | { kind: "event"; event: E; context: boolean }
  | { kind: "separator" };

interface GroupState {
  /** Where the replica's last line was (events pushed before it). */
  at: number;
  /** The verdict on its group's head. */
  kept: boolean;
  /** Whether that line continued another. */
  continued: boolean;
}

export class FilterStream<E extends LogEvent = LogEvent> {
  /** Events pushed so far: positions for the continuation rule's look-back. */
  private position = 0;
  /** Selected lines so far: positions for context. */
  private rank = 0;
  private lastPrinted: number | undefined;
  private afterLeft = 0;
  /** Lines not kept since the last printed one: the last `before` of them may print. */
  private readonly waiting: { line: E; rank: number }[] = [];
  private readonly groups = new Map<string, GroupState>();

  constructor(readonly filter: LineFilter) {}

  /** Judges one event; what is to be printed now, in order. */
  push(event: E): Sieved<E>[] {
    const at = this.position++;
    if (event.kind === "gap") return [{ kind: "event", event, context: false }];
    const line: LogLine = event;
    const f = this.filter;
    // A replica not read is not grouped either: all its lines are left out.
    if (!f.selects(line)) return [];
    const rank = this.rank++;
    if (!f.narrows) return [{ kind: "event", event, context: false }];
    const kept = this.groupVerdict(line, at);
    if (kept) {
      const out: Sieved<E>[] = [];
      const before = this.waiting.slice(Math.max(0, this.waiting.length - f.before));
      this.waiting.length = 0;
      const first = before.length > 0 ? (before[0] as { rank: number }).rank : rank;
      if (f.hasContext && this.lastPrinted !== undefined && first > this.lastPrinted + 1)
        out.push({ kind: "separator" });
      for (const w of before) out.push({ kind: "event", event: w.line, context: true });
      out.push({ kind: "event", event, context: false });
      this.lastPrinted = rank;
      this.afterLeft = f.after;
      return out;
    }
    if (this.afterLeft > 0) {
      this.afterLeft--;
      this.lastPrinted = rank;
      return [{ kind: "event", event, context: true }];
    }
    if (f.before > 0) {
      // Only the last `before` are printed; trimmed now and then, not at every line.
      if (this.waiting.length >= 2 * f.before)
        this.waiting.splice(0, this.waiting.length - f.before);
      this.waiting.push({ line: event, rank });
    }
    return [];
  }

  /** Every event of a batch, in order. */
  pushAll(events: Iterable<E>): Sieved<E>[] {
    const out: Sieved<E>[] = [];
    for (const e of events) for (const s of this.push(e)) out.push(s);
    return out;
  }

  /** The verdict on the group of the line at `at`, its replica's group state moved on. */
  private groupVerdict(line: LogLine, at: number): boolean {
    const key = groupKey(line);
    const state = this.groups.get(key);
    const continues =
      state !== undefined &&
      at - state.at <= GROUP_LOOKBACK &&
      continuesPrevious(line.content, state.continued);
    const kept = continues ? state.kept : this.filter.keepsGroupOf(line);
    if (state) {
      state.at = at;
      state.kept = kept;
      state.continued = continues;
    } else {
      this.groups.set(key, { at, kept, continued: false });
    }
    return kept;
  }
}
