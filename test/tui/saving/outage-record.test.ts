/**
 * Honest through an outage, without a terminal: the record of failed polls (pure), and the
 * controller with a follow whose state the test sets and a clock it moves: the log pane's title
 * says retrying and why, the log gets a marker when polls succeed again, notices expire.
 */
import { describe, expect, it, vi } from "vitest";
import type { StoreEvent } from "../../../src/logs/model/log-line.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import type { FollowerState } from "../../../src/tail/follower.js";
import type { FollowSource } from "../../../src/tail/follower-group.js";
import {
  DashboardController,
  NOTICE_MS,
} from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import type { Ticker } from "../../../src/tui/controller/ports.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { clockTime, OutageRecord } from "../../../src/tui/saving/outage-record.js";
import { line, NOW } from "../fixtures.js";

const ESC = "\u001b";

const LIVE: FollowerState = {
  phase: "live",
  retries: 0,
  lastSuccessAt: 0,
  linesPerSecond: 3,
  linesEmitted: 0,
  gaps: 0,
  entriesServed: 0,
  arrival: { overlapMs: 0, lateLines: 0, recentLateMs: 0, measured: false },
};

const CAUSE = "get_tvc_deployment_logs: HTTP 503 Service Unavailable (the sim's fault)";

/** A follow whose state the test sets; its monotonic clock is the test's wall clock minus NOW. */
class SetFollow implements FollowSource {
  private listeners = new Set<() => void>();
  state: FollowerState = LIVE;
  constructor(private readonly clock: { ms: number }) {}
  set(patch: Partial<FollowerState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }
  subscribe(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  getState() {
    return this.state;
  }
  retryNow() {}
  monotonicNow() {
    return this.clock.ms - NOW;
  }
}

/** A clock the test moves; its ticks run when it is moved past them. */
function manualClock() {
  const clock = { ms: NOW };
  const ticks: { every: number; next: number; tick: () => void }[] = [];
  const ticker: Ticker = {
    now: () => clock.ms,
    every(ms, tick) {
      const t = { every: ms, next: clock.ms + ms, tick };
      ticks.push(t);
      return () => ticks.splice(ticks.indexOf(t), 1);
    },
  };
  const advance = (ms: number) => {
    const end = clock.ms + ms;
    for (;;) {
      const due = ticks.filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      clock.ms = due.next;
      due.next += due.every;
      due.tick();
    }
    clock.ms = end;
  };
  return { clock, ticker, advance };
}

const text = (segments: readonly Segment[]) => segments.map((s) => String(s.text)).join("");
const status = (s: DashboardSnapshot) => text(s.status);
const right = (s: DashboardSnapshot) =>
  s.body.kind === "panes" ? String(s.body.log.right) : `(${s.body.kind})`;
const markers = (store: LogStore) =>
  store
    .slice(0, store.size())
    .map((r) => r.event)
    .filter((e): e is Extract<StoreEvent, { kind: "replica" }> => e.kind === "replica");

function setup(columns = 160, rows = 48) {
  const { clock, ticker, advance } = manualClock();
  const store = new LogStore({ maxLines: 1000 });
  store.append(Array.from({ length: 30 }, (_, i) => line(i, (i % 3) + 1, `INFO req ${i}`)));
  const follow = new SetFollow(clock);
  const written: string[] = [];
  const files = { writeNew: (_path: string, text: string) => void written.push(text) };
  const c = new DashboardController(
    { logs: { store, follow }, clock: ticker, files, quit: vi.fn() },
    { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns, rows } },
  );
  c.start();
  return { c, store, follow, clock, advance, written };
}

/** Types each character of `keys` (\r is Enter, ESC is Escape). */
function press(c: DashboardController, keys: string): void {
  for (const k of keys) {
    if (k === "\r") c.press("", { return: true });
    else if (k === ESC) c.press("", { escape: true });
    else c.press(k, {});
  }
}

