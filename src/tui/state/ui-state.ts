/**
 * The dashboard's interaction state as a pure reducer: focus, follow or a paused position in the
 * log, search, include/exclude filters, replica visibility, toggles, help, detail views, text
 * input and a one-line notice. Tested without a terminal; keys become actions in key-step.ts.
 */

import { EMAIL_EVENT_TYPES } from "../../api/email-event-types.js";
import { queryProblem } from "../../logs/field-query.js";
import { parseFieldList } from "../../logs/formats/field-list.js";
import type { TimeWindow } from "../../logs/line-filter.js";
import type { LogLevel } from "../../text/log-level.js";
import { patternProblem } from "../../text/pattern.js";
import type { Selected } from "./list-selection.js";
import type { VoteUi, VoteUiAction } from "./vote-state.js";
import { voteReducer } from "./vote-state.js";

export type Pane = "logs" | "activities" | "email" | "solana";
export const PANES: readonly Pane[] = ["logs", "activities", "email", "solana"];
export type ListPane = Exclude<Pane, "logs">;
/** What a detail view can show: a list pane's row, a log line (Enter) or the follow's status (`i`). */
export type DetailSource = ListPane | "follow" | "line";

/**
 * A detail view open: its pane and key; in a log line's detail, the id it mentions chosen (its
 * record's identity, ../panes/known-ids.ts); a record opened from a line's detail goes back to
 * it (`from`) on Esc.
 */
export interface DetailOpen {
  pane: DetailSource;
  key: string;
  chosen?: string | undefined;
  from?: DetailOpen | undefined;
}

/**
 * What a prompt asks for: a search or filter regex, context lines, a time to go to, which lines
 * to save (`S`), then the file to save them to, or a key or word to find in the help.
 */
export type InputMode =
  | "search"
  | "include"
  | "exclude"
  | "where"
  | "columns"
  | "context"
  | "jump"
  | "saveRange"
  | "save"
  | "helpFind";

/** What the file prompt of `S` offers: the lines chosen, counted, and the name Enter takes. */
export interface SaveOffer {
  /** The range in words ("the view", "between the marks"), and whether it is a bundle. */
  words: string;
  bundle: boolean;
  lines: number;
  markers: number;
  defaultName: string;
}

/** Timestamps before each line (`T` cycles). */
export type TimeMode = "off" | "absolute" | "relative";
export const TIME_MODES: readonly TimeMode[] = ["off", "absolute", "relative"];

/** The minimum-level filter (`L` cycles): none, then each level up to error. */
export const LEVEL_STEPS: readonly (LogLevel | undefined)[] = [
  undefined,
  "debug",
  "info",
  "warn",
  "error",
];

/** Where the current search match is: its place among all matches, oldest first. */
export interface MatchPosition {
  index: number;
  total: number;
}

/** The email pane's filter: none, then each event type the API documents. */
export const EMAIL_FILTERS = [undefined, ...EMAIL_EVENT_TYPES] as const;

/**
 * A paused view's place: the line at its bottom, by absolute index (lines ever appended before)
 * and by id. The id holds the view on that line when rows are put before it after it was placed
 * (a late line sorted into the past, a marker): by index alone the view would slide down the log,
 * away from the cursor a search put on screen.
 */
