/**
 * The key-press step, pure and in one place: from the state and a key (or a chunk of typed-ahead
 * text), through the binding table, to the next state and the effects for the shell (quit, back
 * to the picker). The dashboard runs it; the tests run the same function.
 */
import type { VoteAction } from "../../activity/activity-decision.js";
import type { ErrorHeatmap } from "../../logs/error-heatmap.js";
import { parseTimeTarget } from "../../text/time-target.js";
import type { LogNavigator, Move, Target } from "../log-view/log-navigator.js";
import { replicaNumber } from "../log-view/log-view.js";
import { type Mention, mentionIdentity } from "../panes/known-ids.js";
import { parseSaveChoice, type SaveChoice } from "../saving/save-range.js";
import { savedFormat } from "../saving/saved-view.js";
import type { ListRow } from "../state/list-selection.js";
import { locate, moveSelection, notSelectedText, selectFirst } from "../state/list-selection.js";
import type { ListPane, Pane, UiAction, UiState } from "../state/ui-state.js";
import { nextPane, uiReducer } from "../state/ui-state.js";
import { cancelledText } from "../state/vote-state.js";
import type { Binding, KeyAction, KeyInfo, Scope } from "./key-bindings.js";
import { keyName, lookup } from "./key-bindings.js";
import { heatmapKey, RISE_WAIT_CANCELLED, riseKey } from "./rise-key.js";

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
  /** The deployments followed, with their labels, in order (`d` cycles through them). */
  deployments?: readonly { id: string; label: string }[] | undefined;
  /** The rows of each list pane as shown, in order: selection and detail views go by their keys. */
  lists: Readonly<Record<ListPane, readonly ListRow[]>>;
  /** Epoch ms now, for `J -5m`. */
  now: number;
  /**
   * The vote confirmation at this size: how far its details scroll, a page of them, and whether
   * what is decided is all on screen (`y` sends only then). Absent: nothing to scroll, it fits.
   */
  vote?: { maxScroll: number; page: number; fits: boolean } | undefined;
  /** Whether there are side panes at all (false: saved lines, no feeds); absent: there are. */
  sidePanes?: boolean | undefined;
  /** The error heatmap of the whole buffer (`!`), computed when asked. */
  errors?: (() => ErrorHeatmap | undefined) | undefined;
  /**
   * How much of the saved files is indexed (whole percent) while the start of a large one is
   * still read behind its end; undefined (or absent) once every line is in.
   */
  indexing?: (() => number | undefined) | undefined;
  /**
   * The records the open log line's detail lists (the ids it mentions that a pane knows), in
   * order, each by its pane and key; absent or empty: none listed.
   */
  mentions?: readonly Pick<Mention, "pane" | "key">[] | undefined;
}

export type KeyEffect =
  | { type: "quit" }
  /**
   * n, N, e, w, m or a search's Enter ran out of its budget before the rows it needed were
   * judged: the dashboard finds it again once they are (src/logs/work-budget.ts).
   */
  | { type: "findWhenJudged"; target: Target; direction: 1 | -1 }
  | { type: "picker" }
  | { type: "retryNow" }
  /**
   * A or R on the selected activity (its row's key, as shown): the dashboard checks it can be
   * voted on and confirms.
   */
  | { type: "startVote"; action: VoteAction; key: string }
  /** y in the confirmation: the dashboard sends the vote. */
  | { type: "sendVote" }
  /** c: copy the line with this row id (OSC 52, or shown alone). */
  | { type: "copy"; id: number }
  /** S, then Enter: these lines are to be saved (the dashboard counts them, offers a name). */
  | { type: "saveRange"; choice: SaveChoice }
  /** Enter at the file prompt: the lines chosen written to this file. */
  | { type: "save"; path: string };

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
  // Esc then Tab close together ("\x1b\t") reach us as a bare "\t", neither Tab nor Alt: it is
  // what was typed, Esc then Tab (Tab alone arrives as Tab).
  if (input === "\t" && !key.tab) {
    return [
      { input: "", key: { escape: true } },
      { input: "", key: { tab: true } },
    ];
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
  if (state.help || state.detail || state.heatmap) return ["overlay", "anywhere"];
  return [state.focus === "logs" ? "logs" : "lists", "dashboard", "anywhere"];
}

