/**
 * The gap line of `tail`'s text, written and read here: `--- gap: REASON (FROM to TO) ---`, FROM
 * and TO as RFC 3339 (UTC, or local with its offset). `tail` prints it (./stream-format.ts) and
 * a saved log reads it back (../saved/saved-line.ts).
 */
import { formatMsRfc3339, parseRfc3339 } from "../../text/timestamp.js";
import { type GapMarker, timestampSortKey } from "../model/log-line.js";

/** How a gap line starts (what tells it from a log line). */
export const GAP_LINE_PREFIX = "--- gap: ";

const GAP_LINE = /^--- gap: ([\s\S]*) \((\S+) to (\S+)\) ---$/;

/** The gap as a line of text (without colour). */
export function formatGapLine(gap: GapMarker, utc: boolean): string {
  return `${GAP_LINE_PREFIX}${gap.reason} (${formatMsRfc3339(gap.from, utc)} to ${formatMsRfc3339(gap.to, utc)}) ---`;
}

/** The gap a line of text states; undefined when it is not a gap line. */
export function readGapLine(text: string): GapMarker | undefined {
  const m = GAP_LINE.exec(text);
  const from = m && parseRfc3339(m[2] as string);
  const to = m && parseRfc3339(m[3] as string);
  if (!m || !from || !to) return undefined;
  const toMs = timestampSortKey(to.seconds, to.nanos);
  return {
    kind: "gap",
    from: timestampSortKey(from.seconds, from.nanos),
    to: toMs,
    reason: m[1] as string,
    sortKey: toMs,
  };
}
