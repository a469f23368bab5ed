/**
 * An activity's fields as the rules, the panes and the commands read them: its status and type
 * without their prefixes, and its timestamps (epoch-ms strings or proto Timestamps) in ms.
 */
import type { AnyTimestamp } from "../api/schemas.js";

/** Longest type name worked on (the detail view shows the whole field). */
const MAX_TYPE = 256;

/** ACTIVITY_STATUS_CONSENSUS_NEEDED -> CONSENSUS_NEEDED */
export function shortStatus(status: string): string {
  return status.startsWith("ACTIVITY_STATUS_") ? status.slice(16) : status;
}

/** ACTIVITY_TYPE_SIGN_TRANSACTION_V2 -> sign_transaction v2 */
export function shortType(type: string): string {
  const name = (type.startsWith("ACTIVITY_TYPE_") ? type.slice(14) : type).toLowerCase();
  const m = /^(.*)_v(\d+)$/.exec(name.slice(0, MAX_TYPE));
  return m ? `${m[1]} v${m[2]}` : name;
}

/** Epoch ms of a timestamp as the API sends it; undefined when absent. */
export function timestampMs(ts: AnyTimestamp | undefined): number | undefined {
  if (ts === undefined) return undefined;
  if (typeof ts === "string") {
    const n = Number(ts);
    return Number.isFinite(n) ? n : Date.parse(ts);
  }
  return Number(ts.seconds) * 1000 + Math.floor(Number(ts.nanos) / 1e6);
}
