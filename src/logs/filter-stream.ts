/**
 * A filter over a stream of events in their merged order (`tail`): each event pushed is judged
 * at once, and what is to be printed comes back in order, with a separator between context
 * groups that are not adjacent, as grep prints `--`.
 *
 * - A line's group (its event, ./line-groups.ts) is tracked per replica (of its deployment) and
 *   judged whole: the events of a batch are judged once the batch is in, each by all of its lines
 *   there (a frame matching `--grep` keeps its trace). A line continuing an event judged in an
 *   earlier batch takes that event's verdict: nothing is held from one batch to the next, so what
 *   a checkpoint records as handed on has been printed.
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
  | {
      kind: "event";
      event: E;
      context: boolean;
      /** The first line of the event a line continues (undefined: it starts one, or a gap). */
      head?: LogLine | undefined;
    }
  | { kind: "separator" };

/** One event (a line and those continuing it) and the verdict on it. */
interface EventGroup {
  head: LogLine;
  /** Undefined until judged (at the end of the batch it started in). */
  kept: boolean | undefined;
  /** Its lines in the batch being judged. */
  lines: LogLine[];
}

interface GroupState {
  /** Where the replica's last line was (events pushed before it). */
  at: number;
  /** The event it belongs to. */
  group: EventGroup;
  /** Whether that line continued another. */
  continued: boolean;
}

/** An event of the batch being judged: its group, and whether it continues that group's head. */
interface Pending<E> {
  event: E;
  group: EventGroup | undefined;
}

export class FilterStream<E extends LogEvent = LogEvent> {
  /** Events pushed so far: positions for the continuation rule's look-back. */
  private position = 0;
  /** Selected lines so far: positions for context. */
  private rank = 0;
  private lastPrinted: number | undefined;
  private afterLeft = 0;
  /** Lines not kept since the last printed one: the last `before` of them may print. */
  private readonly waiting: { line: E; rank: number; head: LogLine | undefined }[] = [];
  private readonly groups = new Map<string, GroupState>();

  /**
   * `events`: whether each line's event is tracked even when nothing narrows (a JSON line says
   * its event's level and that it continues one).
   */
  constructor(
    readonly filter: LineFilter,
    private readonly events = false,
  ) {}

  /** Judges one event as a batch of its own; what is to be printed now, in order. */
  push(event: E): Sieved<E>[] {
    return this.pushAll([event]);
  }

  /** Judges a batch, each event by all its lines in it; what is to be printed now, in order. */
  pushAll(events: Iterable<E>): Sieved<E>[] {
    const f = this.filter;
    const track = f.narrows || this.events;
    const pending: Pending<E>[] = [];
    const opened: EventGroup[] = [];
    for (const event of events) {
      const at = this.position++;
      if (event.kind === "gap") {
        pending.push({ event, group: undefined });
        continue;
      }
      // A replica not read is not grouped either: all its lines are left out.
      if (!f.selects(event)) continue;
      pending.push({ event, group: track ? this.groupOf(event, at, opened) : undefined });
    }
    for (const g of opened) {
      g.kept = f.narrows ? f.keepsEvent(g.lines) : true;
      g.lines = [];
    }
    const out: Sieved<E>[] = [];
    for (const p of pending) this.sieve(p, out);
    return out;
  }

  /** Context over the judged events, in order. */
  private sieve({ event, group }: Pending<E>, out: Sieved<E>[]): void {
    const head = group && group.head !== event ? group.head : undefined;
    if (event.kind === "gap") {
      out.push({ kind: "event", event, context: false });
      return;
    }
    const f = this.filter;
    const rank = this.rank++;
    if (!f.narrows) {
      out.push({ kind: "event", event, context: false, head });
      return;
    }
    if (group?.kept !== false) {
      const before = this.waiting.slice(Math.max(0, this.waiting.length - f.before));
      this.waiting.length = 0;
      const first = before.length > 0 ? (before[0] as { rank: number }).rank : rank;
      if (f.hasContext && this.lastPrinted !== undefined && first > this.lastPrinted + 1)
        out.push({ kind: "separator" });
      for (const w of before)
        out.push({ kind: "event", event: w.line, context: true, head: w.head });
      out.push({ kind: "event", event, context: false, head });
      this.lastPrinted = rank;
      this.afterLeft = f.after;
      return;
    }
    if (this.afterLeft > 0) {
      this.afterLeft--;
      this.lastPrinted = rank;
      out.push({ kind: "event", event, context: true, head });
      return;
    }
    if (f.before > 0) {
      // Only the last `before` are printed; trimmed now and then, not at every line.
      if (this.waiting.length >= 2 * f.before)
        this.waiting.splice(0, this.waiting.length - f.before);
      this.waiting.push({ line: event, rank, head });
    }
  }

  /** The event of the line at `at`, its replica's group state moved on. */
  private groupOf(line: LogLine, at: number, opened: EventGroup[]): EventGroup {
    const key = groupKey(line);
    const state = this.groups.get(key);
    const continues =
      state !== undefined &&
      at - state.at <= GROUP_LOOKBACK &&
      continuesPrevious(line.content, state.continued);
    let group: EventGroup;
    if (continues) {
      group = state.group;
    } else {
      group = { head: line, kept: undefined, lines: [] };
      opened.push(group);
    }
    if (group.kept === undefined) group.lines.push(line);
    if (state) {
      state.at = at;
      state.group = group;
      state.continued = continues;
    } else {
      this.groups.set(key, { at, group, continued: false });
    }
    return group;
  }
}

/** The separator between context groups in text (grep's); JSON and OTLP have none. */
export const CONTEXT_SEPARATOR = "--";

/** The events of what a stream let out: separators dropped (JSON, OTLP). */
export function sievedEvents<E extends LogEvent>(out: readonly Sieved<E>[]): E[] {
  const events: E[] = [];
  for (const s of out) if (s.kind === "event") events.push(s.event);
  return events;
}
