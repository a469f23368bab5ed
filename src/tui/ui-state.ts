/**
 * The dashboard's interaction state as a pure reducer: focus, follow or a paused position in the
 * log, search, include/exclude filters, replica visibility, toggles, help, detail views, text
 * input and a one-line notice. Tested without a terminal; keys become actions in key-step.ts.
 */

import { EMAIL_EVENT_TYPES } from "../api/schemas.js";
import type { VoteUi, VoteUiAction } from "./vote-state.js";
import { voteReducer } from "./vote-state.js";

export type Pane = "logs" | "activities" | "email" | "solana";
export const PANES: readonly Pane[] = ["logs", "activities", "email", "solana"];
export type ListPane = Exclude<Pane, "logs">;
/** What a detail view can show: a list pane's row, or the log follow's status (`i`). */
export type DetailSource = ListPane | "follow";

export type InputMode = "search" | "include" | "exclude";

/** The email pane's filter: none, then each event type the API documents. */
export const EMAIL_FILTERS = [undefined, ...EMAIL_EVENT_TYPES] as const;

/** A paused view's place: the line at its bottom, by absolute index (lines ever appended before). */
export interface LogAnchor {
  line: number;
  /** Rows of that line (wrapped) below the view's bottom. */
  rowsBelow: number;
}

export interface UiState {
  focus: Pane;
  /** Following the newest lines (false = paused). */
  following: boolean;
  /** Lines ever appended when the view paused: new lines are counted from it. */
  pausedAtTotal: number | undefined;
  /** Where a paused view is; undefined while following. */
  anchor: LogAnchor | undefined;
  search: string | undefined;
  /** Regex source of the include / exclude filters. */
  include: string | undefined;
  exclude: string | undefined;
  /** A filter or search that did not compile, shown in the status line. */
  inputError: string | undefined;
  /** A one-line answer to the last key (a replica that does not exist...); the next key clears it. */
  notice: string | undefined;
  /** Replica numbers hidden with the 1-9 keys. */
  hiddenReplicas: readonly number[];
  timestamps: boolean;
  wrap: boolean;
  sidePanes: boolean;
  help: boolean;
  helpScroll: number;
  /** The item shown in a detail view: its pane and its key in that pane's view model. */
  detail: { pane: DetailSource; key: string } | undefined;
  detailScroll: number;
  /** Selected row in each list pane. */
  selection: Record<ListPane, number>;
  emailFilter: (typeof EMAIL_FILTERS)[number];
  input: { mode: InputMode; text: string } | undefined;
  /** A vote on an activity being confirmed, sent, or its result (`A` / `R`). */
  vote: VoteUi | undefined;
  /** The activities pane shows only those awaiting my vote (`v`). */
  needsMyVote: boolean;
}

export const initialUiState: UiState = {
  focus: "logs",
  following: true,
  pausedAtTotal: undefined,
  anchor: undefined,
  search: undefined,
  include: undefined,
  exclude: undefined,
  inputError: undefined,
  notice: undefined,
  hiddenReplicas: [],
  timestamps: false,
  wrap: false,
  sidePanes: true,
  help: false,
  helpScroll: 0,
  detail: undefined,
  detailScroll: 0,
  selection: { activities: 0, email: 0, solana: 0 },
  emailFilter: undefined,
  input: undefined,
  vote: undefined,
  needsMyVote: false,
};

export type UiAction =
  | { type: "cycleFocus"; panes: readonly Pane[] }
  | { type: "pause"; total: number }
  | { type: "follow" }
  /** A paused view moved to `anchor` (scrolling, g, n, N: resolved against the store). */
  | { type: "moveTo"; anchor: LogAnchor; total: number }
  | { type: "select"; by: number; count: number }
  | { type: "startInput"; mode: InputMode }
  | { type: "inputText"; text: string }
  | { type: "inputBackspace" }
  | { type: "submitInput" }
  | { type: "cancel" }
  | { type: "toggleReplica"; replica: number }
  | { type: "toggleTimestamps" }
  | { type: "toggleWrap" }
  | { type: "toggleSidePanes" }
  | { type: "toggleHelp" }
  | { type: "scrollOverlay"; by: number; max: number }
  | { type: "openDetail"; pane: DetailSource; key: string }
  | { type: "cycleEmailFilter" }
  | { type: "notice"; text: string }
  | { type: "vote"; change: VoteUiAction }
  | { type: "toggleNeedsMyVote" };

