/**
 * The simulator's own clock: the injected clock plus the configured skew. Everything the server
 * stamps (the Date header, activity and event times, log timestamps) and filters by
 * (`sinceSeconds`, `timestampMs` liveness) reads this clock, never the host's directly.
 */
import type { Clock } from "../api/clock.js";

export function skewedClock(clock: Clock, skewMs: number): Clock {
  if (skewMs === 0) return clock;
  return { now: () => clock.now() + skewMs, monotonic: () => clock.monotonic() };
}
