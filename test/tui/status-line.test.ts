import { describe, expect, it } from "vitest";
import type { FollowerState } from "../../src/tail/follower.js";
import { displayWidth } from "../../src/text/terminal-width.js";
import { compactCount, promptLine, statusLine } from "../../src/tui/status-line.js";
import type { UiState } from "../../src/tui/ui-state.js";
import { initialUiState } from "../../src/tui/ui-state.js";

const follower: FollowerState = {
  phase: "live",
  retries: 0,
  linesPerSecond: 1234.5,
  lastPollLatencyMs: 48,
  linesEmitted: 1000,
  gaps: 0,
  entriesServed: 1500,
  arrival: { overlapMs: 1000, lateLines: 0, recentLateMs: 0, measured: true },
};
const text = (ui: Partial<UiState>, width: number, f = follower) =>
  statusLine(
    { follower: f, ui: { ...initialUiState, ...ui }, buffered: 98_765, cap: 100_000 },
    width,
  )
    .map((s) => s.text)
    .join("");

describe("the status line", () => {
  it("shows everything when there is room", () => {
    expect(text({}, 160)).toBe(
      "● live  following  1235 lines/s  poll 48ms  98765/100000 buffered  ? help",
    );
  });

  it("at 80 columns keeps paused, filters, search and hidden replicas whole, shortening the rest first", () => {
    const ui: Partial<UiState> = {
      following: false,
      include: "ERROR|WARN",
      exclude: "heartbeat",
      search: "timeout",
      hiddenReplicas: [1, 3],
    };
    const line = text(ui, 80);
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
    for (const part of [
      "⏸",
      "+/ERROR|WARN/",
      "-/heartbeat/",
      "search /timeout/",
      "hidden 1,3",
      "?",
    ]) {
      expect(line).toContain(part);
    }
    expect(line).not.toContain("buffered");
  });

  it("keeps the answer to the last key and the follower's error, cut if it must be", () => {
    const line = text({ notice: "no replica 7 (only 1, 2, 3)" }, 80, {
      ...follower,
      phase: "retrying",
      retries: 2,
      lastError: "network: ECONNREFUSED 127.0.0.1:9 after 5 attempts",
    });
    expect(line).toContain("● retrying 2");
    expect(line).toContain("no replica 7");
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it("never goes past its width, however narrow", () => {
    for (let width = 20; width <= 200; width += 7) {
      const line = text({ following: false, search: "x".repeat(40), include: "y" }, width);
      // Only what cannot be shortened further may overflow; Ink cuts the rest at the edge.
      expect(displayWidth(line)).toBeLessThanOrEqual(Math.max(width, 45));
    }
  });

  it("compacts counts", () => {
    expect([
      compactCount(999),
      compactCount(1234),
      compactCount(98_765),
      compactCount(2_500_000),
    ]).toEqual(["999", "1.2k", "99k", "2.5M"]);
  });

  it("the prompt keeps the end of a long pattern, where the cursor is", () => {
    const p = promptLine("search", `${"a".repeat(100)}END`, 80)
      .map((s) => s.text)
      .join("");
    expect(p).toContain("END▏");
    expect(displayWidth(p)).toBeLessThanOrEqual(80);
  });
});