const moveTo = (move: Move, ctx: KeyContext): UiAction => ({
  type: "moveTo",
  anchor: move.anchor,
  cursor: move.cursor,
  match: move.match,
  total: ctx.log.total(),
});

const NO_CURSOR: UiAction = {
  type: "notice",
  text: "no line under the cursor: ↑ pauses and moves it",
};

/** What a list pane's records are called in a notice. */
const NOUNS: Record<ListPane, string> = {
  activities: "activity",
  email: "email",
  solana: "transfer",
};

const TARGET_WORDS: Record<Target, string> = {
  match: "match",
  error: "error",
  warn: "warning",
  mark: "marked line",
};

/** What a find that ran out of its budget says while the rows are judged. */
export const READING_NOTICE = "reading the lines for the filters and search… (any key cancels)";

/**
 * The next `target` in `direction`. Following (at the live end), every one of them lands on the
 * newest: e and w on the latest error or warning, / n N on the newest match. Paused, a search
 * wraps around the buffer (as less and lnav do, saying so), so it finds a match whenever one is
 * shown; the others stop at the ends.
 */
export function findTarget(
  state: UiState,
  ctx: KeyContext,
  target: Target,
  direction: 1 | -1,
): Step | Step[] {
  const dir = state.following ? -1 : direction;
  const search = target === "match";
  const move = ctx.log.find(state, target, dir, search && !state.following);
  if (move) {
    if (!move.wrapped) return moveTo(move, ctx);
    const end = dir === 1 ? "oldest" : "newest";
    return [
      moveTo(move, ctx),
      { type: "notice", text: `search wrapped to the ${end} line`, short: `wrapped to ${end}` },
    ];
  }
  if (ctx.log.unfinished()) {
    return [
      { type: "notice", text: READING_NOTICE },
      { type: "findWhenJudged", target, direction },
    ];
  }
  if (search) {
    // Wrapped, none anywhere: said of the buffer, or of the lines the filters leave shown.
    const where = ctx.log.hides(state) ? "in the lines shown" : "in the buffer";
    return { type: "notice", text: `no match for /${state.search ?? ""}/ ${where}` };
  }
  const where = dir === 1 ? "newer" : "older";
  return {
    type: "notice",
    text: `no ${where} ${TARGET_WORDS[target]}${state.following ? " in the buffer" : ""}`,
  };
}

type Step = UiAction | KeyEffect;

/** Enter in a prompt: applied, or kept open with why not. */
function applyInput(state: UiState, ctx: KeyContext): Step[] {
  const input = state.input;
  if (!input) return [];
  if (input.mode === "jump") {
    const newest = ctx.log.newestTime() ?? ctx.now;
    const target = parseTimeTarget(input.text, ctx.now, newest);
    if ("error" in target) return [{ type: "inputFailed", error: target.error }];
    const move = ctx.log.atTime(state, target.ms);
    if (!move) return [{ type: "inputDone" }, { type: "notice", text: "no lines to go to" }];
    return [{ type: "inputDone" }, moveTo(move, ctx)];
  }
  if (input.mode === "saveRange") {
    const choice = parseSaveChoice(input.text, state.marks.length);
    if ("error" in choice) return [{ type: "inputFailed", error: choice.error }];
    return [{ type: "inputDone" }, { type: "saveRange", choice }];
  }
  if (input.mode === "save") {
    const path = input.text.trim() || (input.save?.defaultName ?? "");
    if (path === "") return [{ type: "inputFailed", error: "save: type a file name" }];
    if (input.save?.bundle && savedFormat(path) !== "ndjson")
      return [{ type: "inputFailed", error: "a bundle is NDJSON: end the name in .ndjson" }];
    return [{ type: "inputDone" }, { type: "save", path }];
  }
  if (input.mode === "search" && input.text !== "") {
    // As in less and lnav: Enter goes to the nearest match newer than the cursor, wrapping past
    // the newest line; from the live end, to the newest match.
    const after = uiReducer(state, { type: "submitInput" });
    if (after.input) return [{ type: "submitInput" }];
    const submit: Step = { type: "submitInput" };
    return [submit, ...[findTarget(after, ctx, "match", 1)].flat()];
  }
  return [{ type: "submitInput" }];
}

