/** The server's clock against this machine's, from the Date header of an API answer. */
import type { ResponseMeta } from "../../../api/client.js";
import { formatDuration } from "../../../text/duration.js";

/** Beyond this, the server's clock and this machine's disagree enough to matter. */
export const CLOCK_TOLERANCE_MS = 30_000;

/**
 * The server's clock minus this machine's, from a response's Date header (whole seconds,
 * truncated: half a second is added back) against the middle of the round trip.
 */
export function clockOffset(
  meta: ResponseMeta,
): { offsetMs: number; uncertaintyMs: number } | undefined {
  if (meta.serverDate === undefined) return undefined;
  const localMiddle = (meta.sentAtWall + meta.receivedAtWall) / 2;
  const roundTrip = Math.max(0, meta.receivedAtWall - meta.sentAtWall);
  return {
    offsetMs: Math.round(meta.serverDate + 500 - localMiddle),
    uncertaintyMs: Math.round(500 + roundTrip / 2),
  };
}

export function describeOffset(offsetMs: number, uncertaintyMs: number): string {
  const margin = `±${formatDuration(Math.max(uncertaintyMs, 1000))}`;
  if (Math.abs(offsetMs) <= uncertaintyMs) return `agrees with this machine's (${margin})`;
  const side = offsetMs > 0 ? "ahead of" : "behind";
  return `is ${formatDuration(Math.abs(offsetMs))} ${side} this machine's (${margin})`;
}
