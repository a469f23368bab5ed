import { describe, expect, it } from "vitest";
import { LogStore } from "../../src/tail/log-store.js";
import type { KeyInfo } from "../../src/tui/key-bindings.js";
import type { KeyContext } from "../../src/tui/key-step.js";
import { keyStep } from "../../src/tui/key-step.js";
import { logNavigator } from "../../src/tui/log-view.js";
import type { UiState } from "../../src/tui/ui-state.js";
import { initialUiState } from "../../src/tui/ui-state.js";
import { line } from "./fixtures.js";

function context(store: LogStore, over: Partial<KeyContext> = {}): KeyContext {
  return {
    panes: ["logs", "activities", "email", "solana"],
    log: logNavigator(store, 100, 20),
    logRows: 20,
    pageRows: 10,
    overlayMax: 30,
    replicas: new Set([1, 2, 3]),
    lists: { activities: ["a1", "a2", "a3"], email: ["m1"], solana: ["t1", "t2"] },
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

  it("Space pauses at the newest line and counts from there; Space again follows", () => {
    const paused = press(initialUiState, ctx, " ").state;
    expect(paused).toMatchObject({
      following: false,
      pausedAtTotal: 500,
      anchor: { line: 499, rowsBelow: 0 },
    });
    expect(press(paused, ctx, "p").state).toMatchObject({ following: true, anchor: undefined });
  });

  it("↑ ↓ PgUp PgDn move a paused view by rows; g is the oldest screenful, G follows", () => {
    const up = press(initialUiState, ctx, { upArrow: true }, { upArrow: true }).state;
    expect(up).toMatchObject({ following: false, anchor: { line: 497, rowsBelow: 0 } });
    expect(press(up, ctx, { downArrow: true }).state.anchor).toEqual({ line: 498, rowsBelow: 0 });
    expect(press(up, ctx, { pageUp: true }).state.anchor).toEqual({ line: 478, rowsBelow: 0 });
    expect(press(up, ctx, "g").state.anchor).toEqual({ line: 19, rowsBelow: 0 });
    expect(press(up, ctx, "g", { upArrow: true }).state.anchor).toEqual({ line: 19, rowsBelow: 0 });
    expect(press(up, ctx, "G").state).toMatchObject({ following: true, anchor: undefined });
    // Following, ↓ has nowhere to go.
    expect(press(initialUiState, ctx, { downArrow: true }).state).toBe(initialUiState);
  });

  it("/ searches; n and N move to older and newer matches; no match or no search says so", () => {
    const s = press(initialUiState, ctx, "/timeout\r").state;
    expect(s.search).toBe("timeout");
    const n1 = press(s, ctx, "n").state;
    expect(n1.anchor).toEqual({ line: 450, rowsBelow: 0 });
    const n2 = press(n1, ctx, "n").state;
    expect(n2.anchor).toEqual({ line: 400, rowsBelow: 0 });
    expect(press(n2, ctx, "N").state.anchor).toEqual({ line: 450, rowsBelow: 0 });
    const oldest = press(s, ctx, "g", "n", "n").state;
    expect(oldest.notice).toBe("no older match for /timeout/");
    expect(press(oldest, ctx, "t").state.notice).toBeUndefined();
    expect(press(initialUiState, ctx, "n").state.notice).toMatch(/no search/);
  });

  it("f and F set include and exclude regexes; an invalid one is an error; Esc clears", () => {
    const s = press(initialUiState, ctx, "fERROR|WARN\r", "Fheartbeat\r").state;
    expect(s).toMatchObject({ include: "ERROR|WARN", exclude: "heartbeat", input: undefined });
    const bad = press(initialUiState, ctx, "f(\r").state;
    expect(bad.include).toBeUndefined();
    expect(bad.inputError).toMatch(/^include: /);
    expect(press(s, ctx, { escape: true }).state).toMatchObject({
      include: undefined,
      exclude: undefined,
    });
    const typing = press(initialUiState, ctx, "fabc", { backspace: true }).state;
    expect(typing.input).toEqual({ mode: "include", text: "ab" });
    expect(press(typing, ctx, { escape: true }).state.input).toBeUndefined();
  });

  it("1-9 hide and show replicas the log has; another number says which there are", () => {
    const s = press(initialUiState, ctx, "2", "1", "3", "2").state;
    expect(s.hiddenReplicas).toEqual([1, 3]);
    const seven = press(initialUiState, ctx, "7").state;
    expect(seven.hiddenReplicas).toEqual([]);
    expect(seven.notice).toBe("no replica 7: the log has replicas 1, 2, 3");
  });

  it("t, w, s and e toggle timestamps, wrap, side panes and the email filter", () => {
    const s = press(initialUiState, ctx, "t", "w", "s", "e").state;
    expect(s).toMatchObject({
      timestamps: true,
      wrap: true,
      sidePanes: false,
      emailFilter: "Send",
    });
  });

  it("in a side pane ↑ ↓ select within its rows and Enter opens the selected row's detail", () => {
    const activities = press(initialUiState, ctx, { tab: true }, { downArrow: true }).state;
    expect(activities.selection.activities).toBe(1);
    expect(press(activities, ctx, { pageDown: true }).state.selection.activities).toBe(2);
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
  });

  it("typed-ahead text is taken one key at a time, each from the state the last one left", () => {
    expect(press(initialUiState, ctx, "/abc\rt").state).toMatchObject({
      search: "abc",
      timestamps: true,
    });
  });
});