type Resolved = Step | Step[] | undefined;

/** Bindings whose meaning does not depend on the log, the panes or the state. */
const PLAIN: Partial<Record<KeyAction, Step>> = {
  quit: { type: "quit" },
  picker: { type: "picker" },
  retryNow: { type: "retryNow" },
  followStatus: { type: "openDetail", pane: "follow", key: "" },
  needsMyVote: { type: "toggleNeedsMyVote" },
  help: { type: "toggleHelp" },
  search: { type: "startInput", mode: "search" },
  context: { type: "startInput", mode: "context" },
  jumpToTime: { type: "startInput", mode: "jump" },
  save: { type: "startInput", mode: "saveRange" },
  include: { type: "startInput", mode: "include" },
  where: { type: "startInput", mode: "where" },
  exclude: { type: "startInput", mode: "exclude" },
  clearFilters: { type: "clearFilters" },
  level: { type: "cycleLevel" },
  recallOlder: { type: "recall", by: -1 },
  recallNewer: { type: "recall", by: 1 },
  timestamps: { type: "cycleTime" },
  wrap: { type: "toggleWrap" },
  emailFilter: { type: "cycleEmailFilter" },
  erase: { type: "inputBackspace" },
  newest: { type: "follow" },
};

/** The action(s) a binding means now, resolved against the log and the panes. */
function resolve(b: Binding, name: string, state: UiState, ctx: KeyContext): Resolved {
  if (b.action === "cancel") return cancelKey(state);
  const plain = PLAIN[b.action];
  if (plain) return plain;
  switch (b.action) {
    case "approve":
    case "reject":
    case "confirmVote":
    case "cancelVote":
      return voteKey(b.action, name, state, ctx);
    case "nextError":
    case "previousError":
    case "nextWarning":
    case "previousWarning":
    case "nextMark":
    case "previousMark":
    case "olderMatch":
    case "newerMatch":
      return findKey(b.action, state, ctx);
    case "heatmap":
      return heatmapKey(b, state);
    case "errorRise":
      return riseKey(b, state, ctx);
    case "up":
    case "down":
    case "pageUp":
    case "pageDown":
      return scrollKey(b, state, ctx);
    case "apply":
      return applyInput(state, ctx);
    case "openMention":
    case "mention":
      return mentionKey(b.action, name, state, ctx);
    case "columns":
      return state.columns
        ? { type: "setColumns", fields: undefined }
        : { type: "startInput", mode: "columns" };
    case "pick":
    case "retry":
      return undefined;
    default:
      return paneKey(b.action, name, state, ctx);
  }
}

/** Esc: the innermost thing closed; a `!` waiting for indexing, cancelled, says so. */
function cancelKey(state: UiState): Resolved {
  const cancel: Step = { type: "cancel" };
  if (!state.riseWhenIndexed || uiReducer(state, cancel).riseWhenIndexed) return cancel;
  return [cancel, { type: "notice", text: RISE_WAIT_CANCELLED }];
}

/** A and R on the selected activity; y and n in the confirmation. */
function voteKey(
  action: "approve" | "reject" | "confirmVote" | "cancelVote",
  name: string,
  state: UiState,
  ctx: KeyContext,
): Resolved {
  if (action === "confirmVote") {
    if (state.vote?.phase !== "confirm") return undefined;
    if (ctx.vote && !ctx.vote.fits)
      return {
        type: "notice",
        text: "not sent: what is decided does not fit on the screen; make the terminal larger",
      };
    return { type: "sendVote" };
  }
  if (action === "cancelVote") {
    if (state.vote?.phase !== "confirm") return undefined;
    return [
      { type: "vote", change: { type: "closeVote" } },
      { type: "notice", text: cancelledText(state.vote.action) },
    ];
  }
  if (ctx.sidePanes === false)
    return { type: "notice", text: `${name} ${action}s activities: there are none here` };
  if (state.help || state.detail || state.heatmap) return overlayVoteKey(action, name, state);
  if (state.focus !== "activities")
    return { type: "notice", text: `${name} ${action}s: Tab to the Activities pane first` };
  const at = locate(state.selection.activities, ctx.lists.activities);
  if (at.kind !== "on")
    return { type: "notice", text: notSelectedText(at, "activity", action) ?? "" };
  return { type: "startVote", action, key: at.row.key };
}

