/**
 * A ticket bundle (`S`, then `b`): the saved lines' header (./saved-view.ts) extended with what
 * the dashboard knew when it wrote them: `bundle: true`, each replica's line count in the range,
 * the follow's figures (its window, overlap, lines, late lines, gaps, failed polls in a row), the
 * outages, oldest first: the gap markers among the lines (lines the server no longer had) and the
 * spans when polls got no answer (./controller/outage-record.ts: from, to, the polls that failed,
 * why; the one under way when the bundle is written too) that overlap the lines' time, and the
 * votes this dashboard cast. Read back by src/logs/saved/saved-header.ts, which bounds every list
 * as MAX_BUNDLE_ITEMS does here.
 */

import type { StoredRow } from "../../logs/model/log-store.js";
import {
  MAX_BUNDLE_ITEMS,
  type SavedOutage,
  type SavedVote,
} from "../../logs/saved/saved-header.js";
import type { FollowerState } from "../../tail/follower.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { NoAnswerSpan } from "./outage-record.js";

/** An outage and when it began (epoch ms), for the order. */
type Timed = { at: number; outage: SavedOutage };

/** The spans without an answer that overlap the lines' time (one under way, whenever it began). */
function noAnswerOutages(rows: readonly StoredRow[], spans: readonly NoAnswerSpan[]): Timed[] {
  const first = rows[0]?.event.sortKey;
  const last = rows.at(-1)?.event.sortKey;
  if (first === undefined || last === undefined) return [];
  return spans
    .filter((s) => s.ongoing || (s.to >= first && s.from <= last))
    .map((s) => ({
      at: s.from,
      outage: {
        from: formatMsRfc3339(s.from, true),
        to: formatMsRfc3339(s.to, true),
        reason: s.cause === undefined ? "no answer" : `no answer: ${s.cause}`,
        failedPolls: s.failedPolls,
        ...(s.ongoing ? { ongoing: true } : {}),
      },
    }));
}

/** The bundle's own header fields. */
export function bundleFields(
  rows: readonly StoredRow[],
  follow: FollowerState | undefined,
  votes: readonly SavedVote[],
  spans: readonly NoAnswerSpan[] = [],
): Record<string, unknown> {
  const counts = new Map<string, { replicaLabel: string; deploymentId?: string; lines: number }>();
  const gaps: Timed[] = [];
  for (const { event: e } of rows) {
    if (e.kind === "gap") {
      if (gaps.length < MAX_BUNDLE_ITEMS)
        gaps.push({
          at: e.from,
          outage: {
            from: formatMsRfc3339(e.from, true),
            to: formatMsRfc3339(e.to, true),
            reason: e.reason,
          },
        });
      continue;
    }
    if (e.kind !== "line") continue;
    const key = `${e.deploymentId ?? ""}\u0000${e.replicaLabel}`;
    const c = counts.get(key);
    if (c) c.lines++;
    else if (counts.size < MAX_BUNDLE_ITEMS)
      counts.set(key, {
        replicaLabel: e.replicaLabel,
        ...(e.deploymentId === undefined ? {} : { deploymentId: e.deploymentId }),
        lines: 1,
      });
  }
  const replicas = [...counts.values()].sort((a, b) =>
    a.replicaLabel.localeCompare(b.replicaLabel, "en", { numeric: true }),
  );
  return {
    bundle: true,
    replicas,
    follow: follow
      ? {
          phase: follow.phase,
          windowSeconds:
            follow.lastWindowSeconds === undefined ? null : Math.ceil(follow.lastWindowSeconds),
          overlapMs: Math.round(follow.arrival.overlapMs),
          linesEmitted: follow.linesEmitted,
          lateLines: follow.arrival.lateLines,
          gaps: follow.gaps,
          entriesServed: follow.entriesServed,
          failedPolls: follow.retries,
        }
      : null,
    outages: [...gaps, ...noAnswerOutages(rows, spans)]
      .sort((a, b) => a.at - b.at)
      .slice(-MAX_BUNDLE_ITEMS)
      .map((t) => t.outage),
    votes: votes.slice(-MAX_BUNDLE_ITEMS),
  };
}