export interface LogAnchor {
  line: number;
  /** Rows of that line (wrapped) below the view's bottom. */
  rowsBelow: number;
  /** The id of that line, when known: it wins over `line` while the buffer holds it. */
  id?: number | undefined;
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
  /** Where the cursor's match is among all of them (`3/45`), as of the last n / N / search. */
  matchPosition: MatchPosition | undefined;
  /** Regex sources of the include filters (a line must match every one) and the exclude one. */
  include: readonly string[];
  exclude: string | undefined;
  /** Field queries (src/logs/field-query.ts; `=`): a line's event must satisfy every one. */
  where: readonly string[];
  /** Only lines of this level or more severe (with their continuation lines). */
  minLevel: LogLevel | undefined;
  /** Lines shown around each line the filters keep, as grep -C. */
  context: number;
  /** Lines shown as columns of these fields (`|`, src/logs/formats/field-columns.ts); off: undefined. */
  columns: readonly string[] | undefined;
  /** Only events from / until these times (`open --since / --until`), and the range in words. */
  timeRange: (TimeWindow & { words: string }) | undefined;
  /** The line cursor of a paused view: a row id of the store. */
  cursor: number | undefined;
  /** Marked lines (row ids), `m`. */
  marks: readonly number[];
  /** A line shown alone, to be selected and copied (`c` without --clipboard): its row id. */
  copy: number | undefined;
  /** Patterns typed before, per prompt, oldest first (↑ recalls them). */
  history: Readonly<Partial<Record<InputMode, readonly string[]>>>;
  /** A filter or search that did not compile, shown in the status line. */
  inputError: string | undefined;
  /**
   * A one-line answer to the last key (a replica that does not exist, a file saved...); the next
   * key clears it, and the controller after a few seconds.
   */
  notice: string | undefined;
  /** The notice's own shorter form, for a status line without room for it (else it is cut). */
  noticeShort: string | undefined;
  /** Replica numbers hidden with the 1-9 keys. */
  hiddenReplicas: readonly number[];
  /** The replica shown alone (`o`): every other one hidden, those that join later too. */
  onlyReplica: number | undefined;
  /** Following several deployments, the one shown alone (`d` cycles); undefined: all of them. */
  onlyDeployment: { id: string; label: string } | undefined;
  time: TimeMode;
  wrap: boolean;
  sidePanes: boolean;
  /** The side panes' events shown among the log's lines, in time order (`I`). */
  events: boolean;
  help: boolean;
  helpScroll: number;
  /** The error heatmap over the whole buffer (`H`), and how far it is scrolled. */
  heatmap: boolean;
  heatmapScroll: number;
  /**
   * `!` pressed while the start of a saved file is still indexed: it goes to the onset once every
   * line is in (once; Esc cancels).
   */
  riseWhenIndexed: boolean;
  /** What `/` in the help found it by: only the keys and marks it matches are listed. */
  helpFind: string | undefined;
  /** The item shown in a detail view: its pane and its key in that pane's view model. */
  detail: DetailOpen | undefined;
  detailScroll: number;
  /** The selected record of each list pane, by its key (never a row number); none at first. */
  selection: Record<ListPane, Selected | undefined>;
  emailFilter: (typeof EMAIL_FILTERS)[number];
  /** A prompt being typed; `recall` is the history entry shown (↑ / ↓), `error` why Enter failed. */
  input:
    | { mode: InputMode; text: string; recall?: number; error?: string; save?: SaveOffer }
    | undefined;
  /** A vote on an activity being confirmed, sent, or its result (`A` / `R`). */
  vote: VoteUi | undefined;
  /** The activities pane shows only those awaiting my vote (`v`). */
  needsMyVote: boolean;
}

/** Every filter, the level, the context and the search off (`X`, and at start). */
const NO_FILTERS = {
  search: undefined,
  matchPosition: undefined,
  include: [],
  exclude: undefined,
  where: [],
  minLevel: undefined,
  context: 0,
  timeRange: undefined,
} as const satisfies Partial<UiState>;

export const initialUiState: UiState = {
  focus: "logs",
  following: true,
  pausedAtTotal: undefined,
  anchor: undefined,
  ...NO_FILTERS,
  cursor: undefined,
  columns: undefined,
  marks: [],
  copy: undefined,
  history: {},
  inputError: undefined,
  notice: undefined,
  noticeShort: undefined,
  hiddenReplicas: [],
  onlyReplica: undefined,
  onlyDeployment: undefined,
  time: "off",
  wrap: false,
  sidePanes: true,
  events: false,
  help: false,
  helpScroll: 0,
  heatmap: false,
  heatmapScroll: 0,
  riseWhenIndexed: false,
  helpFind: undefined,
  detail: undefined,
  detailScroll: 0,
  selection: { activities: undefined, email: undefined, solana: undefined },
  emailFilter: undefined,
  input: undefined,
  vote: undefined,
  needsMyVote: false,
};