describe("the outage record", () => {
  it("makes one marker when polls succeed again: the span from the last answer and the polls that failed", () => {
    const r = new OutageRecord();
    const at = (s: number) => NOW + s * 1000;
    // The last answer was at 3 s; the first failure is seen at 5 s.
    const mono = (s: number) => s * 1000;
    const failing = { ...LIVE, phase: "retrying" as const, lastSuccessAt: mono(3), lastError: "x" };
    expect(r.observe({ state: LIVE, now: at(3), monoNow: mono(3) })).toBeUndefined();
    expect(r.observe({ state: { ...failing, retries: 1 }, now: at(5), monoNow: mono(5) })).toBe(
      undefined,
    );
    expect(r.ongoing).toBe(true);
    for (let n = 2; n <= 9; n++)
      r.observe({
        state: { ...failing, retries: n },
        now: at(5 + n * 3),
        monoNow: mono(5 + n * 3),
      });
    const marker = r.observe({
      state: { ...LIVE, lastSuccessAt: mono(31), clockOffsetMs: 250 },
      now: at(31),
      monoNow: mono(31),
    });
    expect(marker).toEqual({
      kind: "replica",
      replicaLabel: "tvcwatch",
      text: `no answer ${clockTime(at(3))}–${clockTime(at(31))} (28 s, 9 polls); lines of that time were fetched after`,
      sortKey: at(31) + 250,
    });
    expect(r.ongoing).toBe(false);
    // Live again and again: nothing more to say.
    expect(r.observe({ state: LIVE, now: at(33), monoNow: mono(33) })).toBeUndefined();
    // Kept for a bundle on the server's clock (the lines' times): the offset added.
    const ended = { from: at(3) + 250, to: at(31) + 250, failedPolls: 9, cause: "x" };
    expect(r.spans(at(40))).toEqual([{ ...ended, ongoing: false }]);
    // Failing again: the span under way, up to the moment asked.
    r.observe({
      state: { ...failing, retries: 2, lastError: "y" },
      now: at(50),
      monoNow: mono(50),
    });
    expect(r.spans(at(52))).toEqual([
      { ...ended, ongoing: false },
      { from: at(3) + 250, to: at(52) + 250, failedPolls: 2, cause: "y", ongoing: true },
    ]);
  });

  it("says nothing when the follow stops for good instead of coming back", () => {
    const r = new OutageRecord();
    r.observe({ state: { ...LIVE, phase: "retrying", retries: 1 }, now: NOW, monoNow: 0 });
    expect(r.observe({ state: { ...LIVE, phase: "failed" }, now: NOW, monoNow: 0 })).toBe(
      undefined,
    );
    expect(r.observe({ state: LIVE, now: NOW + 1000, monoNow: 1000 })).toBeUndefined();
  });

  it("times are the dashboard's: the local zone's hours, minutes and seconds", () => {
    expect(clockTime(NOW)).toMatch(/^\d\d:\d\d:\d\d$/);
  });
});

