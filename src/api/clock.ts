/**
 * The clock every component takes, so tests can drive time. `now` is wall-clock epoch
 * milliseconds (what timestamps and `timestampMs` use); `monotonic` is a clock that never jumps,
 * in milliseconds, for measuring intervals.
 */
export interface Clock {
  now(): number;
  monotonic(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};