export type UiAction =
  | { type: "cycleFocus"; panes: readonly Pane[] }
  /** Pause with the cursor on `cursor` (the newest line shown). */
  | { type: "pause"; total: number; cursor: number | undefined; newest?: number | undefined }
  | { type: "follow" }
  /**
   * A paused view moved to `anchor` (scrolling, g, n, e, a mark, a time: resolved against the
   * store), the cursor to `cursor`; `match` is the cursor's place among the search's matches.
   */
  | {
      type: "moveTo";
      anchor: LogAnchor;
      total: number;
      cursor: number | undefined;
      match?: MatchPosition | undefined;
    }
  /** A list pane's selection, as the key step moved it (list-selection.ts). */
  | { type: "select"; pane: ListPane; selected: Selected | undefined }
  | { type: "startInput"; mode: InputMode; save?: SaveOffer | undefined }
  | { type: "inputText"; text: string }
  | { type: "inputBackspace" }
  /** ↑ (-1, older) or ↓ (+1) in a prompt: the pattern typed before. */
  | { type: "recall"; by: -1 | 1 }
  /** Enter in a search, filter or context prompt: checked, then applied. */
  | { type: "submitInput" }
  /** The prompt stays open with the reason its text cannot be used. */
  | { type: "inputFailed"; error: string }
  /** The prompt's text was used (a time gone to, a file saved): closed and remembered. */
  | { type: "inputDone" }
  | { type: "cancel" }
  /** X: every filter, the level, the context, the search and the replicas hidden cleared at once. */
  | { type: "clearFilters" }
  | { type: "setColumns"; fields: readonly string[] | undefined }
  /** 1-9; `known` are the replicas seen, for leaving a replica shown alone (`o`). */
  | { type: "toggleReplica"; replica: number; known?: readonly number[] }
  /** o: this replica alone, or (undefined) every replica again. */
  | { type: "onlyReplica"; replica: number | undefined }
  | { type: "showDeployment"; deployment: { id: string; label: string } | undefined }
  | { type: "cycleTime" }
  | { type: "cycleLevel" }
  | { type: "toggleWrap" }
  | { type: "toggleSidePanes" }
  | { type: "toggleEvents" }
  | { type: "toggleHelp" }
  | { type: "toggleHeatmap" }
  /** `!` waits for indexing to end (true), or no longer does (false: cancelled, or it went). */
  | { type: "riseWhenIndexed"; on: boolean }
  | { type: "scrollOverlay"; by: number; max: number }
  | { type: "openDetail"; pane: DetailSource; key: string; from?: DetailOpen | undefined }
  /** In a log line's detail: the record mentioned chosen (↑↓), by its identity. */
  | { type: "chooseMention"; chosen: string; scroll: number }
  | { type: "toggleMark"; id: number }
  | { type: "openCopy"; id: number }
  | { type: "cycleEmailFilter" }
  /** The answer to a key (or a save) shown in the status line; undefined: it expired. */
  | { type: "notice"; text: string | undefined; short?: string | undefined }
  | { type: "vote"; change: VoteUiAction }
  | { type: "toggleNeedsMyVote" };

/** Why `source` cannot be used as a pattern (src/text/pattern.ts), in one line; or undefined. */
export function regexError(source: string): string | undefined {
  return patternProblem(source);
}

/** The most context lines `C` takes. */
export const MAX_CONTEXT = 50;