describe("the dashboard through an outage", () => {
  it("says retrying and why in the log pane's title, then marks the outage in the log", () => {
    const { c, store, follow, advance } = setup();
    expect(right(c.getSnapshot())).toBe("following");
    advance(2000);
    follow.set({ lastSuccessAt: follow.monotonicNow() });
    const from = NOW + 2000;
    advance(1000);
    follow.set({ phase: "retrying", retries: 1, lastError: CAUSE });
    expect(right(c.getSnapshot())).toBe(`retrying: ${CAUSE.slice(0, 31)}…`);
    for (let n = 2; n <= 4; n++) {
      advance(3000);
      follow.set({ retries: n });
    }
    expect(markers(store)).toEqual([]);
    advance(2000);
    follow.set({ phase: "live", retries: 0, lastSuccessAt: follow.monotonicNow() });
    expect(right(c.getSnapshot())).toBe("following");
    const to = NOW + 14_000;
    expect(markers(store).map((m) => m.text)).toEqual([
      `no answer ${clockTime(from)}–${clockTime(to)} (12 s, 4 polls); lines of that time were fetched after`,
    ]);
    // Shown in the log pane, where the follow is.
    const panes = c.getSnapshot().body;
    if (panes.kind !== "panes") throw new Error("no panes");
    expect(panes.log.view.rows.map((r) => text(r.segments)).join("\n")).toContain(
      `── no answer ${clockTime(from)}–`,
    );
  });

  it("paused, the title says both", () => {
    const { c, follow } = setup();
    c.press(" ", {});
    follow.set({ phase: "retrying", retries: 1, lastError: "connection refused" });
    expect(right(c.getSnapshot())).toBe("paused · retrying: connection refused");
  });

  it("keeps 30 columns of the cause in the status line at 80 columns, past an old notice", () => {
    const { c, follow } = setup(80, 24);
    c.press("7", {});
    expect(status(c.getSnapshot())).toContain("no replica 7");
    follow.set({ phase: "retrying", retries: 3, lastError: CAUSE });
    expect(status(c.getSnapshot())).toContain(`${CAUSE.slice(0, 29)}…`);
  });

  it("a notice goes after a few seconds on the clock, or at the next key", () => {
    const { c, advance } = setup();
    c.press("7", {});
    expect(c.state.notice).toBe("no replica 7 (only 1, 2, 3)");
    advance(NOTICE_MS - 1000);
    expect(c.state.notice).toBeDefined();
    advance(1000);
    expect(c.state.notice).toBeUndefined();
    expect(status(c.getSnapshot())).not.toContain("no replica 7");
    // The same answer again is a new notice, with its own few seconds.
    c.press("7", {});
    advance(NOTICE_MS - 1000);
    c.press("8", {});
    advance(NOTICE_MS - 1000);
    expect(c.state.notice).toBe("no replica 8 (only 1, 2, 3)");
    c.press("T", {});
    expect(c.state.notice).toBeUndefined();
  });

  it("a bundle lists when polls got no answer (the one under way too), with the gap markers", async () => {
    const { c, store, follow, advance, written } = setup();
    const rfc = (ms: number) => new Date(ms).toISOString();
    // The last answer at NOW; four polls fail until NOW + 12 s; the server's clock 250 ms ahead.
    follow.set({ lastSuccessAt: follow.monotonicNow(), clockOffsetMs: 250 });
    advance(1000);
    follow.set({ phase: "retrying", retries: 1, lastError: CAUSE });
    advance(11_000);
    follow.set({ retries: 4 });
    follow.set({ phase: "live", retries: 0, lastSuccessAt: follow.monotonicNow() });
    // The lines of that time, fetched after; a gap marker of lines the server no longer had.
    store.append([
      line(700, 1, "INFO during the outage"),
      { kind: "gap", from: NOW - 59_000, to: NOW - 58_000, reason: "gone", sortKey: NOW - 58_000 },
    ]);
    // Polls fail again, still when the bundle is written.
    advance(5000);
    follow.set({ phase: "retrying", retries: 2, lastError: "connection refused" });
    advance(3000);
    press(c, "Sba\r");
    press(c, "/tmp/outage.bundle.ndjson\r");
    await vi.waitFor(() => expect(written).toHaveLength(1));
    const header = JSON.parse(written[0]?.split("\n")[0] ?? "{}").tvcwatch;
    expect(header.outages).toEqual([
      { from: rfc(NOW - 59_000), to: rfc(NOW - 58_000), reason: "gone" },
      {
        from: rfc(NOW + 250),
        to: rfc(NOW + 12_250),
        reason: `no answer: ${CAUSE}`,
        failedPolls: 4,
      },
      {
        from: rfc(NOW + 12_250),
        to: rfc(NOW + 20_250),
        reason: "no answer: connection refused",
        failedPolls: 2,
        ongoing: true,
      },
    ]);
    // Read back as written, every field checked.
    const { readJsonHeader } = await import("../../../src/logs/saved/saved-header.js");
    const read = readJsonHeader({ tvcwatch: header });
    expect(read.outages).toEqual(header.outages);
    expect(read.problems).toEqual([]);
  });

  it("a bundle over lines before an outage that ended leaves that outage out", async () => {
    const { c, follow, advance, written } = setup();
    follow.set({ lastSuccessAt: follow.monotonicNow() });
    advance(1000);
    follow.set({ phase: "retrying", retries: 1, lastError: CAUSE });
    advance(3000);
    follow.set({ phase: "live", retries: 0, lastSuccessAt: follow.monotonicNow() });
    press(c, "Sba\r/tmp/before.bundle.ndjson\r");
    await vi.waitFor(() => expect(written).toHaveLength(1));
    expect(JSON.parse(written[0]?.split("\n")[0] ?? "{}").tvcwatch.outages).toEqual([]);
  });
});
