import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import type { KeyInfo } from "../../../src/tui/keys/key-bindings.js";
import type { KeyContext } from "../../../src/tui/keys/key-step.js";
import { keyStep } from "../../../src/tui/keys/key-step.js";
import { logNavigator } from "../../../src/tui/log-view/log-navigator.js";
import type { UiState } from "../../../src/tui/state/ui-state.js";
import { initialUiState, uiReducer } from "../../../src/tui/state/ui-state.js";
import { line, NOW } from "../fixtures.js";

/** List rows with these keys, each named after its key. */
const rows = (...keys: string[]) => keys.map((key) => ({ key, name: `row ${key}` }));

function context(store: LogStore, over: Partial<KeyContext> = {}): KeyContext {
  return {
    panes: ["logs", "activities", "email", "solana"],
    log: logNavigator(store, 100, 20),
    logRows: 20,
    pageRows: 10,
    overlayMax: 30,
    replicas: new Set([1, 2, 3]),
    lists: { activities: rows("a1", "a2", "a3"), email: rows("m1"), solana: rows("t1", "t2") },
    now: Date.UTC(2026, 0, 1),
    ...over,
  };
}

const store500 = () => {
  const store = new LogStore({ maxLines: 1000 });
  store.append(
    Array.from({ length: 500 }, (_, i) =>
      line(i, (i % 3) + 1, i % 50 === 0 ? `ERROR timeout ${i}` : `INFO ok ${i}`),
    ),
  );
  return store;
};

/** Presses keys (strings are typed text, objects special keys) through the one key step. */
function press(state: UiState, ctx: KeyContext, ...keys: (string | KeyInfo)[]) {
  let s = state;
  const effects: string[] = [];
  for (const k of keys) {
    const r = typeof k === "string" ? keyStep(s, k, {}, ctx) : keyStep(s, "", k, ctx);
    s = r.state;
    effects.push(...r.effects.map((e) => e.type));
  }
  return { state: s, effects };
}