/** Why a context prompt's text is not a number of lines, or undefined when it is. */
function contextError(text: string): string | undefined {
  return /^\d{1,2}$/.test(text.trim()) && Number(text) <= MAX_CONTEXT
    ? undefined
    : `context: a number of lines from 0 to ${MAX_CONTEXT}`;
}

const HISTORY_LENGTH = 50;

/** The prompt closed, its text remembered as the newest of its history. */
function closeInput(state: UiState): UiState {
  if (!state.input) return state;
  const { mode, text } = state.input;
  const before = (state.history[mode] ?? []).filter((t) => t !== text);
  const history = text === "" ? before : [...before, text].slice(-HISTORY_LENGTH);
  return { ...state, input: undefined, history: { ...state.history, [mode]: history } };
}

/** The pane Tab focuses after `focus`, among those on screen. */
export function nextPane(focus: Pane, panes: readonly Pane[]): Pane {
  const shown = panes.length > 0 ? panes : PANES;
  return shown[(shown.indexOf(focus) + 1) % shown.length] as Pane;
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "cycleFocus":
      return { ...state, focus: nextPane(state.focus, action.panes) };
    case "pause":
      return state.following
        ? {
            ...state,
            following: false,
            pausedAtTotal: action.total,
            anchor: { line: action.total - 1, rowsBelow: 0, id: action.newest },
            cursor: action.cursor,
          }
        : state;
    case "follow":
      return {
        ...state,
        following: true,
        pausedAtTotal: undefined,
        anchor: undefined,
        cursor: undefined,
        matchPosition: undefined,
      };
    case "moveTo":
      return {
        ...state,
        following: false,
        pausedAtTotal: state.following ? action.total : state.pausedAtTotal,
        anchor: action.anchor,
        cursor: action.cursor,
        matchPosition: action.match,
      };
    case "select":
      return { ...state, selection: { ...state.selection, [action.pane]: action.selected } };
    case "startInput":
    case "inputText":
    case "inputBackspace":
    case "recall":
    case "inputFailed":
    case "inputDone":
    case "submitInput":
      return promptReducer(state, action);
    case "cancel":
      return cancelOne(state);
    case "vote":
      return { ...state, vote: voteReducer(state.vote, action.change) };
    case "toggleNeedsMyVote":
      // The selection stays on its activity, shown or not (the pane says when it is not).
      return { ...state, needsMyVote: !state.needsMyVote };
    case "setColumns":
      return { ...state, columns: action.fields };
    case "clearFilters":
      return {
        ...state,
        ...NO_FILTERS,
        inputError: undefined,
        hiddenReplicas: [],
        onlyReplica: undefined,
      };
    case "toggleReplica":
    case "onlyReplica":
      return replicaReducer(state, action);
    case "showDeployment":
      return { ...state, onlyDeployment: action.deployment };
    case "cycleTime":
      return {
        ...state,
        time: TIME_MODES[(TIME_MODES.indexOf(state.time) + 1) % TIME_MODES.length] as TimeMode,
      };
    case "cycleLevel":
      return {
        ...state,
        minLevel: LEVEL_STEPS[(LEVEL_STEPS.indexOf(state.minLevel) + 1) % LEVEL_STEPS.length],
      };
    case "toggleWrap":
      return { ...state, wrap: !state.wrap };
    case "toggleEvents":
      return { ...state, events: !state.events };
    case "toggleSidePanes":
      return {
        ...state,
        sidePanes: !state.sidePanes,
        focus: state.sidePanes ? "logs" : state.focus,
      };
    case "toggleHelp":
    case "toggleHeatmap":
    case "scrollOverlay":
    case "openDetail":
    case "chooseMention":
      return overlayReducer(state, action);
    case "riseWhenIndexed":
      return { ...state, riseWhenIndexed: action.on };
    case "toggleMark":
      return {
        ...state,
        marks: state.marks.includes(action.id)
          ? state.marks.filter((m) => m !== action.id)
          : [...state.marks, action.id],
      };
    case "openCopy":
      return { ...state, copy: action.id };
    case "cycleEmailFilter": {
      const i = EMAIL_FILTERS.indexOf(state.emailFilter);
      return { ...state, emailFilter: EMAIL_FILTERS[(i + 1) % EMAIL_FILTERS.length] };
    }
    case "notice":
      return { ...state, notice: action.text, noticeShort: action.short };
  }
}

