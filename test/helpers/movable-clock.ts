import type { Clock } from "../../src/api/clock.js";

/**
 * The host's clock moved by `offset` ms, which a test may change. A simulator started with it and
 * then moved ahead has that much log history at once (its lines are generated up to its "now"),
 * where a test would otherwise sleep for it; the program sees a server clock that far ahead, as
 * with any skew.
 */
export function movableClock(): Clock & { offset: number } {
  const clock = {
    offset: 0,
    now: () => Date.now() + clock.offset,
    monotonic: () => performance.now() + clock.offset,
  };
  return clock;
}
