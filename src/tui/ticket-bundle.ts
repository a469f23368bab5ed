/**
 * A ticket bundle (`S`, then `b`): the saved lines' header (./saved-view.ts) extended with what
 * the dashboard knew when it wrote them: `bundle: true`, each replica's line count in the range,
 * the follow's figures (its window, overlap, lines, late lines, gaps, failed polls in a row), the
 * outages among the lines (their gap markers), and the votes this dashboard cast. Read back by
 * src/logs/saved/saved-header.ts, which bounds every list as MAX_BUNDLE_ITEMS does here.
 */
import { MAX_BUNDLE_ITEMS, type SavedVote } from "../logs/saved/saved-header.js";
import type { FollowerState } from "../tail/follower.js";
import type { StoredRow } from "../tail/log-store.js";
import { formatMsRfc3339 } from "../text/timestamp.js";

/** The bundle's own header fields. */
export function bundleFields(
  rows: readonly StoredRow[],
  follow: FollowerState | undefined,
  votes: readonly SavedVote[],
): Record<string, unknown> {
  const counts = new Map<string, { replicaLabel: string; deploymentId?: string; lines: number }>();
  const outages: { from: string; to: string; reason: string }[] = [];
  for (const { event: e } of rows) {
    if (e.kind === "gap") {
      if (outages.length < MAX_BUNDLE_ITEMS)
        outages.push({
          from: formatMsRfc3339(e.from, true),
          to: formatMsRfc3339(e.to, true),
          reason: e.reason,
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
    outages,
    votes: votes.slice(-MAX_BUNDLE_ITEMS),
  };
}