type PromptAction = Extract<
  UiAction,
  {
    type:
      | "startInput"
      | "inputText"
      | "inputBackspace"
      | "recall"
      | "inputFailed"
      | "inputDone"
      | "submitInput";
  }
>;

/** The prompt with this text (no recall, no error), what it offers kept. */
function typed(input: NonNullable<UiState["input"]>, text: string): NonNullable<UiState["input"]> {
  return { mode: input.mode, text, ...(input.save ? { save: input.save } : {}) };
}

/** A prompt opened, typed in, recalled from its history, refused, closed or submitted. */
function promptReducer(state: UiState, action: PromptAction): UiState {
  switch (action.type) {
    case "startInput":
      return {
        ...state,
        input: { mode: action.mode, text: "", ...(action.save ? { save: action.save } : {}) },
        inputError: undefined,
      };
    case "inputText":
      return state.input
        ? { ...state, input: typed(state.input, state.input.text + action.text) }
        : state;
    case "inputBackspace":
      return state.input
        ? {
            ...state,
            input: typed(state.input, Array.from(state.input.text).slice(0, -1).join("")),
          }
        : state;
    case "recall": {
      if (!state.input) return state;
      const past = state.history[state.input.mode] ?? [];
      const at = (state.input.recall ?? past.length) + action.by;
      if (at < 0 || at > past.length) return state;
      const text = at === past.length ? "" : (past[at] as string);
      return { ...state, input: { ...typed(state.input, text), recall: at } };
    }
    case "inputFailed":
      return state.input ? { ...state, input: { ...state.input, error: action.error } } : state;
    case "inputDone":
      return closeInput(state);
    case "submitInput":
      return submitPrompt(state);
  }
}

/** Enter in a search, filter or context prompt: checked, then applied (or kept open with why). */
function submitPrompt(state: UiState): UiState {
  if (!state.input) return state;
  const { mode, text } = state.input;
  if (mode === "context") {
    const error = text === "" ? undefined : contextError(text);
    if (error) return promptReducer(state, { type: "inputFailed", error });
    return { ...closeInput(state), context: text === "" ? 0 : Number(text) };
  }
  if (mode === "helpFind") {
    // The help lists what the text finds (all of it for none), from its top.
    return { ...closeInput(state), helpFind: text.trim() === "" ? undefined : text, helpScroll: 0 };
  }
  if (mode === "columns") {
    if (text.trim() === "") return { ...closeInput(state), inputError: undefined };
    let fields: string[];
    try {
      fields = parseFieldList(text);
    } catch (err) {
      return promptReducer(state, { type: "inputFailed", error: (err as Error).message });
    }
    return { ...closeInput(state), inputError: undefined, columns: fields };
  }
  if (mode === "where") {
    const query = text.trim();
    const error = query === "" ? undefined : queryProblem(query);
    if (error) return promptReducer(state, { type: "inputFailed", error });
    const closed = { ...closeInput(state), inputError: undefined };
    return query === "" || state.where.includes(query)
      ? closed
      : { ...closed, where: [...state.where, query] };
  }
  if (mode !== "search" && mode !== "include" && mode !== "exclude") return state;
  const value = text.length === 0 ? undefined : text;
  const error = value === undefined ? undefined : regexError(value);
  if (error) return promptReducer(state, { type: "inputFailed", error });
  const closed = { ...closeInput(state), inputError: undefined };
  if (mode === "include") {
    // Each f adds a filter; an empty one changes nothing.
    return value === undefined || state.include.includes(value)
      ? closed
      : { ...closed, include: [...state.include, value] };
  }
  if (mode === "search") return { ...closed, search: value, matchPosition: undefined };
  return { ...closed, exclude: value };
}

