/**
 * The key-press step, pure and in one place: from the state and a key (or a chunk of typed-ahead
 * text), through the binding table, to the next state and the effects for the shell (quit, back
 * to the picker). The dashboard runs it; the tests run the same function.
 */
import type { VoteAction } from "../feeds/activity-decision.js";
import type { Binding, KeyInfo, Scope } from "./key-bindings.js";
import { keyName, lookup } from "./key-bindings.js";
import type { LogNavigator } from "./log-view.js";
import type { ListPane, Pane, UiAction, UiState } from "./ui-state.js";
import { uiReducer } from "./ui-state.js";
import { cancelledText } from "./vote-state.js";

export interface KeyContext {
  /** The panes Tab cycles through (those on screen). */
  panes: readonly Pane[];
  log: LogNavigator;
  /** Rows of the log pane (a page). */
  logRows: number;
  /** Rows a page of a side pane or an overlay moves. */
  pageRows: number;
  /** How far the open help or detail view can scroll. */
  overlayMax: number;
  /** Replica numbers seen so far (1-9 for another one says so). */
  replicas: ReadonlySet<number>;
  /** The keys of the rows of each list pane, in order (selection and detail views). */
  lists: Readonly<Record<ListPane, readonly string[]>>;
}

export type KeyEffect =
  | { type: "quit" }
  | { type: "picker" }
  | { type: "retryNow" }
  /** A or R on the selected activity: the dashboard checks it can be voted on and confirms. */
  | { type: "startVote"; action: VoteAction }
  /** y in the confirmation: the dashboard sends the vote. */
  | { type: "sendVote" };

export interface KeyResult {
  state: UiState;
  effects: KeyEffect[];
}

/**
 * Typed-ahead or pasted text arrives as one chunk ("fERROR\r"); it is taken a character at a
 * time, each with the key it stands for, so each key sees the state the previous one left.
 */
