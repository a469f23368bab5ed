/**
 * Which action a key press means, given the current state: pure, so every key is testable
 * without a terminal. Side effects (quit, jumping to a search match) come back as commands.
 */
import type { Pane, UiAction, UiState } from "./ui-state.js";

export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  tab?: boolean;
  escape?: boolean;
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

export interface KeyContext {
  panes: readonly Pane[];
  /** Lines ever appended to the log store (size + evicted). */
  total: number;
  logRows: number;
  activityCount: number;
  /** Id of the selected activity in the activities pane. */
  selectedActivityId: string | undefined;
}

export type KeyCommand =
  | UiAction
  | { type: "quit" }
  | { type: "findMatch"; direction: 1 | -1 }
  | undefined;

export function keyToCommand(
  ui: UiState,
  input: string,
  key: KeyInfo,
  ctx: KeyContext,
): KeyCommand {
  if (ui.input) {
    if (key.escape) return { type: "cancel" };
    if (key.return) return { type: "submitInput" };
    if (key.backspace || key.delete) return { type: "inputBackspace" };
    if (input && !key.ctrl && !key.meta) return { type: "inputText", text: input };
    return undefined;
  }
  if (input === "q" || (key.ctrl && input === "c")) return { type: "quit" };
  if (key.escape) return { type: "cancel" };
  if (input === "?") return { type: "toggleHelp" };
  if (key.tab) return { type: "cycleFocus", panes: ctx.panes };
  if (input === " " || input === "p") return { type: "togglePause", storeSize: ctx.total };
  if (input === "/") return { type: "startInput", mode: "search" };
  if (input === "f") return { type: "startInput", mode: "include" };
  if (input === "F") return { type: "startInput", mode: "exclude" };
  if (input === "t") return { type: "toggleTimestamps" };
  if (input === "w") return { type: "toggleWrap" };
  if (input === "s") return { type: "toggleSidePanes" };
  if (input === "e") return { type: "cycleEmailFilter" };
  if (/^[1-9]$/.test(input)) return { type: "toggleReplica", replica: Number(input) };
  if (input === "n") return { type: "findMatch", direction: -1 };
  if (input === "N") return { type: "findMatch", direction: 1 };
  if (ui.focus === "logs") {
    if (key.upArrow) return { type: "scroll", by: 1, storeSize: ctx.total };
    if (key.downArrow) return { type: "scroll", by: -1, storeSize: ctx.total };
    if (key.pageUp)
      return { type: "scroll", by: Math.max(1, ctx.logRows - 1), storeSize: ctx.total };
    if (key.pageDown)
      return { type: "scroll", by: -Math.max(1, ctx.logRows - 1), storeSize: ctx.total };
    if (input === "g") return { type: "top", storeSize: ctx.total };
    if (input === "G") return { type: "follow" };
    return undefined;
  }
  const count = ui.focus === "activities" ? ctx.activityCount : 100;
  if (key.upArrow) return { type: "select", by: -1, count };
  if (key.downArrow) return { type: "select", by: 1, count };
  if (key.pageUp) return { type: "select", by: -10, count };
  if (key.pageDown) return { type: "select", by: 10, count };
  if (key.return && ui.focus === "activities" && ctx.selectedActivityId)
    return { type: "openDetail", id: ctx.selectedActivityId };
  return undefined;
}

/**
 * Typed-ahead or pasted text arrives as one chunk ("fERROR\r"); it is handled a character at a
 * time, each with the key it stands for, so each key sees the state the previous one left.
 */
export function splitInput(input: string, key: KeyInfo): { input: string; key: KeyInfo }[] {
  const special =
    key.upArrow ||
    key.downArrow ||
    key.pageUp ||
    key.pageDown ||
    key.tab ||
    key.escape ||
    key.return ||
    key.ctrl ||
    key.meta;
  if (special || input.length <= 1) return [{ input, key }];
  return Array.from(input).map((ch) => {
    if (ch === "\r" || ch === "\n") return { input: "", key: { return: true } };
    if (ch === "\t") return { input: "", key: { tab: true } };
    if (ch === "\u007f" || ch === "\b") return { input: "", key: { backspace: true } };
    if (ch === "\u001b") return { input: "", key: { escape: true } };
    return { input: ch, key: {} };
  });
}
