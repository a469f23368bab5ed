import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { lit } from "../../../src/text/safe-text.js";
import { displayWidth } from "../../../src/text/terminal-width.js";
import { formatRows } from "../../../src/tui/log-view/line-rows.js";
import { compileFilters } from "../../../src/tui/log-view/log-filters.js";
import { logNavigator } from "../../../src/tui/log-view/log-navigator.js";
import { computeLogView, MAX_RENDERED_CHARS } from "../../../src/tui/log-view/log-view.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { initialUiState, type UiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

const rowText = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");
const state = (over: Partial<UiState> = {}): UiState => ({ ...initialUiState, ...over });

function storeWith(...contents: string[]): LogStore {
  const store = new LogStore({ maxLines: 1000, maxBytes: 256 * 1024 * 1024 });
  store.append(contents.map((c, i) => line(i, 1, c)));
  return store;
}

describe("long lines", () => {
  for (const [name, size] of [
    ["1 MB", 1_000_000],
    ["10 MB", 10_000_000],
  ] as const) {
    it(`a ${name} line wraps in bounded time and memory, producing only the visible rows`, () => {
      // Wrapping re-sliced the whole line for each row: 48 s for 1 MB, 10 MB froze the program.
      const big = `START ${"x".repeat(size)} END`;
      const store = storeWith("INFO before", big);
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      const view = computeLogView(store, state({ wrap: true }), 78, 20);
      const again = computeLogView(store, state({ wrap: true }), 78, 20);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeLessThan(2000);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
      expect(view.rows).toHaveLength(20);
      expect(again.rows.map((r) => r.key)).toEqual(view.rows.map((r) => r.key));
      // The bottom of the line is on screen, and says how much of it is not rendered.
      const last = view.rows.map((r) => rowText(r.segments).slice(4)).join("");
      expect(last).toContain(
        `${(big.length - MAX_RENDERED_CHARS).toLocaleString("en-US")} more characters`,
      );
      expect(last).not.toContain("END");
      for (const r of view.rows) expect(displayWidth(rowText(r.segments))).toBeLessThanOrEqual(78);
    });
  }

  it("scrolled to the top of a huge wrapped line, its first rows show", () => {
    const big = `START ${"y".repeat(2_000_000)}`;
    const store = storeWith(big);
    const started = performance.now();
    const nav = logNavigator(store, 78, 10);
    const top = nav.oldest(state({ wrap: true }))?.anchor;
    const view = computeLogView(
      store,
      state({ wrap: true, following: false, pausedAtTotal: 1, anchor: top }),
      78,
      10,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(rowText(view.rows[0]?.segments ?? [])).toContain("START");
    expect(view.rows).toHaveLength(10);
  });

  it("unwrapped, a long line is one row cut with an ellipsis", () => {
    const rows = formatRows(
      line(0, 2, `ERROR ${"z".repeat(500_000)}`),
      { time: "off", wrap: false },
      compileFilters(initialUiState),
      60,
    );
    expect(rows).toHaveLength(1);
    const text = rowText(rows[0] ?? []);
    expect(text.startsWith("[2] ERROR zzz")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(displayWidth(text)).toBe(60);
  });

  it("search highlights stay inside the rendered part and never split a grapheme", () => {
    const rows = formatRows(
      line(0, 1, "e\u0301te e\u0301te 👩‍💻 te"),
      { time: "off", wrap: true },
      compileFilters({ ...initialUiState, search: "e" }),
      40,
    );
    const segments = rows[0] ?? [];
    for (const s of segments) expect(s.text.startsWith("\u0301")).toBe(false);
    expect(rowText(segments)).toBe("[1] e\u0301te e\u0301te 👩💻 te");
    expect(segments.some((s) => s.inverse)).toBe(true);
    expect(lit`x`).toBe("x");
  });
});

const texts = (view: ReturnType<typeof computeLogView>) =>
  view.rows.map((r) => rowText(r.segments).trimEnd());

describe("a paused view", () => {
  const fill = (store: LogStore, from: number, n: number) =>
    store.append(Array.from({ length: n }, (_, i) => line(from + i, 1, `line ${from + i}`)));

  it("stays on its lines and its cursor when late lines are sorted in before them", () => {
    const store = new LogStore({ maxLines: 1000 });
    fill(store, 0, 40);
    const nav = logNavigator(store, 60, 5);
    const move = nav.toIndex(state(), 30);
    const paused = {
      ...state(),
      following: false,
      pausedAtTotal: 40,
      anchor: move?.anchor,
      cursor: move?.cursor,
    };
    const before = texts(computeLogView(store, paused, 60, 5));
    expect(before).toContain("[1]>line 30");
    // Late lines, older than every line on screen, go before them in time order.
    store.append([line(5, 2, "late a", true), line(6, 2, "late b", true)]);
    expect(texts(computeLogView(store, paused, 60, 5))).toEqual(before);
    expect(nav.cursorRow(paused)?.event).toMatchObject({ content: "line 30" });
  });

  it("keeps its lines when the buffer wraps, and its counter counts only what came", () => {
    const store = new LogStore({ maxLines: 100 });
    fill(store, 0, 100);
    const nav = logNavigator(store, 60, 5);
    const paused = {
      ...state(),
      following: false,
      pausedAtTotal: 100,
      anchor: nav.scroll(state(), 10)?.anchor,
    };
    const before = texts(computeLogView(store, paused, 60, 5));
    expect(before.at(-1)).toBe("[1] line 89");
    fill(store, 100, 50);
    const after = computeLogView(store, paused, 60, 5);
    expect(texts(after)).toEqual(before);
    expect(after).toMatchObject({ newWhilePaused: 50, newKept: 50, moved: false });
  });

  it("says when its lines left the buffer, and how many of the new lines were kept", () => {
    const store = new LogStore({ maxLines: 100 });
    fill(store, 0, 100);
    const nav = logNavigator(store, 60, 5);
    const top = {
      ...state(),
      following: false,
      pausedAtTotal: 100,
      anchor: nav.oldest(state())?.anchor,
    };
    expect(texts(computeLogView(store, top, 60, 5))[0]).toBe("[1] line 0");
    fill(store, 100, 250);
    const after = computeLogView(store, top, 60, 5);
    expect(after).toMatchObject({ moved: true, newWhilePaused: 250, newKept: 100 });
    expect(texts(after)[0]).toBe("[1] line 250");
  });

  it("paused before every line a filter keeps, shows the kept lines after it, never 'no line matches'", () => {
    const store = new LogStore({ maxLines: 100 });
    fill(store, 0, 40);
    store.append([line(40, 1, "WARN slow quorum"), line(41, 1, "WARN slow again")]);
    // Paused on the oldest line, then a filter none of the lines up to there matches.
    const paused = {
      ...state(),
      following: false,
      pausedAtTotal: 42,
      anchor: { line: 0, rowsBelow: 0 },
      include: ["WARN"],
    };
    const view = computeLogView(store, paused, 60, 5);
    expect(texts(view)).toEqual(["[1] WARN slow quorum", "[1] WARN slow again"]);
    expect(view.empty).toBeUndefined();
  });

  it("scrolls a wrapped line a row at a time", () => {
    const store = storeWith("a".repeat(50), "b".repeat(200));
    const nav = logNavigator(store, 54, 3);
    const wrap = state({ wrap: true });
    const up1 = nav.scroll(wrap, 1)?.anchor;
    expect(up1).toEqual({ line: 1, rowsBelow: 1, id: 2 });
    const view = computeLogView(
      store,
      { ...wrap, following: false, pausedAtTotal: 2, anchor: up1 },
      54,
      3,
    );
    expect(texts(view)).toEqual([
      `[1] ${"b".repeat(50)}`,
      `[1]↪${"b".repeat(50)}`,
      `[1]↪${"b".repeat(50)}`,
    ]);
    expect(nav.scroll(wrap, 3)?.anchor).toEqual({ line: 1, rowsBelow: 2, id: 2 });
  });
});

describe("rows", () => {
  it("continuation rows of a wrapped line keep the replica in the gutter, timestamps or not", () => {
    const rows = formatRows(
      line(0, 2, "x".repeat(30)),
      { time: "absolute", wrap: true },
      compileFilters(initialUiState),
      40,
    );
    const [first, second] = rows.map(rowText);
    expect(first).toMatch(/^\d\d:\d\d:\d\d\.\d{9} \[2\] x+$/);
    expect(second).toMatch(/^ +\[2\]↪x+$/);
    // The content starts in the same column on every row.
    expect(second?.indexOf("x")).toBe(first?.indexOf("x"));
  });

  it("tabs go to 8-column stops and wide glyphs never overflow the pane", () => {
    const rows = formatRows(
      line(0, 1, "\tat com.example.Service(Service.java:42) 用户登录 👩‍💻 done"),
      { time: "off", wrap: true },
      compileFilters(initialUiState),
      30,
    );
    expect(rowText(rows[0] ?? [])).toBe("[1]         at com.example.Ser");
    for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(30);
  });
});

describe("an empty view", () => {
  it("says why: waiting, all replicas hidden, or what the filters hide", () => {
    const store = new LogStore();
    expect(computeLogView(store, state(), 60, 5).empty).toBe("waiting for log lines…");
    store.append([line(0, 1, "INFO a"), line(1, 2, "INFO b")]);
    expect(
      computeLogView(store, state({ hiddenReplicas: [1, 2] }), 60, 5, { replicas: new Set([1, 2]) })
        .empty,
    ).toBe("all replicas hidden: press 1, 2 to show them");
    expect(computeLogView(store, state({ include: ["nope"] }), 60, 5).empty).toBe(
      "no line matches +/nope/ (2 lines hidden by the filters; Esc removes the last, X all)",
    );
    expect(computeLogView(store, state(), 60, 5).empty).toBeUndefined();
  });

  it("says why when only lifecycle markers pass, and shows the newest of them below", () => {
    const store = new LogStore();
    const marker = (i: number) => ({
      kind: "replica" as const,
      replicaLabel: "replica 2/3",
      text: `replica 2/3 joined ${i}`,
      sortKey: (line(i, 2, "x").sortKey as number) + 1,
    });
    store.append([line(0, 1, "INFO a"), marker(0), line(1, 2, "INFO b")]);
    const one = computeLogView(store, state({ include: ["nope"] }), 60, 5);
    expect(one.empty).toBe(
      "no line matches +/nope/ (3 lines hidden by the filters; Esc removes the last, X all)",
    );
    expect(texts(one).join("\n")).toContain("replica 2/3 joined 0");
    // More markers than the pane holds: the reason keeps its rows, the newest markers the rest.
    store.append(Array.from({ length: 8 }, (_, i) => marker(i + 2)));
    const many = computeLogView(store, state({ include: ["nope"] }), 60, 5);
    expect(many.rows).toHaveLength(2);
    expect(texts(many).join("\n")).toContain("joined 9");
    // Markers but no line yet, and nothing narrowed: still waiting.
    const fresh = new LogStore();
    fresh.append([marker(0)]);
    expect(computeLogView(fresh, state(), 60, 5).empty).toBe("waiting for log lines…");
  });
});