/** An error message when `source` is not a valid regular expression. */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source, "i");
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "cycleFocus": {
      const panes = action.panes.length > 0 ? action.panes : PANES;
      const i = panes.indexOf(state.focus);
      return { ...state, focus: panes[(i + 1) % panes.length] as Pane };
    }
    case "pause":
      return state.following
        ? {
            ...state,
            following: false,
            pausedAtTotal: action.total,
            anchor: { line: action.total - 1, rowsBelow: 0 },
          }
        : state;
    case "follow":
      return { ...state, following: true, pausedAtTotal: undefined, anchor: undefined };
    case "moveTo":
      return {
        ...state,
        following: false,
        pausedAtTotal: state.following ? action.total : state.pausedAtTotal,
        anchor: action.anchor,
      };
    case "select": {
      if (state.focus === "logs") return state;
      const current = state.selection[state.focus];
      const next = Math.max(0, Math.min(Math.max(0, action.count - 1), current + action.by));
      return { ...state, selection: { ...state.selection, [state.focus]: next } };
    }
    case "startInput":
      return { ...state, input: { mode: action.mode, text: "" }, inputError: undefined };
    case "inputText":
      return state.input
        ? { ...state, input: { ...state.input, text: state.input.text + action.text } }
        : state;
    case "inputBackspace":
      return state.input
        ? {
            ...state,
            input: { ...state.input, text: Array.from(state.input.text).slice(0, -1).join("") },
          }
        : state;
    case "submitInput": {
      if (!state.input) return state;
      const { mode, text } = state.input;
      const value = text.length === 0 ? undefined : text;
      const error = value === undefined ? undefined : regexError(value);
      if (error) return { ...state, input: undefined, inputError: `${mode}: ${error}` };
      return { ...state, input: undefined, inputError: undefined, [mode]: value };
    }
    case "vote":
      return { ...state, vote: voteReducer(state.vote, action.change) };
    case "toggleNeedsMyVote":
      return {
        ...state,
        needsMyVote: !state.needsMyVote,
        selection: { ...state.selection, activities: 0 },
      };
    case "cancel":
      if (state.input) return { ...state, input: undefined };
      if (state.help) return { ...state, help: false };
      if (state.detail) return { ...state, detail: undefined };
      if (state.inputError) return { ...state, inputError: undefined };
      if (state.search || state.include || state.exclude) {
        return { ...state, search: undefined, include: undefined, exclude: undefined };
      }
      return state;
    case "toggleReplica": {
      const hidden = state.hiddenReplicas.includes(action.replica)
        ? state.hiddenReplicas.filter((r) => r !== action.replica)
        : [...state.hiddenReplicas, action.replica].sort((a, b) => a - b);
      return { ...state, hiddenReplicas: hidden };
    }
    case "toggleTimestamps":
      return { ...state, timestamps: !state.timestamps };
    case "toggleWrap":
      return { ...state, wrap: !state.wrap };
    case "toggleSidePanes":
      return {
        ...state,
        sidePanes: !state.sidePanes,
        focus: state.sidePanes ? "logs" : state.focus,
      };
    case "toggleHelp":
      return { ...state, help: !state.help, helpScroll: 0 };
    case "scrollOverlay": {
      const clamp = (n: number) => Math.max(0, Math.min(action.max, n));
      return state.help
        ? { ...state, helpScroll: clamp(state.helpScroll + action.by) }
        : { ...state, detailScroll: clamp(state.detailScroll + action.by) };
    }
    case "openDetail":
      return { ...state, detail: { pane: action.pane, key: action.key }, detailScroll: 0 };
    case "cycleEmailFilter": {
      const i = EMAIL_FILTERS.indexOf(state.emailFilter);
      return { ...state, emailFilter: EMAIL_FILTERS[(i + 1) % EMAIL_FILTERS.length] };
    }
    case "notice":
      return { ...state, notice: action.text };
  }
}
