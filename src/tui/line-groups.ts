/**
 * Multi-line events: a line that continues the previous line of the same replica (a stack frame,
 * an indented or closing line, `Caused by:`, `... 12 more`) belongs to that line's group, whose
 * head is the first line of the event. Filters, levels and context judge a group by its head, so
 * an error keeps its `at …` frames under `f error` or `L`.
 */
import type { LogLine } from "../tail/log-line.js";
import type { LogStore } from "../tail/log-store.js";

/** Lines looked back over to find the previous line of the same replica. */
export const GROUP_LOOKBACK = 512;

const CONTINUATION =
  /^(?:[ \t]|at |Caused by[: ]|\.\.\. \d+ (?:more|common frames omitted)|[}\])](?:[,;)\]}]*)\s*$)/;

/** True when a line's text reads as the continuation of the line before it. */
export function continuesPrevious(content: string): boolean {
  return content.length > 0 && CONTINUATION.test(content.slice(0, 64));
}

/** The head of each line's group, cached per line (heads never change once found). */
const heads = new WeakMap<LogLine, LogLine>();

/**
 * The head of the group of the line at `index`: the line itself, or the nearest earlier line of
 * its replica that does not continue another (within GROUP_LOOKBACK lines).
 */
export function groupHead(store: LogStore, index: number): LogLine | undefined {
  const row = store.at(index);
  if (row?.event.kind !== "line") return undefined;
  const event = row.event;
  const known = heads.get(event);
  if (known) return known;
  let head = event;
  if (continuesPrevious(event.content)) {
    const stop = Math.max(0, index - GROUP_LOOKBACK);
    for (let i = index - 1; i >= stop; i--) {
      const prev = store.at(i)?.event;
      if (prev?.kind !== "line" || prev.replicaLabel !== event.replicaLabel) continue;
      const prevHead = heads.get(prev);
      if (prevHead) {
        head = prevHead;
        break;
      }
      if (!continuesPrevious(prev.content)) {
        head = prev;
        break;
      }
    }
  }
  heads.set(event, head);
  return head;
}