describe("the key step", () => {
  const ctx = context(store500());

  it("q and Ctrl-C quit, even while typing; D asks for the picker", () => {
    expect(press(initialUiState, ctx, "q").effects).toEqual(["quit"]);
    expect(keyStep(initialUiState, "c", { ctrl: true }, ctx).effects).toEqual([{ type: "quit" }]);
    const typing = press(initialUiState, ctx, "/").state;
    expect(press(typing, ctx, "q").state.input?.text).toBe("q");
    expect(keyStep(typing, "c", { ctrl: true }, ctx).effects).toEqual([{ type: "quit" }]);
    expect(press(initialUiState, ctx, "D").effects).toEqual(["picker"]);
  });

  it("? opens the help, ↑ ↓ scroll it within its length, Esc closes it", () => {
    const open = press(initialUiState, ctx, "?").state;
    expect(open.help).toBe(true);
    const scrolled = press(open, ctx, { downArrow: true }, { pageDown: true }).state;
    expect(scrolled.helpScroll).toBe(10);
    expect(press(scrolled, ctx, ...Array(10).fill({ pageDown: true })).state.helpScroll).toBe(30);
    expect(press(scrolled, ctx, { escape: true }).state.help).toBe(false);
  });

  it("Tab cycles focus over the panes shown", () => {
    const s = press(initialUiState, ctx, { tab: true }, { tab: true }).state;
    expect(s.focus).toBe("email");
    expect(press(s, ctx, { tab: true }, { tab: true }).state.focus).toBe("logs");
    expect(
      press(initialUiState, context(store500(), { panes: ["logs"] }), { tab: true }).state.focus,
    ).toBe("logs");
  });

  it("Space pauses at the newest line, the cursor on it, and counts from there; Space again follows", () => {
    const paused = press(initialUiState, ctx, " ").state;
    expect(paused).toMatchObject({
      following: false,
      pausedAtTotal: 500,
      anchor: { line: 499, rowsBelow: 0 },
      cursor: 500,
    });
    expect(press(paused, ctx, "p").state).toMatchObject({
      following: true,
      anchor: undefined,
      cursor: undefined,
    });
  });

  it("↑ ↓ move the line cursor (the view stays while it is on screen); PgUp PgDn page; g oldest, G follows", () => {
    const up = press(initialUiState, ctx, { upArrow: true }, { upArrow: true }).state;
    expect(up).toMatchObject({
      following: false,
      anchor: { line: 499, rowsBelow: 0 },
      cursor: 498,
    });
    expect(press(up, ctx, { downArrow: true }).state.cursor).toBe(499);
    // Past the top of the screen, the view follows the cursor.
    const high = press(up, ctx, ...Array(20).fill({ upArrow: true })).state;
    expect(high).toMatchObject({ cursor: 478, anchor: { line: 496, rowsBelow: 0 } });
    const paged = press(up, ctx, { pageUp: true }).state;
    expect(paged.anchor).toEqual({ line: 480, rowsBelow: 0, id: 481 });
    expect(paged.cursor).toBe(481);
    expect(press(up, ctx, "g").state).toMatchObject({
      anchor: { line: 19, rowsBelow: 0 },
      cursor: 1,
    });
    expect(press(up, ctx, "g", { upArrow: true }).state.anchor).toEqual({
      line: 19,
      rowsBelow: 0,
      id: 20,
    });
    expect(press(up, ctx, "G").state).toMatchObject({ following: true, anchor: undefined });
    // Following, ↓ has nowhere to go; at the newest line it stays.
    expect(press(initialUiState, ctx, { downArrow: true }).state.following).toBe(false);
    expect(press(initialUiState, ctx, { downArrow: true }).state.cursor).toBe(500);
  });

  it("/ goes to the nearest match, a third from the top, with a counter; N and n move; no match says so", () => {
    // From the live end, the newest match.
    const s = press(initialUiState, ctx, "/timeout\r").state;
    expect(s).toMatchObject({
      search: "timeout",
      cursor: 451,
      anchor: { line: 463, rowsBelow: 0 },
      matchPosition: { index: 10, total: 10 },
    });
    const n1 = press(s, ctx, "N").state;
    expect(n1).toMatchObject({ cursor: 401, matchPosition: { index: 9, total: 10 } });
    const n2 = press(n1, ctx, "N").state;
    expect(n2.cursor).toBe(351);
    expect(press(n2, ctx, "n").state.cursor).toBe(401);
    const oldest = press(s, ctx, "g", "N").state;
    expect(oldest).toMatchObject({
      cursor: 451,
      notice: "search wrapped to the newest line",
      noticeShort: "wrapped to newest",
    });
    expect(press(oldest, ctx, "t").state).toMatchObject({
      notice: undefined,
      noticeShort: undefined,
    });
    expect(press(initialUiState, ctx, "n").state.notice).toMatch(/no search/);
    expect(press(initialUiState, ctx, "/nothing-like-it\r").state.notice).toBe(
      "no match for /nothing-like-it/ in the buffer",
    );
  });

  it("/ searches toward newer lines from the cursor, as less does: n goes on newer, N back older", () => {
    // The cursor on the oldest line (itself a match): the nearest newer one.
    const s = press(initialUiState, ctx, "g", "/timeout\r").state;
    expect(s).toMatchObject({ cursor: 51, matchPosition: { index: 2, total: 10 } });
    expect(s.notice).toBeUndefined();
    const n = press(s, ctx, "n").state;
    expect(n).toMatchObject({ cursor: 101, matchPosition: { index: 3, total: 10 } });
    expect(press(n, ctx, "n").state.cursor).toBe(151);
    expect(press(n, ctx, "N").state).toMatchObject({ cursor: 51, matchPosition: { index: 2 } });
    // Past the newest match (the cursor 30 lines up from the newest), / wraps to the oldest.
    const high = press(initialUiState, ctx, ...Array(30).fill({ upArrow: true })).state;
    expect(high.cursor).toBe(470);
    expect(press(high, ctx, "/timeout\r").state).toMatchObject({
      cursor: 1,
      matchPosition: { index: 1, total: 10 },
      notice: "search wrapped to the oldest line",
    });
  });

  it("n past the newest match wraps to the oldest, N past the oldest to the newest, saying so", () => {
    // From the live end, the newest match, no wrap said.
    const s = press(initialUiState, ctx, "/timeout\r").state;
    expect(s).toMatchObject({ cursor: 451, matchPosition: { index: 10, total: 10 } });
    expect(s.notice).toBeUndefined();
    const wrapped = press(s, ctx, "n").state;
    expect(wrapped).toMatchObject({
      cursor: 1,
      matchPosition: { index: 1, total: 10 },
      notice: "search wrapped to the oldest line",
    });
    const on = press(wrapped, ctx, "n").state;
    expect(on).toMatchObject({ cursor: 51, notice: undefined });
    const back = press(on, ctx, "N", "N").state;
    expect(back).toMatchObject({
      cursor: 451,
      matchPosition: { index: 10, total: 10 },
      notice: "search wrapped to the newest line",
    });
  });

  it("never says no match while one is shown: / n N reach the one match from anywhere", () => {
    const store = new LogStore({ maxLines: 1000 });
    store.append(
      Array.from({ length: 300 }, (_, i) => line(i, 1, i === 150 ? "ERROR lonely" : `INFO ${i}`)),
    );
    const c = context(store);
    const starts: Record<string, UiState> = {
      following: initialUiState,
      "the oldest line": press(initialUiState, c, "g").state,
      "the line before it": { ...press(initialUiState, c, "g").state, cursor: 150 },
      "the line after it": { ...press(initialUiState, c, "g").state, cursor: 152 },
      "the newest line": press(initialUiState, c, " ").state,
    };
    const searched = press(initialUiState, c, "/lonely\r").state;
    for (const [where, start] of Object.entries(starts)) {
      const withSearch = { ...start, search: "lonely" };
      for (const [keys, from] of [
        ["/lonely\r", start],
        ["n", withSearch],
        ["N", withSearch],
      ] as const) {
        const after = press(from, c, keys).state;
        expect({ where, keys, cursor: after.cursor, match: after.matchPosition }).toEqual({
          where,
          keys,
          cursor: 151,
          match: { index: 1, total: 1 },
        });
        expect(after.notice ?? "").not.toMatch(/no match/);
      }
    }
    // On the one match, n comes round to it again.
    expect(press(searched, c, "n").state).toMatchObject({
      cursor: 151,
      notice: "search wrapped to the oldest line",
    });
    // Following again, n and N land on the newest match, as the first / does.
    const live = press(searched, c, "G").state;
    expect(press(live, c, "n").state).toMatchObject({ cursor: 151, notice: undefined });
    expect(press(live, c, "N").state).toMatchObject({ cursor: 151, notice: undefined });
    // None at all: said of the buffer, or of the lines shown when a filter hides the match.
    expect(press(initialUiState, c, "/zzz\r").state.notice).toBe(
      "no match for /zzz/ in the buffer",
    );
    expect(press(initialUiState, c, "Flonely\r", "/lonely\r").state.notice).toBe(
      "no match for /lonely/ in the lines shown",
    );
  });

  it("↑ in a prompt recalls earlier patterns, ↓ later ones", () => {
    const s = press(initialUiState, ctx, "/timeout\r", "/ERROR\r").state;
    expect(s.history.search).toEqual(["timeout", "ERROR"]);
    const typing = press(s, ctx, "/", { upArrow: true }).state;
    expect(typing.input?.text).toBe("ERROR");
    expect(press(typing, ctx, { upArrow: true }).state.input?.text).toBe("timeout");
    expect(press(typing, ctx, { upArrow: true }, { downArrow: true }).state.input?.text).toBe(
      "ERROR",
    );
    expect(press(typing, ctx, { downArrow: true }).state.input?.text).toBe("");
  });

  it("f adds include filters, F sets the exclude one; an invalid regex keeps the prompt open saying why", () => {
    const s = press(initialUiState, ctx, "fERROR|WARN\r", "ftimeout\r", "Fheartbeat\r").state;
    expect(s).toMatchObject({
      include: ["ERROR|WARN", "timeout"],
      exclude: "heartbeat",
      input: undefined,
    });
    const bad = press(initialUiState, ctx, "f(\r").state;
    expect(bad.include).toEqual([]);
    expect(bad.input).toMatchObject({
      mode: "include",
      text: "(",
      error: "invalid regex: missing closing ): `(`",
    });
    const typing = press(initialUiState, ctx, "fabc", { backspace: true }).state;
    expect(typing.input).toEqual({ mode: "include", text: "ab" });
    expect(press(typing, ctx, { escape: true }).state.input).toBeUndefined();
  });

  it("Esc closes one thing at a time, the innermost first; X clears every filter at once", () => {
    const s = press(
      initialUiState,
      ctx,
      "fERROR\r",
      "ftimeout\r",
      "Fheartbeat\r",
      "L",
      "C2\r",
      "/ok\r",
    ).state;
    expect(s).toMatchObject({ minLevel: "debug", context: 2, search: "ok" });
    const steps: Partial<UiState>[] = [];
    let at = s;
    for (let i = 0; i < 6; i++) {
      at = press(at, ctx, { escape: true }).state;
      steps.push({
        search: at.search,
        include: at.include,
        exclude: at.exclude,
        minLevel: at.minLevel,
        context: at.context,
      });
    }
    expect(steps).toEqual([
      {
        search: undefined,
        include: ["ERROR", "timeout"],
        exclude: "heartbeat",
        minLevel: "debug",
        context: 2,
      },
      {
        search: undefined,
        include: ["ERROR"],
        exclude: "heartbeat",
        minLevel: "debug",
        context: 2,
      },
      { search: undefined, include: [], exclude: "heartbeat", minLevel: "debug", context: 2 },
      { search: undefined, include: [], exclude: undefined, minLevel: "debug", context: 2 },
      { search: undefined, include: [], exclude: undefined, minLevel: undefined, context: 2 },
      { search: undefined, include: [], exclude: undefined, minLevel: undefined, context: 0 },
    ]);
    expect(press(s, ctx, "X").state).toMatchObject({
      search: undefined,
      include: [],
      exclude: undefined,
      minLevel: undefined,
      context: 0,
    });
    expect(press(initialUiState, ctx, "C", "x\r").state.input?.error).toMatch(/context: a number/);
  });

  it("! while a saved file is indexed waits; Esc cancels it after what is open over it, before the search", () => {
    const indexing = context(store500(), { indexing: () => 40 });
    const waiting = press(initialUiState, indexing, "/ok\r", "!").state;
    expect(waiting.riseWhenIndexed).toBe(true);
    expect(waiting.notice).toBe(
      "indexing 40%: ! goes to the onset once every line is in (Esc cancels)",
    );
    expect(press(waiting, indexing, "!").state.notice).toMatch(/^indexing 40%: ! still waits/);
    const help = press(waiting, indexing, "?", { escape: true }).state;
    expect(help).toMatchObject({ help: false, riseWhenIndexed: true, search: "ok" });
    expect(help.notice).toBeUndefined();
    const cancelled = press(help, indexing, { escape: true }).state;
    expect(cancelled).toMatchObject({
      riseWhenIndexed: false,
      search: "ok",
      notice: "! no longer waits for indexing",
    });
    expect(press(cancelled, indexing, { escape: true }).state.search).toBeUndefined();
  });

  it("L cycles the minimum level; e E w W go to errors and warnings, from the newest while following", () => {
    const levels = [1, 2, 3, 4, 5].map(
      (n) => press(initialUiState, ctx, ..."L".repeat(n).split("")).state.minLevel,
    );
    expect(levels).toEqual(["debug", "info", "warn", "error", undefined]);
    const e = press(initialUiState, ctx, "e").state;
    expect(e).toMatchObject({ following: false, cursor: 451 });
    expect(press(e, ctx, "E").state.cursor).toBe(401);
    expect(press(e, ctx, "E", "e").state.cursor).toBe(451);
    expect(press(e, ctx, "e").state.notice).toBe("no newer error");
    expect(press(initialUiState, ctx, "w").state.notice).toBe("no older warning in the buffer");
  });

  it("m marks the cursor's line, u and U go between marks; Enter opens the line; c copies; S saves; J goes to a time", () => {
    const marked = press(initialUiState, ctx, { upArrow: true }, "m", "E", "m").state;
    expect(marked.marks).toEqual([499, 451]);
    expect(press(marked, ctx, "u").state.cursor).toBe(499);
    expect(press(marked, ctx, "u", "U").state.cursor).toBe(451);
    expect(press(marked, ctx, "m").state.marks).toEqual([499]);
    expect(press(initialUiState, ctx, "u").state.notice).toBe("no marks: m marks a line");
    expect(press(initialUiState, ctx, "m").state.notice).toMatch(/no line under the cursor/);
    expect(press(marked, ctx, { return: true }).state.detail).toEqual({ pane: "line", key: "451" });
    expect(keyStep(marked, "c", {}, ctx).effects).toEqual([{ type: "copy", id: 451 }]);
    // S: which lines first (marked twice: b alone is a bundle between the marks).
    const range = keyStep(marked, "Sb\r", {}, ctx);
    expect(range.effects).toEqual([
      { type: "saveRange", choice: { range: { kind: "marks" }, bundle: true } },
    ]);
    expect(range.state.input).toBeUndefined();
    expect(keyStep(marked, "S15\r", {}, ctx).effects).toEqual([
      { type: "saveRange", choice: { range: { kind: "minutes", minutes: 15 }, bundle: false } },
    ]);
    // Then the file prompt the dashboard opens: Enter takes the name typed, or the one offered.
    const offer = {
      words: "the view",
      bundle: false,
      lines: 3,
      markers: 0,
      defaultName: "d.ndjson",
    };
    const prompt = uiReducer(marked, { type: "startInput", mode: "save", save: offer });
    expect(keyStep(prompt, "view.ndjson\r", {}, ctx).effects).toEqual([
      { type: "save", path: "view.ndjson" },
    ]);
    expect(keyStep(prompt, "", { return: true }, ctx).effects).toEqual([
      { type: "save", path: "d.ndjson" },
    ]);
    // line(i) is stamped NOW - 60 s + i × 100 ms (see ./fixtures.ts): line 200 at NOW - 40 s.
    const at200 = new Date(NOW - 40_000).toISOString();
    expect(press(initialUiState, ctx, `J${at200}\r`).state.cursor).toBe(201);
    const relative = press(initialUiState, context(store500(), { now: NOW }), "J-40s\r");
    expect(relative.state.cursor).toBe(201);
    expect(press(initialUiState, ctx, "Jyesterday\r").state.input?.error).toMatch(
      /^time: give -5m/,
    );
  });

  it("1-9 hide and show replicas the log has; another number says which there are", () => {
    const s = press(initialUiState, ctx, "2", "1", "3", "2").state;
    expect(s.hiddenReplicas).toEqual([1, 3]);
    const seven = press(initialUiState, ctx, "7").state;
    expect(seven.hiddenReplicas).toEqual([]);
    expect(seven.notice).toBe("no replica 7 (only 1, 2, 3)");
  });

  it("following, / and e count the newest line too (a marker or an error just arrived)", () => {
    const store = new LogStore();
    store.append(
      Array.from({ length: 10 }, (_, i) => line(i, 1, i === 9 ? "ERROR the newest" : `INFO ${i}`)),
    );
    const c = context(store);
    expect(press(initialUiState, c, "/newest\r").state.cursor).toBe(10);
    expect(press(initialUiState, c, "e").state.cursor).toBe(10);
  });

  it("o shows the cursor's replica alone and every replica again; 1-9 and X leave it", () => {
    // Following, the newest line's replica (line 499: replica 2).
    const alone = press(initialUiState, ctx, "o").state;
    expect(alone.onlyReplica).toBe(2);
    const shown = ctx.log.shownRows(alone).map((r) => r.event);
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.every((e) => e.kind === "line" && e.replicaLabel === "replica 2/3")).toBe(true);
    expect(press(alone, ctx, "o").state.onlyReplica).toBeUndefined();
    // Paused, the cursor's line (id 141 is line 140: replica 3).
    const paused = { ...initialUiState, following: false, cursor: 141, pausedAtTotal: 500 };
    expect(press(paused, ctx, "o").state.onlyReplica).toBe(3);
    // 1 with replica 2 alone: replica 1 shown beside it, 3 still hidden.
    const withOne = press(alone, ctx, "1").state;
    expect(withOne).toMatchObject({ onlyReplica: undefined, hiddenReplicas: [3] });
    // X shows every replica again, hidden or alone.
    expect(press(withOne, ctx, "X").state.hiddenReplicas).toEqual([]);
    expect(press(alone, ctx, "X").state.onlyReplica).toBeUndefined();
    const empty = context(new LogStore());
    expect(press(initialUiState, empty, "o").state.notice).toMatch(/^o: no line under the cursor/);
  });

  it("T cycles timestamps; Ctrl-W wraps, s hides the side panes, M filters emails", () => {
    const s = press(initialUiState, ctx, "T", "s", "M").state;
    const wrapped = keyStep(s, "w", { ctrl: true }, ctx).state;
    expect(wrapped).toMatchObject({
      time: "absolute",
      wrap: true,
      sidePanes: false,
      emailFilter: "Send",
    });
    expect(press(initialUiState, ctx, "T", "t").state.time).toBe("relative");
    expect(press(initialUiState, ctx, "T", "T", "T").state.time).toBe("off");
  });

  it("the selection is the record, not the row: arrivals above it, v and a poll keep it (issue #28)", () => {
    // Tab ↓ ↓: a3 selected, the third row.
    const chosen = press(
      initialUiState,
      ctx,
      { tab: true },
      { downArrow: true },
      { downArrow: true },
    );
    expect(chosen.state.selection.activities?.key).toBe("a3");
    // A new activity arrives at the top and another leaves: Enter and A still name a3.
    const arrived = context(store500(), {
      lists: { ...ctx.lists, activities: rows("a0", "a1", "a3") },
    });
    const enter = keyStep(chosen.state, "", { return: true }, arrived);
    expect(enter.state.detail).toEqual({ pane: "activities", key: "a3" });
    expect(keyStep(chosen.state, "A", {}, arrived).effects).toEqual([
      { type: "startVote", action: "approve", key: "a3" },
    ]);
    // v: the selection is kept (the pane's list is the dashboard's to filter).
    expect(press(chosen.state, arrived, "v").state.selection.activities?.key).toBe("a3");
    // ↓ goes on from where a3 is now.
    const withMore = context(store500(), {
      lists: { ...ctx.lists, activities: rows("a0", "a1", "a3", "a4") },
    });
    expect(press(chosen.state, withMore, { downArrow: true }).state.selection.activities?.key).toBe(
      "a4",
    );
  });

  it("once the selected record has left the list, Enter, A and R say so and act on nothing", () => {
    const chosen = press(initialUiState, ctx, { tab: true }, { downArrow: true }).state;
    expect(chosen.selection.activities?.key).toBe("a2");
    const left = context(store500(), { lists: { ...ctx.lists, activities: rows("a1", "a3") } });
    for (const [key, doing] of [
      ["A", "approve"],
      ["R", "reject"],
    ] as const) {
      const r = keyStep(chosen, key, {}, left);
      expect(r.effects).toEqual([]);
      expect(r.state.notice).toBe(
        `row a2 is no longer in the list: nothing to ${doing}; ↑ ↓ select another`,
      );
    }
    const enter = keyStep(chosen, "", { return: true }, left);
    expect(enter.state.detail).toBeUndefined();
    expect(enter.state.notice).toBe(
      "row a2 is no longer in the list: nothing to open; ↑ ↓ select another",
    );
    // ↓ selects the row now in its place.
    expect(press(chosen, left, { downArrow: true }).state.selection.activities?.key).toBe("a3");
  });

  it("A and R in an activity's detail vote on that activity; over another overlay they say why not (issue 36)", () => {
    const open = press(
      initialUiState,
      ctx,
      { tab: true },
      { downArrow: true },
      { downArrow: true },
    );
    const detail = keyStep(open.state, "", { return: true }, ctx).state;
    expect(detail.detail).toEqual({ pane: "activities", key: "a3" });
    // The detail's activity, by its key, whatever the list shows now.
    const moved = context(store500(), { lists: { ...ctx.lists, activities: rows("a0", "a3") } });
    for (const [key, action] of [
      ["A", "approve"],
      ["R", "reject"],
    ] as const) {
      const r = keyStep(detail, key, {}, moved);
      expect(r.effects).toEqual([{ type: "startVote", action, key: "a3" }]);
      expect(r.state.detail).toEqual({ pane: "activities", key: "a3" });
    }
    // A log line's detail is no activity; nor is the help.
    const line = { ...initialUiState, detail: { pane: "line" as const, key: "7" } };
    const onLine = keyStep(line, "A", {}, ctx);
    expect(onLine.effects).toEqual([]);
    expect(onLine.state.notice).toBe(
      "A approves an activity: this detail is not one (Enter on the Activities pane opens one)",
    );
    const help = keyStep({ ...detail, help: true }, "R", {}, ctx);
    expect(help.effects).toEqual([]);
    expect(help.state.notice).toBe("R rejects an activity: close the help first (Esc)");
  });

  it("a pane focused while empty selects nothing: A says to select, ↓ selects the first row", () => {
    const empty = context(store500(), { lists: { ...ctx.lists, activities: [] } });
    const focused = press(initialUiState, empty, { tab: true }).state;
    expect(focused.selection.activities).toBeUndefined();
    const a = keyStep(focused, "A", {}, ctx);
    expect(a.effects).toEqual([]);
    expect(a.state.notice).toBe("no activity selected: ↑ ↓ select one");
    expect(press(focused, ctx, { downArrow: true }).state.selection.activities?.key).toBe("a1");
  });

  it("in a side pane ↑ ↓ select within its rows and Enter opens the selected row's detail", () => {
    const activities = press(initialUiState, ctx, { tab: true }, { downArrow: true }).state;
    expect(activities.selection.activities?.key).toBe("a2");
    expect(press(activities, ctx, { pageDown: true }).state.selection.activities?.key).toBe("a3");
    expect(press(activities, ctx, { return: true }).state.detail).toEqual({
      pane: "activities",
      key: "a2",
    });
    const solana = press(
      initialUiState,
      ctx,
      { tab: true },
      { tab: true },
      { tab: true },
      { downArrow: true },
      { return: true },
    ).state;
    expect(solana.detail).toEqual({ pane: "solana", key: "t2" });
    const email = press(initialUiState, ctx, { tab: true }, { tab: true }, { return: true }).state;
    expect(email.detail).toEqual({ pane: "email", key: "m1" });
    // In a detail, ↑ ↓ scroll it; Esc closes it.
    expect(press(email, ctx, { downArrow: true }).state.detailScroll).toBe(1);
    expect(press(email, ctx, { escape: true }).state.detail).toBeUndefined();
  });

  it("Esc and a key typed close together (read as Alt-key) are taken as Esc, then the key", () => {
    const help = press(initialUiState, ctx, "?").state;
    const next = keyStep(help, "", { meta: true, tab: true }, ctx).state;
    expect(next).toMatchObject({ help: false, focus: "activities" });
    // Esc then Tab ("\x1b\t") reach the key step as a bare "\t", neither Tab nor Alt.
    const detail = press(initialUiState, ctx, { tab: true }, { return: true }).state;
    expect(detail.detail).toEqual({ pane: "activities", key: "a1" });
    const after = keyStep(detail, "\t", {}, ctx).state;
    expect(after).toMatchObject({ detail: undefined, focus: "email" });
  });

  it("typed-ahead text is taken one key at a time, each from the state the last one left", () => {
    expect(press(initialUiState, ctx, "/abc\rt").state).toMatchObject({
      search: "abc",
      time: "absolute",
    });
  });
});