export function splitInput(input: string, key: KeyInfo): { input: string; key: KeyInfo }[] {
  // Esc and the next key close together arrive as one Alt-key ("\x1b\t"): no binding uses Alt,
  // so it is taken as what was typed, Esc then the key.
  if (key.meta && !key.escape) {
    return [{ input: "", key: { escape: true } }, ...splitInput(input, { ...key, meta: false })];
  }
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

/** The scopes a key is looked up in, innermost first. */
export function scopesFor(state: UiState): Scope[] {
  if (state.input) return ["input"];
  if (state.vote) return ["vote"];
  if (state.help || state.detail) return ["overlay", "anywhere"];
  return [state.focus === "logs" ? "logs" : "lists", "dashboard", "anywhere"];
}

/** The action(s) a binding means now, resolved against the log and the panes. */
function resolve(
  b: Binding,
  name: string,
  state: UiState,
  ctx: KeyContext,
): UiAction | KeyEffect | undefined {
  const page = (rows: number) => Math.max(1, rows - 1);
  switch (b.action) {
    case "quit":
      return { type: "quit" };
    case "picker":
      return { type: "picker" };
    case "retryNow":
      return { type: "retryNow" };
    case "followStatus":
      return { type: "openDetail", pane: "follow", key: "" };
    case "needsMyVote":
      return { type: "toggleNeedsMyVote" };
    case "approve":
    case "reject":
      if (state.focus !== "activities")
        return {
          type: "notice",
          text: `${name} ${b.action}s: Tab to the Activities pane first`,
        };
      return { type: "startVote", action: b.action };
    case "confirmVote":
      return state.vote?.phase === "confirm" ? { type: "sendVote" } : undefined;
    case "help":
      return { type: "toggleHelp" };
    case "cancel":
      return { type: "cancel" };
    case "focus":
      return { type: "cycleFocus", panes: ctx.panes };
    case "pause":
      return state.following ? { type: "pause", total: ctx.log.total() } : { type: "follow" };
    case "search":
      return { type: "startInput", mode: "search" };
    case "include":
      return { type: "startInput", mode: "include" };
    case "exclude":
      return { type: "startInput", mode: "exclude" };
    case "olderMatch":
    case "newerMatch": {
      if (!state.search) return { type: "notice", text: "no search: press / to search first" };
      const older = b.action === "olderMatch";
      const anchor = ctx.log.findMatch(state, older ? -1 : 1);
      return anchor
        ? { type: "moveTo", anchor, total: ctx.log.total() }
        : { type: "notice", text: `no ${older ? "older" : "newer"} match for /${state.search}/` };
    }
    case "replica": {
      const n = Number(name);
      if (!ctx.replicas.has(n) && !state.hiddenReplicas.includes(n)) {
        const known = [...ctx.replicas].sort((a, b) => a - b);
        return {
          type: "notice",
          text:
            known.length === 0
              ? `no replica ${n}: no lines yet`
              : `no replica ${n} (only ${known.join(", ")})`,
        };
      }
      return { type: "toggleReplica", replica: n };
    }
    case "timestamps":
      return { type: "toggleTimestamps" };
    case "wrap":
      return { type: "toggleWrap" };
    case "sidePanes":
      return { type: "toggleSidePanes" };
    case "emailFilter":
      return { type: "cycleEmailFilter" };
    case "up":
    case "down":
    case "pageUp":
    case "pageDown": {
      const sign = b.action === "up" || b.action === "pageUp" ? 1 : -1;
      const paged = b.action === "pageUp" || b.action === "pageDown";
      if (b.scope === "overlay") {
        return {
          type: "scrollOverlay",
          by: -sign * (paged ? page(ctx.pageRows) : 1),
          max: ctx.overlayMax,
        };
      }
      if (b.scope === "lists" && state.focus !== "logs") {
        return {
          type: "select",
          by: -sign * (paged ? page(ctx.pageRows) : 1),
          count: ctx.lists[state.focus].length,
        };
      }
      const anchor = ctx.log.scroll(state, sign * (paged ? page(ctx.logRows) : 1));
      return anchor ? { type: "moveTo", anchor, total: ctx.log.total() } : undefined;
    }
    case "oldest": {
      const anchor = ctx.log.oldest(state);
      return anchor ? { type: "moveTo", anchor, total: ctx.log.total() } : undefined;
    }
    case "newest":
      return { type: "follow" };
    case "open": {
      if (state.focus === "logs") return undefined;
      const key = ctx.lists[state.focus][state.selection[state.focus]];
      return key === undefined ? undefined : { type: "openDetail", pane: state.focus, key };
    }
    case "apply":
      return { type: "submitInput" };
    case "erase":
      return { type: "inputBackspace" };
    case "pick":
    case "retry":
      return undefined;
  }
}

/** One key press (or a chunk of typed text): the next state and what the shell must do. */
export function keyStep(state: UiState, input: string, key: KeyInfo, ctx: KeyContext): KeyResult {
  let s = state;
  const effects: KeyEffect[] = [];
  for (const press of splitInput(input, key)) {
    if (s.notice) s = { ...s, notice: undefined };
    const name = keyName(press.input, press.key);
    // Ctrl-C quits whatever is open, even while typing.
    const binding = lookup(name === "ctrl+c" ? ["anywhere"] : scopesFor(s), name);
    if (s.vote && binding?.action !== "quit" && (!binding || s.vote.phase !== "confirm")) {
      // A confirmation: any key but y cancels it (nothing was sent); a result: any key closes it.
      if (s.vote.phase === "sending") continue;
      const cancelled = s.vote.phase === "confirm" ? cancelledText(s.vote.action) : undefined;
      s = uiReducer(s, { type: "vote", change: { type: "closeVote" } });
      if (cancelled) s = uiReducer(s, { type: "notice", text: cancelled });
      continue;
    }
    if (!binding) {
      // Typing: any other printable key goes into the prompt.
      if (s.input && press.input && !press.key.ctrl && !press.key.meta) {
        s = uiReducer(s, { type: "inputText", text: press.input });
      }
      continue;
    }
    const result = resolve(binding, name as string, s, ctx);
    if (!result) continue;
    if (result.type === "sendVote") {
      s = uiReducer(s, { type: "vote", change: { type: "sendVote" } });
      effects.push(result);
      continue;
    }
    if (
      result.type === "quit" ||
      result.type === "picker" ||
      result.type === "retryNow" ||
      result.type === "startVote"
    ) {
      effects.push(result);
      if (result.type === "quit") break;
      continue;
    }
    s = uiReducer(s, result);
  }
  return { state: s, effects };
}