/**
 * A and R over an overlay: in an activity's detail, on that activity (by its key, as the detail
 * shows it); over anything else, why not.
 */
function overlayVoteKey(action: "approve" | "reject", name: string, state: UiState): Resolved {
  if (state.help)
    return { type: "notice", text: `${name} ${action}s an activity: close the help first (Esc)` };
  if (state.heatmap)
    return { type: "notice", text: `${name} ${action}s an activity: close the heatmap first (H)` };
  if (state.detail?.pane !== "activities")
    return {
      type: "notice",
      text: `${name} ${action}s an activity: this detail is not one (Enter on the Activities pane opens one)`,
    };
  return { type: "startVote", action, key: state.detail.key };
}

/** e E, w W, u U, n N: the next error, warning, mark or search match. */
function findKey(action: KeyAction, state: UiState, ctx: KeyContext): Resolved {
  switch (action) {
    case "nextError":
    case "previousError":
      return findTarget(state, ctx, "error", action === "nextError" ? 1 : -1);
    case "nextWarning":
    case "previousWarning":
      return findTarget(state, ctx, "warn", action === "nextWarning" ? 1 : -1);
    case "nextMark":
    case "previousMark":
      if (state.marks.length === 0) return { type: "notice", text: "no marks: m marks a line" };
      return findTarget(state, ctx, "mark", action === "nextMark" ? 1 : -1);
    default:
      if (!state.search) return { type: "notice", text: "no search: press / to search first" };
      return findTarget(state, ctx, "match", action === "newerMatch" ? 1 : -1);
  }
}

/** ↑ ↓ PgUp PgDn: the overlay, the vote's details, a list's selection, or the log. */
function scrollKey(b: Binding, state: UiState, ctx: KeyContext): Resolved {
  const page = (rows: number) => Math.max(1, rows - 1);
  const sign = b.action === "up" || b.action === "pageUp" ? 1 : -1;
  const paged = b.action === "pageUp" || b.action === "pageDown";
  if (b.scope === "overlay" && !paged && state.detail?.pane === "line" && ctx.mentions?.length)
    return chooseMention(state, ctx, ctx.mentions, -sign);
  if (b.scope === "overlay") {
    return {
      type: "scrollOverlay",
      by: -sign * (paged ? page(ctx.pageRows) : 1),
      max: ctx.overlayMax,
    };
  }
  if (b.scope === "vote") {
    const v = ctx.vote ?? { maxScroll: 0, page: 1 };
    return {
      type: "vote",
      change: {
        type: "scrollVote",
        by: -sign * (paged ? Math.max(1, v.page - 1) : 1),
        max: v.maxScroll,
      },
    };
  }
  if (b.scope === "lists" && state.focus !== "logs") {
    const pane = state.focus;
    const by = -sign * (paged ? page(ctx.pageRows) : 1);
    return {
      type: "select",
      pane,
      selected: moveSelection(state.selection[pane], ctx.lists[pane], by),
    };
  }
  const move = paged
    ? ctx.log.scroll(state, sign * page(ctx.logRows))
    : ctx.log.moveCursor(state, -sign);
  return move ? moveTo(move, ctx) : undefined;
}

