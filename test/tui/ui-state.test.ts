import { describe, expect, it } from "vitest";
import type { KeyContext } from "../../src/tui/key-map.js";
import { keyToCommand, splitInput } from "../../src/tui/key-map.js";
import type { UiState } from "../../src/tui/ui-state.js";
import { initialUiState, KEY_HELP, uiReducer } from "../../src/tui/ui-state.js";

const ctx: KeyContext = {
  panes: ["logs", "activities", "email", "solana"],
  total: 500,
  logRows: 20,
  activityCount: 5,
  selectedActivityId: "act-1",
};

/** Presses keys through the key map and the reducer, as the dashboard does. */
function press(
  state: UiState,
  ...keys: (string | Parameters<typeof keyToCommand>[2])[]
): { state: UiState; commands: string[] } {
  let s = state;
  const commands: string[] = [];
  for (const k of keys) {
    const presses = typeof k === "string" ? splitInput(k, {}) : [{ input: "", key: k }];
    for (const p of presses) {
      const c = keyToCommand(s, p.input, p.key, ctx);
      if (!c) continue;
      commands.push(c.type);
      if (c.type !== "quit" && c.type !== "findMatch") s = uiReducer(s, c);
    }
  }
  return { state: s, commands };
}

describe("every key in the help", () => {
  it("lists the keys the dashboard answers to", () => {
    const keys = KEY_HELP.map(([k]) => k).join(" ");
    for (const k of [
      "q",
      "Ctrl-C",
      "?",
      "Tab",
      "Space",
      "p",
      "PgUp",
      "PgDn",
      "g",
      "G",
      "/",
      "n",
      "N",
      "f",
      "F",
      "Esc",
      "1-9",
      "t",
      "w",
      "s",
      "e",
      "Enter",
    ]) {
      expect(keys).toContain(k);
    }
  });

  it("q and Ctrl-C quit", () => {
    expect(press(initialUiState, "q").commands).toEqual(["quit"]);
    expect(keyToCommand(initialUiState, "c", { ctrl: true }, ctx)?.type).toBe("quit");
  });

  it("? toggles help and Esc closes it", () => {
    const open = press(initialUiState, "?").state;
    expect(open.help).toBe(true);
    expect(press(open, { escape: true }).state.help).toBe(false);
    expect(press(open, "?").state.help).toBe(false);
  });

  it("Tab cycles focus over the panes shown", () => {
    const s = press(initialUiState, { tab: true }, { tab: true }).state;
    expect(s.focus).toBe("email");
    expect(press(s, { tab: true }, { tab: true }).state.focus).toBe("logs");
  });

  it("Space and p pause and follow, counting from where it paused", () => {
    const paused = press(initialUiState, " ").state;
    expect(paused).toMatchObject({ following: false, pausedAtSize: 500 });
    expect(press(paused, "p").state).toMatchObject({
      following: true,
      pausedAtSize: undefined,
      scroll: 0,
    });
  });

  it("arrows, PgUp, PgDn, g and G scroll the log (and scrolling up pauses)", () => {
    const up = press(initialUiState, { upArrow: true }, { upArrow: true }).state;
    expect(up).toMatchObject({ following: false, scroll: 2 });
    expect(press(up, { downArrow: true }).state.scroll).toBe(1);
    expect(press(up, { pageUp: true }).state.scroll).toBe(21);
    expect(press(press(up, { pageUp: true }).state, { pageDown: true }).state.scroll).toBe(2);
    expect(press(initialUiState, "g").state.scroll).toBe(500);
    expect(press(up, "G").state).toMatchObject({ following: true, scroll: 0 });
  });

  it("/ searches, n and N look for the next and previous match", () => {
    const s = press(initialUiState, "/", "time", { return: true }).state;
    expect(s.search).toBe("time");
    expect(press(s, "n").commands).toEqual(["findMatch"]);
    expect(keyToCommand(s, "N", {}, ctx)).toEqual({ type: "findMatch", direction: 1 });
    expect(keyToCommand(s, "n", {}, ctx)).toEqual({ type: "findMatch", direction: -1 });
  });

  it("f and F set include and exclude regexes; an invalid one is an error; Esc clears", () => {
    const s = press(initialUiState, "fERROR|WARN\r", "Fheartbeat\r").state;
    expect(s).toMatchObject({ include: "ERROR|WARN", exclude: "heartbeat", input: undefined });
    const bad = press(initialUiState, "f(\r").state;
    expect(bad.include).toBeUndefined();
    expect(bad.inputError).toMatch(/^include: /);
    expect(press(s, { escape: true }).state).toMatchObject({
      include: undefined,
      exclude: undefined,
    });
    const typing = press(initialUiState, "fabc", { backspace: true }).state;
    expect(typing.input).toEqual({ mode: "include", text: "ab" });
    expect(press(typing, { escape: true }).state.input).toBeUndefined();
  });

  it("1-9 show or hide a replica", () => {
    const s = press(initialUiState, "2", "1", "3", "2").state;
    expect(s.hiddenReplicas).toEqual([1, 3]);
  });

  it("t, w and s toggle timestamps, wrap and side panes", () => {
    const s = press(initialUiState, "t", "w", "s").state;
    expect(s).toMatchObject({ timestamps: true, wrap: true, sidePanes: false });
    expect(press(s, "t", "w", "s").state).toMatchObject({
      timestamps: false,
      wrap: false,
      sidePanes: true,
    });
  });

  it("e cycles the email event-type filter", () => {
    const seen = [];
    let s = initialUiState;
    for (let i = 0; i < 6; i++) {
      s = press(s, "e").state;
      seen.push(s.emailFilter);
    }
    expect(seen).toEqual(["Send", "Delivery", "Bounce", "DeliveryDelay", "Complaint", undefined]);
  });

  it("Enter opens the selected activity's details in the activities pane; Esc closes", () => {
    const focused = press(initialUiState, { tab: true }, { downArrow: true }).state;
    expect(focused.selection.activities).toBe(1);
    const detail = press(focused, { return: true }).state;
    expect(detail.detail).toBe("act-1");
    expect(press(detail, { escape: true }).state.detail).toBeUndefined();
  });

  it("typed-ahead text is taken one key at a time", () => {
    expect(press(initialUiState, "/abc\r", "t").state).toMatchObject({
      search: "abc",
      timestamps: true,
    });
  });
});
