/**
 * `c`: the cursor's line as `tail --timestamps` prints it (RFC 3339 time in the local zone, the
 * replica's label, the content sanitized), followed by its continuation lines (a stack trace's
 * frames: the lines after it whose group head is its own, ../logs/line-groups.ts), as many as
 * MAX_COPY_LINES.
 */

import { formatEvent } from "../../logs/formats/stream-format.js";
import { GROUP_LOOKBACK, groupHeadAt, groupKey } from "../../logs/line-groups.js";
import type { LogRows } from "../../logs/model/log-store.js";

/** The most lines `c` copies (the line and its continuation lines). */
export const MAX_COPY_LINES = 200;

const LOOK = { output: "text", timestamps: true, utc: false, colour: false } as const;

/** The lines copied for the row `id`, or undefined when it is no line (or left the buffer). */
export function copyLines(store: LogRows, id: number): string[] | undefined {
  const index = store.indexOfId(id);
  const event = store.at(index)?.event;
  if (index < 0 || event?.kind !== "line") return undefined;
  const out = [formatEvent(event, LOOK)];
  const head = groupHeadAt(store, index);
  const key = groupKey(event);
  // The group's lines come after it, each within GROUP_LOOKBACK events of its replica's last.
  let last = index;
  for (let i = index + 1; i < store.size() && i - last <= GROUP_LOOKBACK; i++) {
    if (out.length >= MAX_COPY_LINES) break;
    const e = store.at(i)?.event;
    if (e?.kind !== "line" || groupKey(e) !== key) continue;
    if (groupHeadAt(store, i) !== head) break;
    out.push(formatEvent(e, LOOK));
    last = i;
  }
  return out;
}