/** The keys that act on the focused pane, its cursor, replicas or deployments. */
function paneKey(action: KeyAction, name: string, state: UiState, ctx: KeyContext): Resolved {
  switch (action) {
    case "focus": {
      // A pane focused for the first time selects its first row (the one then shown first).
      const next = nextPane(state.focus, ctx.panes);
      if (next === "logs") return { type: "cycleFocus", panes: ctx.panes };
      const selected = selectFirst(state.selection[next], ctx.lists[next]);
      return [
        { type: "cycleFocus", panes: ctx.panes },
        { type: "select", pane: next, selected },
      ];
    }
    case "pause":
      return state.following
        ? {
            type: "pause",
            total: ctx.log.total(),
            cursor: ctx.log.newestShown(state),
            newest: ctx.log.newestId(),
          }
        : { type: "follow" };
    case "mark":
    case "copy": {
      const row = ctx.log.cursorRow(state);
      if (!row) return NO_CURSOR;
      return action === "mark" ? { type: "toggleMark", id: row.id } : { type: "copy", id: row.id };
    }
    case "oldest": {
      const move = ctx.log.oldest(state);
      return move ? moveTo(move, ctx) : undefined;
    }
    case "open":
      return openKey(state, ctx);
    case "replica":
      return replicaKey(Number(name), state, ctx);
    case "onlyReplica":
      return onlyReplicaKey(state, ctx);
    case "findInHelp":
      return state.help
        ? { type: "startInput", mode: "helpFind" }
        : { type: "notice", text: "/ finds in the help (?); here ↑↓ scroll, Esc closes" };
    case "deployment":
      return deploymentKey(state, ctx);
    case "sidePanes":
      if (ctx.sidePanes === false)
        return { type: "notice", text: "no side panes here: only the log is shown" };
      return { type: "toggleSidePanes" };
    case "events":
      if (ctx.sidePanes === false)
        return { type: "notice", text: "no side panes here: no events to show among the lines" };
      return { type: "toggleEvents" };
    default:
      return undefined;
  }
}

/** ↑ ↓ in a log line's detail listing mentions: the one above or below chosen, by identity. */
function chooseMention(
  state: UiState,
  ctx: KeyContext,
  mentions: readonly Pick<Mention, "pane" | "key">[],
  by: number,
): Resolved {
  const ids = mentions.map(mentionIdentity);
  const at = state.detail?.chosen === undefined ? -1 : ids.indexOf(state.detail.chosen);
  // Nothing chosen yet (or the chosen record left): ↓ takes the first, ↑ the last.
  const next =
    at < 0 ? (by > 0 ? 0 : ids.length - 1) : Math.max(0, Math.min(ids.length - 1, at + by));
  // The list is the detail's first field: its row is kept in view (one row per mention).
  let scroll = Math.min(state.detailScroll, next);
  if (next >= scroll + ctx.pageRows) scroll = next - ctx.pageRows + 1;
  return {
    type: "chooseMention",
    chosen: ids[next] as string,
    scroll: Math.min(scroll, ctx.overlayMax),
  };
}

/** Enter or 1-9 in a log line's detail: the record of the id chosen, or of that number, opened. */
function mentionKey(
  action: "openMention" | "mention",
  name: string,
  state: UiState,
  ctx: KeyContext,
): Resolved {
  const detail = state.detail;
  if (detail?.pane !== "line") return undefined;
  const mentions = ctx.mentions ?? [];
  if (mentions.length === 0)
    return { type: "notice", text: "this line mentions no id a pane knows" };
  const m =
    action === "mention"
      ? mentions[Number(name) - 1]
      : mentions.find((x) => mentionIdentity(x) === detail.chosen);
  if (!m)
    return {
      type: "notice",
      text:
        action === "mention"
          ? `no id ${name}: the line mentions ${mentions.length}`
          : "choose an id first: ↑↓ then Enter, or its number",
    };
  return {
    type: "openDetail",
    pane: m.pane,
    key: m.key,
    from: { ...detail, chosen: mentionIdentity(m) },
  };
}

/** Enter: the cursor's line, or the focused list's selected record, in a detail view. */
function openKey(state: UiState, ctx: KeyContext): Resolved {
  if (state.focus === "logs") {
    const row = ctx.log.cursorRow(state);
    return row ? { type: "openDetail", pane: "line", key: String(row.id) } : NO_CURSOR;
  }
  const pane = state.focus;
  const at = locate(state.selection[pane], ctx.lists[pane]);
  if (at.kind !== "on")
    return { type: "notice", text: notSelectedText(at, NOUNS[pane], "open") ?? "" };
  return { type: "openDetail", pane, key: at.row.key };
}