/** Esc: one thing closed or cleared at a time, the innermost first. */
function cancelOne(state: UiState): UiState {
  if (state.input) return { ...state, input: undefined };
  if (state.help && state.helpFind !== undefined)
    return { ...state, helpFind: undefined, helpScroll: 0 };
  if (state.help) return { ...state, help: false };
  if (state.heatmap) return { ...state, heatmap: false };
  if (state.copy !== undefined) return { ...state, copy: undefined };
  if (state.detail) return { ...state, detail: state.detail.from, detailScroll: 0 };
  if (state.riseWhenIndexed) return { ...state, riseWhenIndexed: false };
  if (state.inputError) return { ...state, inputError: undefined };
  if (state.columns) return { ...state, columns: undefined };
  if (state.search) return { ...state, search: undefined, matchPosition: undefined };
  if (state.include.length > 0) return { ...state, include: state.include.slice(0, -1) };
  if (state.exclude) return { ...state, exclude: undefined };
  if (state.where.length > 0) return { ...state, where: state.where.slice(0, -1) };
  if (state.minLevel) return { ...state, minLevel: undefined };
  if (state.context > 0) return { ...state, context: 0 };
  if (state.timeRange) return { ...state, timeRange: undefined };
  return state;
}

/** Which replicas are shown: `1-9` hides or shows one, `o` shows one alone. */
function replicaReducer(
  state: UiState,
  action: Extract<UiAction, { type: "toggleReplica" | "onlyReplica" }>,
): UiState {
  switch (action.type) {
    case "toggleReplica": {
      // One replica shown alone: the others are hidden one by one, and then N toggled.
      const only = state.onlyReplica;
      const before =
        only === undefined
          ? state.hiddenReplicas
          : [...new Set([...(action.known ?? []), action.replica])].filter((r) => r !== only);
      const hidden = before.includes(action.replica)
        ? before.filter((r) => r !== action.replica)
        : [...before, action.replica];
      return {
        ...state,
        hiddenReplicas: hidden.sort((a, b) => a - b),
        onlyReplica: undefined,
      };
    }
    case "onlyReplica":
      return { ...state, onlyReplica: action.replica, hiddenReplicas: [] };
  }
}

/** The overlays over the panes: the help, the heatmap, the detail, and how far each is scrolled. */
function overlayReducer(
  state: UiState,
  action: Extract<
    UiAction,
    { type: "toggleHelp" | "toggleHeatmap" | "scrollOverlay" | "openDetail" | "chooseMention" }
  >,
): UiState {
  switch (action.type) {
    case "toggleHelp":
      return { ...state, help: !state.help, helpScroll: 0, helpFind: undefined };
    case "toggleHeatmap":
      return { ...state, heatmap: !state.heatmap, heatmapScroll: 0 };
    case "scrollOverlay": {
      const clamp = (n: number) => Math.max(0, Math.min(action.max, n));
      if (state.help) return { ...state, helpScroll: clamp(state.helpScroll + action.by) };
      if (state.heatmap) return { ...state, heatmapScroll: clamp(state.heatmapScroll + action.by) };
      return { ...state, detailScroll: clamp(state.detailScroll + action.by) };
    }
    case "openDetail":
      return {
        ...state,
        detail: {
          pane: action.pane,
          key: action.key,
          ...(action.from ? { from: action.from } : {}),
        },
        detailScroll: 0,
      };
    case "chooseMention":
      if (state.detail?.pane !== "line") return state;
      return {
        ...state,
        detail: { ...state.detail, chosen: action.chosen },
        detailScroll: Math.max(0, action.scroll),
      };
  }
}
