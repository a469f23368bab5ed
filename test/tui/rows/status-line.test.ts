import { describe, expect, it } from "vitest";
import type { FollowerState } from "../../../src/tail/follower.js";
import { displayWidth } from "../../../src/text/terminal-width.js";
import { compactCount, promptLine, statusLine } from "../../../src/tui/rows/status-line.js";
import type { UiState } from "../../../src/tui/state/ui-state.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";

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
const text = (ui: Partial<UiState>, width: number, f = follower, nowMono?: number) =>
  statusLine(
    { follower: f, ui: { ...initialUiState, ...ui }, buffered: 98_765, cap: 100_000, nowMono },
    width,
  )
    .map((s) => s.text)
    .join("");

describe("the status line", () => {
  it("shows everything when there is room", () => {
    expect(text({}, 160)).toBe(
      "● live  following  1235 lines/s  poll 48ms  98,765/100,000 buffered  ? help",
    );
  });

  it("at 80 columns keeps paused, filters, search and hidden replicas whole, shortening the rest first", () => {
    const ui: Partial<UiState> = {
      following: false,
      include: ["ERROR|WARN"],
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

  it("shortens a notice that says its own shorter form to that form, never cutting it mid-word", () => {
    const ui: Partial<UiState> = {
      following: false,
      include: ["ERROR"],
      search: "timeout",
      notice: "search wrapped to the oldest line",
      noticeShort: "wrapped to oldest",
    };
    const at80 = text(ui, 80);
    expect(displayWidth(at80)).toBeLessThanOrEqual(80);
    expect(at80).toContain("  wrapped to oldest  ");
    expect(at80).not.toContain("…");
    expect(text(ui, 120)).toContain("search wrapped to the oldest line");
    // Without a shorter form of its own, the notice is cut as before.
    expect(text({ ...ui, noticeShort: undefined }, 80)).toContain("search wrapped to t…");
  });

  it("keeps the answer to the last key and the follower's error, cut if it must be", () => {
    const line = text({ notice: "no replica 7 (only 1, 2, 3)" }, 80, {
      ...follower,
      phase: "retrying",
      retries: 2,
      lastError: "network: ECONNREFUSED 127.0.0.1:9 after 5 attempts",
    });
    // The attempt count gives way before the answer, and both before the cause's 30 columns.
    expect(line).toContain("● retrying");
    expect(line).toContain("network: ECONNREFUSED 127.0.0…");
    expect(line).toContain("no replica 7");
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it("keeps at least 30 columns of the cause at 80 columns: an old notice, filters and figures give way", () => {
    const cause =
      "get_tvc_deployment_logs: HTTP 503 Service Unavailable: the deployment's log service is not answering";
    const retrying: FollowerState = {
      ...follower,
      phase: "retrying",
      retries: 8,
      nextPollAt: 12_400,
      lastSuccessAt: 1_000,
      lastError: cause,
    };
    const ui: Partial<UiState> = {
      notice:
        "saved 7,076 lines to /home/oncall/tickets/tvcwatch-0c7e55-incident-4411.ndjson (NDJSON)",
      include: ["ERROR|WARN"],
      hiddenReplicas: [2],
    };
    for (const width of [80, 100, 160]) {
      const line = statusLine(
        {
          follower: retrying,
          ui: { ...initialUiState, ...ui },
          buffered: 98_765,
          cap: 100_000,
          nowMono: 10_000,
          awaitingVotes: 2,
        },
        width,
      );
      const all = line.map((s) => s.text).join("");
      expect(displayWidth(all), `${width}: ${all}`).toBeLessThanOrEqual(width);
      const shown = line.find((s) => cause.startsWith(String(s.text).replace(/…$/, "")));
      expect(shown, `${width}: ${all}`).toBeDefined();
      expect(displayWidth(String(shown?.text)), `${width}: ${all}`).toBeGreaterThanOrEqual(30);
      expect(all).toContain("+/ERROR|WARN/");
    }
  });

  it("says when the next try is and which attempt, never 'gave up', and hides the stale rates", () => {
    const retrying: FollowerState = {
      ...follower,
      phase: "retrying",
      retries: 3,
      nextPollAt: 12_400,
      lastSuccessAt: 1_000,
      lastError: "connection refused by 127.0.0.1:8787",
    };
    const line = text({}, 160, retrying, 10_000);
    expect(line).toContain("● retrying in 3s, attempt 4");
    expect(line).toContain("connection refused by 127.0.0.1:8787");
    expect(line).toContain("last good poll 9s ago");
    // The rate and the latency are of a poll 9 s old: not shown as if current.
    expect(line).not.toContain("lines/s");
    expect(line).not.toContain("48ms");
    expect(line).not.toMatch(/gave up/);
    // The countdown moves with the clock, and says when the try is going out.
    expect(text({}, 160, retrying, 11_500)).toContain("● retrying in 1s, attempt 4");
    expect(text({}, 160, retrying, 12_400)).toContain("● retrying now, attempt 4");
    // The server's Retry-After is named as the reason for the wait.
    expect(text({}, 160, { ...retrying, retryAfter: true }, 10_000)).toContain(
      "● retrying in 3s (Retry-After), attempt 4",
    );
    // At 80 columns the countdown and the reason stay, cut before the buffer figures.
    const narrow = text({}, 80, retrying, 10_000);
    expect(displayWidth(narrow)).toBeLessThanOrEqual(80);
    expect(narrow).toContain("retrying in 3s");
    expect(narrow).toContain("connection refused");
  });

  it("saved lines: says what is still read as it comes, else that they are saved lines", () => {
    const saved = (reading: string | undefined, width: number) =>
      statusLine(
        { follower: undefined, reading, ui: initialUiState, buffered: 12, cap: 100 },
        width,
      )
        .map((s) => s.text)
        .join("");
    expect(saved(undefined, 80)).toBe("○ saved lines  following  12/100 buffered  ? help");
    expect(saved("standard input", 80)).toBe(
      "○ reading standard input  following  12/100 buffered  ? help",
    );
    expect(saved("standard input", 24)).toMatch(/^○ reading {2}follow/);
  });

  it("says that ! waits for the index for as long as it waits, after its notice is gone", () => {
    const waiting = (width: number) =>
      statusLine(
        {
          follower: undefined,
          ui: { ...initialUiState, riseWhenIndexed: true },
          buffered: 12,
          cap: 100,
        },
        width,
      )
        .map((s) => s.text)
        .join("");
    expect(waiting(80)).toBe(
      "○ saved lines  following  ! waits for the index  12/100 buffered  ? help",
    );
    expect(waiting(40)).toContain("! waits");
    expect(text({}, 160)).not.toContain("waits");
  });

  it("never goes past its width, however narrow", () => {
    for (let width = 20; width <= 200; width += 7) {
      const line = text({ following: false, search: "x".repeat(40), include: ["y"] }, width);
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
    const p = promptLine({ mode: "search", text: `${"a".repeat(100)}END` }, 80)
      .map((s) => s.text)
      .join("");
    expect(p).toContain("END▏");
    expect(displayWidth(p)).toBeLessThanOrEqual(80);
  });

  it("S's prompts fit 80 columns: the choices whole, then the lines counted and the name offered", () => {
    const joined = (input: Parameters<typeof promptLine>[0], width: number) =>
      promptLine(input, width)
        .map((s) => s.text)
        .join("");
    const which = joined({ mode: "saveRange", text: "" }, 80);
    expect(which).toContain("b bundle");
    expect(displayWidth(which)).toBeLessThanOrEqual(80);
    const save = {
      words: "between the marks",
      bundle: false,
      lines: 7067,
      markers: 2,
      defaultName: "tvcwatch-0c7e55-0.8.0-canary-20261127T053815Z-054015Z.ndjson",
    };
    const narrow = joined({ mode: "save", text: "", save }, 80);
    expect(narrow).toMatch(/^save 7,067 lines \+ 2 gaps \(between the marks\) to ▏\[…/);
    expect(narrow).toContain("054015Z.ndjson]");
    expect(displayWidth(narrow)).toBeLessThanOrEqual(80);
    const wide = joined({ mode: "save", text: "", save }, 160);
    expect(wide).toContain(`[${save.defaultName}]  Enter saves · Esc cancels`);
    // Typed, the name typed is shown.
    expect(joined({ mode: "save", text: "x.log", save }, 160)).toContain("to x.log▏");
  });
});
