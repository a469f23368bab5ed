/**
 * `H` and `!` through the dashboard controller, without a terminal: the heatmap opened and
 * closed, and the cursor put where the incident began (the first error of a message the replica
 * had not printed before, not the usual error that opened the bucket), by its row id, over saved
 * lines and over a store a follow fills.
 */
import { describe, expect, it, vi } from "vitest";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { DashboardController } from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import { type LogSource, savedLogs } from "../../../src/tui/controller/ports.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { NOW } from "../fixtures.js";
import { stoppedClock } from "../render-dashboard.js";

/** A 20 s bucket boundary, 5 minutes before NOW. */
const T0 = NOW - 300_000 - (NOW % 20_000);

function line(ms: number, replica: number, content: string): LogLine {
  return {
    kind: "line",
    replicaLabel: `replica ${replica}/3`,
    seconds: String(Math.floor(ms / 1000)),
    nanos: (ms % 1000) * 1e6,
    sortKey: ms,
    content,
    late: false,
  };
}

/**
 * 12 buckets of 20 s: every replica logs 2 errors and 4 info lines in each; with `storm`,
 * replica 3 logs 20 errors more in bucket 8 (from T0 + 160 s), after its usual first one there:
 * `ERROR upstream timeout after 5000ms`, then the same with other figures.
 */
function lines(storm: boolean): LogLine[] {
  const out: LogLine[] = [];
  for (let b = 0; b < 12; b++) {
    for (let r = 1; r <= 3; r++) {
      const from = T0 + b * 20_000 + r * 100;
      for (let k = 0; k < 6; k++) {
        out.push(
          line(from + k * 3000, r, k < 2 ? `ERROR usual ${r}:${b}.${k}` : `INFO ok ${r}:${b}.${k}`),
        );
      }
      if (storm && b === 8 && r === 3) {
        for (let k = 0; k < 20; k++) {
          out.push(
            line(from + 500 + k * 700, r, `ERROR upstream timeout after ${5000 + k * 10}ms`),
          );
        }
      }
    }
  }
  return out.sort((a, b) => a.sortKey - b.sortKey);
}

/** The storm's first line. */
const FIRST_NEW = "ERROR upstream timeout after 5000ms";

const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");
const status = (s: DashboardSnapshot) => text(s.status);

function press(c: DashboardController, keys: string): void {
  for (const k of keys) {
    if (k === "\u001b") c.press("", { escape: true });
    else c.press(k, {});
  }
}

function dashboard(storm: boolean, logs: (store: LogStore) => LogSource = (s) => savedLogs(s)) {
  const store = new LogStore();
  store.append(lines(storm));
  const c = new DashboardController(
    { logs: logs(store), clock: stoppedClock(), quit: vi.fn() },
    {
      heading: { kind: "named", name: "incident.ndjson", deploymentId: "dep-1" },
      size: { columns: 80, rows: 24 },
    },
  );
  c.start();
  return { c, store };
}

/** The row id of the first line whose content is `content`. */
function idOf(store: LogStore, content: string): number {
  const row = store
    .slice(0, store.size())
    .find((r) => r.event.kind === "line" && r.event.content === content);
  if (!row) throw new Error(`no line ${content}`);
  return row.id;
}

describe("the error heatmap and the rise, through the controller", () => {
  it("! puts the cursor on the first new error where errors first rose, and says where and why", () => {
    const { c, store } = dashboard(true);
    expect(c.state.following).toBe(true);
    press(c, "!");
    expect(c.state.following).toBe(false);
    // Replica 3's bucket from T0 + 160 s: its first error there is its usual one (`ERROR usual
    // 3:8.0`, the same message as before but for its figures), then the storm's first.
    expect(c.state.cursor).toBe(idOf(store, FIRST_NEW));
    const row = store.rowById(c.state.cursor ?? -1);
    expect(row?.event.kind === "line" && row.event.replicaLabel).toBe("replica 3/3");
    expect(c.state.notice).toMatch(
      /^replica 3: first message new to it · errors rose at \d\d:\d\d:\d\d: 22 errors in 20s, 11× its median of 2$/,
    );
    // The status line says as much as fits at 80 columns: where, and the rule.
    expect(status(c.getSnapshot())).toContain("replica 3: first message new to it · ");
    // The cursor's line is on screen.
    const body = c.getSnapshot().body;
    if (body.kind !== "panes") throw new Error("no log pane");
    expect(body.log.view.rows.some((r) => text(r.segments).includes(FIRST_NEW))).toBe(true);
  });

  it("H opens the heatmap over the log, Esc or H closes it, and ! in it goes there too", () => {
    const { c, store } = dashboard(true);
    press(c, "H");
    const open = c.getSnapshot().body;
    expect(open.kind).toBe("heatmap");
    if (open.kind !== "heatmap") return;
    const rows = open.rows.map(text);
    expect(rows.filter((r) => r.startsWith("replica ")).length).toBe(3);
    expect(rows.find((r) => r.startsWith("replica 3"))).toContain("█");
    expect(rows.find((r) => r.startsWith("replica 1"))).not.toContain("█");
    expect(rows.join("\n")).toMatch(/errors first rose on replica 3 at \d\d:\d\d:\d\d: 22 errors/);
    expect(rows.join(" ")).toMatch(/! goes to its first error of a message not in its baseline/);
    press(c, "\u001b");
    expect(c.getSnapshot().body.kind).toBe("panes");
    press(c, "HH");
    expect(c.getSnapshot().body.kind).toBe("panes");
    press(c, "H!");
    expect(c.state.heatmap).toBe(false);
    expect(c.state.cursor).toBe(idOf(store, FIRST_NEW));
  });

  it("says so when the view hides that line, and when there is no rise", () => {
    const { c } = dashboard(true);
    press(c, "3!");
    expect(c.state.following).toBe(true);
    expect(c.state.notice).toMatch(
      /^replica 3: first message new to it, a line the view hides \(3 shows replica 3\) · errors rose at \d\d:\d\d:\d\d: 22 errors/,
    );
    const calm = dashboard(false).c;
    press(calm, "!");
    expect(calm.state.following).toBe(true);
    expect(calm.state.cursor).toBeUndefined();
    expect(calm.state.notice).toBe(
      "no rise above baseline: no replica had 3× its median errors per 20s and at least 5",
    );
  });

  it("reads a store a follow fills: the rise found again as lines arrive", () => {
    const all = lines(true);
    const store = new LogStore();
    const follow = { store, replicas: undefined } satisfies LogSource;
    const c = new DashboardController(
      { logs: follow, clock: stoppedClock(), quit: vi.fn() },
      { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
    );
    c.start();
    // Up to bucket 8's first lines: the storm has not come yet.
    const cut = all.findIndex((l) => l.content === FIRST_NEW);
    store.append(all.slice(0, cut));
    press(c, "!");
    expect(c.state.notice).toContain("no rise above baseline");
    store.append(all.slice(cut));
    press(c, "!");
    expect(c.state.cursor).toBe(idOf(store, FIRST_NEW));
  });
});
