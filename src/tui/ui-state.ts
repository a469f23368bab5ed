/**
 * The dashboard's interaction state as a pure reducer: focus, pause/follow and scroll, search,
 * include/exclude filters, replica visibility, toggles, help, detail view and text input.
 * Tested without a terminal; the components only dispatch actions and render.
 */

import { EMAIL_EVENT_TYPES } from "../api/schemas.js";

export type Pane = "logs" | "activities" | "email" | "solana";
export const PANES: readonly Pane[] = ["logs", "activities", "email", "solana"];

export type InputMode = "search" | "include" | "exclude";

/** The email pane's filter: none, then each event type the API documents. */
export const EMAIL_FILTERS = [undefined, ...EMAIL_EVENT_TYPES] as const;

export interface UiState {
  focus: Pane;
  /** Following the newest lines (false = paused). */
  following: boolean;
  /** Store size when paused: the view stays put while new lines count up. */
  pausedAtSize: number | undefined;
  /** Rows scrolled up from the bottom of the (paused) view. */
  scroll: number;
  search: string | undefined;
  /** Regex source of the include / exclude filters. */
  include: string | undefined;
  exclude: string | undefined;
  /** A filter or search that did not compile, shown in the status line. */
  inputError: string | undefined;
  /** Replica numbers hidden with the 1-9 keys. */
  hiddenReplicas: readonly number[];
  timestamps: boolean;
  wrap: boolean;
  sidePanes: boolean;
  help: boolean;
  /** Activity id shown in the detail view. */
  detail: string | undefined;
  /** Selected row in the focused side pane. */
  selection: Record<Pane, number>;
  emailFilter: (typeof EMAIL_FILTERS)[number];
  input: { mode: InputMode; text: string } | undefined;
  /** Set by `n`/`N`: the search match to jump to; the log pane resolves and clears it. */
  jump: { direction: 1 | -1; seq: number } | undefined;
}

export const initialUiState: UiState = {
  focus: "logs",
  following: true,
  pausedAtSize: undefined,
  scroll: 0,
  search: undefined,
  include: undefined,
  exclude: undefined,
  inputError: undefined,
  hiddenReplicas: [],
  timestamps: false,
  wrap: false,
  sidePanes: true,
  help: false,
  detail: undefined,
  selection: { logs: 0, activities: 0, email: 0, solana: 0 },
  emailFilter: undefined,
  input: undefined,
  jump: undefined,
};

export type UiAction =
  | { type: "cycleFocus"; panes: readonly Pane[] }
  | { type: "togglePause"; storeSize: number }
  | { type: "scroll"; by: number; storeSize: number }
  | { type: "scrollTo"; offset: number; storeSize: number }
  | { type: "top"; storeSize: number }
  | { type: "follow" }
  | { type: "select"; by: number; count: number }
  | { type: "startInput"; mode: InputMode }
  | { type: "inputText"; text: string }
  | { type: "inputBackspace" }
  | { type: "submitInput" }
  | { type: "cancel" }
  | { type: "jump"; direction: 1 | -1 }
  | { type: "jumpDone" }
  | { type: "toggleReplica"; replica: number }
  | { type: "toggleTimestamps" }
  | { type: "toggleWrap" }
  | { type: "toggleSidePanes" }
  | { type: "toggleHelp" }
  | { type: "openDetail"; id: string }
  | { type: "cycleEmailFilter" };

/** An error message when `source` is not a valid regular expression. */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source, "i");
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function pause(state: UiState, storeSize: number): UiState {
  return state.following ? { ...state, following: false, pausedAtSize: storeSize } : state;
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "cycleFocus": {
      const panes = action.panes.length > 0 ? action.panes : PANES;
      const i = panes.indexOf(state.focus);
      return { ...state, focus: panes[(i + 1) % panes.length] as Pane };
    }
    case "togglePause":
      return state.following
        ? pause(state, action.storeSize)
        : { ...state, following: true, pausedAtSize: undefined, scroll: 0 };
    case "scroll": {
      const paused = pause(state, action.storeSize);
      const scroll = Math.max(0, paused.scroll + action.by);
      if (scroll === 0 && action.by > 0 && state.scroll === 0) return state;
      return { ...paused, scroll };
    }
    case "scrollTo":
      return { ...pause(state, action.storeSize), scroll: Math.max(0, action.offset) };
    case "top":
      return { ...pause(state, action.storeSize), scroll: action.storeSize };
    case "follow":
      return { ...state, following: true, pausedAtSize: undefined, scroll: 0 };
    case "select": {
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
        ? { ...state, input: { ...state.input, text: state.input.text.slice(0, -1) } }
        : state;
    case "submitInput": {
      if (!state.input) return state;
      const { mode, text } = state.input;
      const value = text.length === 0 ? undefined : text;
      const error = value === undefined ? undefined : regexError(value);
      if (error) return { ...state, input: undefined, inputError: `${mode}: ${error}` };
      return { ...state, input: undefined, inputError: undefined, [mode]: value };
    }
    case "cancel":
      if (state.input) return { ...state, input: undefined };
      if (state.help) return { ...state, help: false };
      if (state.detail) return { ...state, detail: undefined };
      if (state.inputError) return { ...state, inputError: undefined };
      if (state.search || state.include || state.exclude) {
        return { ...state, search: undefined, include: undefined, exclude: undefined };
      }
      return state;
    case "jump":
      return state.search
        ? { ...state, jump: { direction: action.direction, seq: (state.jump?.seq ?? 0) + 1 } }
        : state;
    case "jumpDone":
      return { ...state, jump: undefined };
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
      return { ...state, help: !state.help };
    case "openDetail":
      return { ...state, detail: action.id };
    case "cycleEmailFilter": {
      const i = EMAIL_FILTERS.indexOf(state.emailFilter);
      return { ...state, emailFilter: EMAIL_FILTERS[(i + 1) % EMAIL_FILTERS.length] };
    }
  }
}

/** Every key of the dashboard, for the `?` help and the README. */
export const KEY_HELP: readonly (readonly [string, string])[] = [
  ["q, Ctrl-C", "quit"],
  ["?", "show or hide this help"],
  ["Tab", "cycle focus between panes"],
  ["Space, p", "pause / follow the log"],
  ["↑ ↓, PgUp PgDn", "scroll the log (or move the selection in a side pane)"],
  ["g, G", "oldest line / newest line (follow)"],
  ["/, n, N", "search (regex); n next (older) match, N previous (newer) match"],
  ["f, F", "include / exclude filter (regex)"],
  ["Esc", "close help, detail or input; clear search and filters"],
  ["1-9", "show or hide replica N"],
  ["t", "timestamps on / off"],
  ["w", "wrap long lines / truncate"],
  ["s", "side panes on / off"],
  ["e", "email pane: cycle the event-type filter"],
  ["Enter", "activity details (activities pane)"],
];
