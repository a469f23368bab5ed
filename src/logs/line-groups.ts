/**
 * Multi-line events: a line that continues the previous line of the same replica (a stack frame,
 * an indented or closing line, `Caused by:`, `... 12 more`) belongs to that line's group, whose
 * head is the first line of the event. Every filter judges a group whole (./line-filter.ts): its
 * level is its head's, and a pattern matching any of its lines matches it, so an error keeps its
 * `at …` frames under `tail --level error`, `--grep ERROR`, `f` and `L`, and `--grep fetchNonce`
 * finds the trace one of whose frames names it.
 *
 * The rule, the same for a stream (`tail`, ./filter-stream.ts) and a buffer read at any index (the
 * dashboard, ./indexed-filter.ts): a line is a continuation when its text reads as one and its
 * replica (of its deployment) sent a line at most GROUP_LOOKBACK events before it in the merged
 * order; its head is that line's head. Any other line is its own head.
 */
import type { LogLine, StoreEvent } from "./model/log-line.js";

/** How far back (events of the merged order) a continuation line looks for its replica's line. */
export const GROUP_LOOKBACK = 512;

/**
 * Lines that continue the one before whatever it was: indented, `at …` (JavaScript, Java),
 * `Caused by:`, `... 12 more`, a closing bracket; Python's `Traceback (most recent call last):`
 * and the sentences between chained exceptions; a Java exception's class line named in full
 * (`java.lang.IllegalStateException: boom`, as logback prints it below the message).
 */
const CONTINUATION =
  /^(?:[ \t]|at |Caused by[: ]|\.\.\. \d+ (?:more|common frames omitted)|[}\])](?:[,;)\]}]*)\s*$|Traceback \(most recent call last\):|During handling of the above exception|The above exception was the direct cause|(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception|Throwable)(?:[:\s]|$))/;
/**
 * Lines that continue the one before only inside a trace (when that one continued another):
 * Python's closing `ValueError: bad` below the frames, and the blank line before a chained
 * exception. Elsewhere `TypeError: x` starts an event (Node prints an error's stack so).
 */
const IN_TRACE = /^(?:$|[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt)(?::|$))/;

/** How a line's text relates to the line before it. */
export type Continuation = "continues" | "in-trace" | "starts";

export function continuationOf(content: string): Continuation {
  const head = content.length > 160 ? content.slice(0, 160) : content;
  if (content.length > 0 && CONTINUATION.test(head)) return "continues";
  return IN_TRACE.test(head) ? "in-trace" : "starts";
}

/**
 * True when a line's text continues the previous line of its replica, given whether that one
 * continued another (`previousContinued`).
 */
export function continuesPrevious(content: string, previousContinued = false): boolean {
  const c = continuationOf(content);
  return c === "continues" || (c === "in-trace" && previousContinued);
}

/** Lines of one replica of one deployment share a key: groups never cross it. */
export function groupKey(line: LogLine): string {
  return line.deploymentId === undefined
    ? line.replicaLabel
    : `${line.deploymentId}\u0000${line.replicaLabel}`;
}

/** Events read by index, oldest first: the dashboard's LogStore is one. */
export interface IndexedEvents {
  size(): number;
  at(index: number): { event: StoreEvent } | undefined;
}

/** The head of each line's group, cached per line (heads never change once found). */
const heads = new WeakMap<LogLine, LogLine>();

/** The nearest line before `index`, at most GROUP_LOOKBACK events back, with the same key. */
function previousOfGroup(source: IndexedEvents, index: number, key: string): number {
  const stop = Math.max(0, index - GROUP_LOOKBACK);
  for (let i = index - 1; i >= stop; i--) {
    const e = source.at(i)?.event;
    if (e?.kind === "line" && groupKey(e) === key) return i;
  }
  return -1;
}

/**
 * The head of the group of the line at `index` (undefined when it is no line). A long trace is
 * walked back once, iteratively, up to a line whose head is known or that starts its group;
 * every line on the way is cached.
 */
export function groupHeadAt(source: IndexedEvents, index: number): LogLine | undefined {
  const event = source.at(index)?.event;
  if (event?.kind !== "line") return undefined;
  const known = heads.get(event);
  if (known) return known;
  const key = groupKey(event);
  /** The lines to resolve, newest first. */
  const chain: LogLine[] = [];
  /** The line before the oldest of them: its head and whether it continued another. */
  let before: { head: LogLine; continued: boolean } | undefined;
  let line: LogLine = event;
  let at = index;
  for (;;) {
    chain.push(line);
    if (continuationOf(line.content) === "starts") break;
    const prevAt = previousOfGroup(source, at, key);
    if (prevAt < 0) break;
    const prev = source.at(prevAt)?.event as LogLine;
    const prevHead = heads.get(prev);
    if (prevHead) {
      before = { head: prevHead, continued: prevHead !== prev };
      break;
    }
    line = prev;
    at = prevAt;
  }
  for (let k = chain.length - 1; k >= 0; k--) {
    const l = chain[k] as LogLine;
    const continues = before !== undefined && continuesPrevious(l.content, before.continued);
    const head = continues ? (before as { head: LogLine }).head : l;
    heads.set(l, head);
    before = { head, continued: continues };
  }
  return heads.get(event);
}

/**
 * The lines of the event the line at `index` belongs to, its head first, as the buffer holds
 * them now (undefined when it is no line): walked back to the head, then on while lines of the
 * same key continue it, each at most GROUP_LOOKBACK events after the one before.
 */
export function eventLinesAt(source: IndexedEvents, index: number): LogLine[] | undefined {
  const head = groupHeadAt(source, index);
  if (head === undefined) return undefined;
  const key = groupKey(head);
  let start = index;
  while (source.at(start)?.event !== head) {
    const prev = previousOfGroup(source, start, key);
    if (prev < 0) break;
    start = prev;
  }
  const lines: LogLine[] = [head];
  let last = start;
  let continued = false;
  const size = source.size();
  for (let i = start + 1; i < size && i - last <= GROUP_LOOKBACK; i++) {
    const e = source.at(i)?.event;
    if (e?.kind !== "line" || groupKey(e) !== key) continue;
    if (!continuesPrevious(e.content, continued)) break;
    lines.push(e);
    last = i;
    continued = true;
  }
  return lines;
}