/** 1-9: a replica hidden or shown again; one never seen says which there are. */
function replicaKey(n: number, state: UiState, ctx: KeyContext): Resolved {
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
  return { type: "toggleReplica", replica: n, known: [...ctx.replicas] };
}

/** o: the replica of the cursor's line (following: of the newest line shown) alone, or all again. */
function onlyReplicaKey(state: UiState, ctx: KeyContext): Resolved {
  if (state.onlyReplica !== undefined) return { type: "onlyReplica", replica: undefined };
  const id = state.following ? ctx.log.newestShown(state) : state.cursor;
  const row =
    id === undefined ? undefined : ctx.log.cursorRow({ ...state, following: false, cursor: id });
  const event = row?.event;
  const n =
    event && (event.kind === "line" || event.kind === "replica")
      ? replicaNumber(event.replicaLabel)
      : undefined;
  if (n === undefined)
    return {
      type: "notice",
      text: row
        ? "o: the cursor's line is of no replica (↑ moves the cursor)"
        : "o: no line under the cursor (↑ pauses and moves it)",
    };
  return { type: "onlyReplica", replica: n };
}

/** d: all deployments → the first alone → the next → ... → all again. */
function deploymentKey(state: UiState, ctx: KeyContext): Resolved {
  const all = ctx.deployments ?? [];
  if (all.length < 2)
    return {
      type: "notice",
      text: "one deployment followed: --app APP, --all or --deployment repeated follow several",
    };
  const at = all.findIndex((d) => d.id === state.onlyDeployment?.id);
  return { type: "showDeployment", deployment: all[at + 1] };
}

/**
 * A log pane's key (c, m, u, g...) pressed while a side pane has focus: what it would do is said,
 * and how to get there, rather than nothing happening.
 */
function needsLogPane(state: UiState, name: string | undefined): string | undefined {
  if (state.input || state.vote || state.help || state.detail || state.focus === "logs") return;
  const b = lookup(["logs"], name);
  return b ? `${b.label} works on the log pane: Tab to it first` : undefined;
}

const EFFECTS = new Set([
  "quit",
  "picker",
  "retryNow",
  "findWhenJudged",
  "startVote",
  "copy",
  "saveRange",
  "save",
]);

function isEffect(step: Step): step is KeyEffect {
  return EFFECTS.has(step.type);
}

/** One key press (or a chunk of typed text): the next state and what the shell must do. */
export function keyStep(state: UiState, input: string, key: KeyInfo, ctx: KeyContext): KeyResult {
  let s = state;
  const effects: KeyEffect[] = [];
  for (const press of splitInput(input, key)) {
    if (s.notice) s = { ...s, notice: undefined, noticeShort: undefined };
    const name = keyName(press.input, press.key);
    // Ctrl-C quits whatever is open, even while typing.
    const binding = lookup(name === "ctrl+c" ? ["anywhere"] : scopesFor(s), name);
    if (s.vote && binding?.action !== "quit") {
      // Confirming, only the vote's keys do something (y, n, Esc, scrolling): a stray key
      // neither votes nor cancels. In flight, nothing but Ctrl-C; a result: any key closes it.
      if (s.vote.phase === "sending") continue;
      if (s.vote.phase === "done") {
        s = uiReducer(s, { type: "vote", change: { type: "closeVote" } });
        continue;
      }
    }
    if (!binding) {
      // Typing: any other printable key goes into the prompt.
      if (s.input && press.input && !press.key.ctrl && !press.key.meta) {
        s = uiReducer(s, { type: "inputText", text: press.input });
      } else {
        const text = needsLogPane(s, name);
        if (text) s = uiReducer(s, { type: "notice", text });
      }
      continue;
    }
    const resolved = resolve(binding, name as string, s, ctx);
    if (!resolved) continue;
    let quit = false;
    for (const result of Array.isArray(resolved) ? resolved : [resolved]) {
      if (result.type === "sendVote") {
        s = uiReducer(s, { type: "vote", change: { type: "sendVote" } });
        effects.push(result);
      } else if (isEffect(result)) {
        effects.push(result);
        if (result.type === "quit") quit = true;
      } else {
        s = uiReducer(s, result);
      }
    }
    if (quit) break;
  }
  return { state: s, effects };
}
