/** The activity pane's view of list_activities: counts per status and the newest rows. */
import type { Activity, AnyTimestamp } from "../api/schemas.js";

export const STATUS_ORDER = [
  "CONSENSUS_NEEDED",
  "FAILED",
  "PENDING",
  "CREATED",
  "AUTHENTICATORS_NEEDED",
  "COMPLETED",
  "REJECTED",
] as const;

export function shortStatus(status: string): string {
  return status.replace(/^ACTIVITY_STATUS_/, "");
}

/** ACTIVITY_TYPE_SIGN_TRANSACTION_V2 -> sign_transaction v2 */
export function shortType(type: string): string {
  const name = type.replace(/^ACTIVITY_TYPE_/, "").toLowerCase();
  const m = /^(.*)_v(\d+)$/.exec(name);
  return m ? `${m[1]} v${m[2]}` : name;
}

export function timestampMs(ts: AnyTimestamp | undefined): number | undefined {
  if (ts === undefined) return undefined;
  if (typeof ts === "string") {
    const n = Number(ts);
    return Number.isFinite(n) ? n : Date.parse(ts);
  }
  return Number(ts.seconds) * 1000 + Math.floor(Number(ts.nanos) / 1e6);
}

/** A compact age: 12s, 4m, 3h, 2d. */
export function shortAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

export interface ActivityRow {
  id: string;
  type: string;
  status: string;
  ageMs: number;
  votes: number;
  attention: "consensus" | "failed" | undefined;
  activity: Activity;
}

export interface ActivitySummary {
  counts: { status: string; count: number }[];
  rows: ActivityRow[];
}

export function summarizeActivities(activities: readonly Activity[], now: number): ActivitySummary {
  const counts = new Map<string, number>();
  for (const a of activities)
    counts.set(shortStatus(a.status), (counts.get(shortStatus(a.status)) ?? 0) + 1);
  const known = new Set<string>(STATUS_ORDER);
  const ordered = [
    ...STATUS_ORDER.filter((s) => counts.has(s)),
    ...[...counts.keys()].filter((s) => !known.has(s)).sort(),
  ];
  return {
    counts: ordered.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    rows: activities.map((a) => {
      const status = shortStatus(a.status);
      return {
        id: a.id,
        type: shortType(a.type),
        status,
        ageMs: now - (timestampMs(a.createdAt) ?? now),
        votes: a.votes.length,
        attention:
          status === "CONSENSUS_NEEDED" ? "consensus" : status === "FAILED" ? "failed" : undefined,
        activity: a,
      };
    }),
  };
}
