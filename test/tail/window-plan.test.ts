/**
 * The window planner's first window: `--since` reaches back from the follow's first try, however
 * many tries fail before the first answer, so no line stamped after that point is left unasked.
 */
import { describe, expect, it } from "vitest";
import { ServerClockEstimate } from "../../src/tail/server-clock.js";
import { WindowPlanner } from "../../src/tail/window-plan.js";

const WALL = 1_790_000_000_000;

function plannerAt(sinceMs: number, retentionMs = 3_600_000) {
  const time = { mono: 0 };
  const planner = new WindowPlanner({
    clock: { now: () => WALL + time.mono, monotonic: () => time.mono },
    serverClock: new ServerClockEstimate(),
    maxOverlapMs: 5000,
    retentionMs,
    sinceMs,
  });
  return { planner, time };
}

describe("the first window", () => {
  it("asks for --since back from the first try, also when that try failed", () => {
    const { planner, time } = plannerAt(10_000);
    expect(planner.plan(5000).request).toEqual({ sinceSeconds: "10" });
    // Tries that failed (no answer settled): the start stays where the follow began.
    time.mono = 756;
    expect(planner.plan(5000).request).toEqual({ sinceSeconds: "11" });
    time.mono = 10_509;
    const plan = planner.plan(5000);
    expect(plan.request).toEqual({ sinceSeconds: "21" });
    expect(plan.windowMs).toBe(21_000);
    expect(plan.gap).toBeUndefined();
  });

  it("past what the server keeps, asks for all it keeps and says what no window can reach", () => {
    const { planner, time } = plannerAt(600_000, 3_600_000);
    planner.plan(5000);
    time.mono = 3_300_000;
    const plan = planner.plan(5000);
    expect(plan.request).toEqual({ sinceSeconds: "3600" });
    expect(plan.gap).toMatchObject({ kind: "gap", from: WALL - 600_000, to: WALL - 300_000 });
    expect(plan.gap?.reason).toBe(
      "no answer to the first poll for 1h5m, longer than the server keeps logs (1h)",
    );
  });
});
