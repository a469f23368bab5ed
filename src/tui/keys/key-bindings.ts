/**
 * The one table of key bindings: which key does what, where. It drives the key handling
 * (key-step.ts), the `?` help and docs/keys.md (`npm run docs:keys`; a test keeps them in agreement).
 *
 * Scopes, innermost first: `input` while a search or filter is typed; `overlay` while the help,
 * a detail view or the error heatmap is open; `logs` or `lists` for the focused pane; then `dashboard`; `anywhere`
 * applies in all of them but input. The picker has its own scope.
 */

export type Scope =
  | "input"
  | "vote"
  | "overlay"
  | "logs"
  | "lists"
  | "dashboard"
  | "anywhere"
  | "picker";

export type KeyAction =
  | "quit"
  | "help"
  | "picker"
  | "cancel"
  | "focus"
  | "pause"
  | "search"
  | "include"
  | "exclude"
  | "where"
  | "olderMatch"
  | "newerMatch"
  | "replica"
  | "onlyReplica"
  | "deployment"
  | "timestamps"
  | "level"
  | "context"
  | "clearFilters"
  | "nextError"
  | "previousError"
  | "nextWarning"
  | "previousWarning"
  | "heatmap"
  | "errorRise"
  | "jumpToTime"
  | "save"
  | "mark"
  | "nextMark"
  | "previousMark"
  | "copy"
  | "findInHelp"
  | "recallOlder"
  | "recallNewer"
  | "wrap"
  | "sidePanes"
  | "events"
  | "emailFilter"
  | "up"
  | "down"
  | "pageUp"
  | "pageDown"
  | "oldest"
  | "newest"
  | "open"
  | "openMention"
  | "mention"
  | "apply"
  | "erase"
  | "pick"
  | "retry"
  | "retryNow"
  | "followStatus"
  | "approve"
  | "reject"
  | "confirmVote"
  | "cancelVote"
  | "needsMyVote"
  | "columns";

export interface Binding {
  /** Key names as keyName() gives them. */
  keys: readonly string[];
  /** The keys as the help and docs/keys.md show them. */
  label: string;
  scope: Scope;
  action: KeyAction;
  does: string;
}

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

export const BINDINGS: readonly Binding[] = [
  { keys: ["q", "ctrl+c"], label: "q, Ctrl-C", scope: "anywhere", action: "quit", does: "quit" },
  { keys: ["?"], label: "?", scope: "anywhere", action: "help", does: "show or hide this help" },
  {
    keys: ["escape"],
    label: "Esc",
    scope: "anywhere",
    action: "cancel",
    does: "close one thing, the innermost: a prompt, the help, the heatmap, a detail; then a ! waiting for indexing, the search, the last include filter, the exclude filter, the last field query, the level, the context",
  },
  {
    keys: ["D"],
    label: "D",
    scope: "dashboard",
    action: "picker",
    does: "the deployment picker, over the dashboard (which keeps following): Esc, or the deployment or scope shown now, returns to it unchanged",
  },
  { keys: ["tab"], label: "Tab", scope: "dashboard", action: "focus", does: "focus the next pane" },
  {
    keys: ["space", "p"],
    label: "Space, p",
    scope: "dashboard",
    action: "pause",
    does: "pause / follow the log (paused, new lines are counted)",
  },
  {
    keys: ["/"],
    label: "/",
    scope: "dashboard",
    action: "search",
    does: "search (regex, smart case: all lower case ignores case) toward newer lines, as less does: the nearest newer match, a third from the top (following: the newest match); wraps around the buffer, saying so; n/N, a 3/45 counter",
  },
  {
    keys: ["n"],
    label: "n",
    scope: "dashboard",
    action: "newerMatch",
    does: "next search match, newer (following: the newest one; past the newest line, wraps to the oldest)",
  },
  {
    keys: ["N"],
    label: "N",
    scope: "dashboard",
    action: "olderMatch",
    does: "previous search match, older (past the oldest line, wraps to the newest)",
  },
  {
    keys: ["f"],
    label: "f",
    scope: "dashboard",
    action: "include",
    does: "add an include filter: only lines matching a regex (a|b: either; every filter listed must match)",
  },
  {
    keys: ["F"],
    label: "F",
    scope: "dashboard",
    action: "exclude",
    does: "exclude filter: hide lines matching a regex (a|b: either)",
  },
  {
    keys: ["="],
    label: "=",
    scope: "dashboard",
    action: "where",
    does: "add a field query: only lines whose fields match, e.g. latencyMs > 300 and service = signer, level >= warn, msg ~ timeout (= != > >= < <= ~, and or not, parentheses; JSON paths or key=value keys; a line without the field does not match)",
  },
  {
    keys: ["|"],
    label: "|",
    scope: "dashboard",
    action: "columns",
    does: "show chosen fields as columns in place of each line: asks for the fields, e.g. time,level,msg,service,latencyMs (JSON paths or key=value keys, and time, replica, level, msg); a line without a field has an empty cell, a column is at most 40 wide (cut with …); Enter shows a line whole; | again or Esc shows lines again",
  },
  {
    keys: ["X"],
    label: "X",
    scope: "dashboard",
    action: "clearFilters",
    does: "clear every filter, the level, the context and the search at once, and show every replica again",
  },
  {
    keys: ["L"],
    label: "L",
    scope: "dashboard",
    action: "level",
    does: "minimum level: all, debug, info, warn, error (a line stating none counts as info)",
  },
  {
    keys: ["C"],
    label: "C",
    scope: "dashboard",
    action: "context",
    does: "context: lines shown around each line the filters keep, as grep -C (over the replicas shown)",
  },
  {
    keys: ["e"],
    label: "e",
    scope: "dashboard",
    action: "nextError",
    does: "next (newer) error line; following, the latest one",
  },
  {
    keys: ["E"],
    label: "E",
    scope: "dashboard",
    action: "previousError",
    does: "previous (older) error line",
  },
  {
    keys: ["w"],
    label: "w",
    scope: "dashboard",
    action: "nextWarning",
    does: "next (newer) warning; following, the latest one",
  },
  {
    keys: ["W"],
    label: "W",
    scope: "dashboard",
    action: "previousWarning",
    does: "previous (older) warning",
  },
  {
    keys: ["J"],
    label: "J",
    scope: "dashboard",
    action: "jumpToTime",
    does: "jump to a time: -5m, -90s, 14:02:10 (local, as shown), or a full RFC 3339 time; the side panes mark what is nearest the cursor's time",
  },
  {
    keys: ["S"],
    label: "S",
    scope: "dashboard",
    action: "save",
    does: "save lines to a new file: first which (Enter the view as filtered, a all buffered, m the view between the marks, 15 its last 15 minutes, b before any a ticket bundle), then the name (Enter takes the one offered, tvcwatch-<deployment>-<from>-<to>.ndjson); .ndjson or .json as NDJSON, else text",
  },
  {
    keys: DIGITS,
    label: "1-9",
    scope: "dashboard",
    action: "replica",
    does: "hide / show replica N",
  },
  {
    keys: ["o"],
    label: "o",
    scope: "dashboard",
    action: "onlyReplica",
    does: "show the cursor's replica alone / every replica again (following, the newest line's)",
  },
  {
    keys: ["d"],
    label: "d",
    scope: "dashboard",
    action: "deployment",
    does: "following several deployments: show one alone, the next, ... then all again",
  },
  {
    keys: ["T", "t"],
    label: "T, t",
    scope: "dashboard",
    action: "timestamps",
    does: "timestamps: off, absolute (local zone), relative to now; the side panes' times with them (age, time of day, relative)",
  },
  {
    keys: ["ctrl+w"],
    label: "Ctrl-W",
    scope: "dashboard",
    action: "wrap",
    does: "wrap long lines / cut them",
  },
  { keys: ["s"], label: "s", scope: "dashboard", action: "sidePanes", does: "side panes on / off" },
  {
    keys: ["I"],
    label: "I",
    scope: "dashboard",
    action: "events",
    does: "the side panes' events among the log's lines, in time order (◆ created, ◇ status, ✓ vote, ✉ email, ◎ Solana, ▣ health); filters and search apply; I again hides them",
  },
  {
    keys: ["M"],
    label: "M",
    scope: "dashboard",
    action: "emailFilter",
    does: "email pane: next event-type filter",
  },
  {
    keys: ["r"],
    label: "r",
    scope: "dashboard",
    action: "retryNow",
    does: "retry the log poll now, without waiting out the backoff",
  },
  {
    keys: ["i"],
    label: "i",
    scope: "dashboard",
    action: "followStatus",
    does: "the log follow's status: next try, window, overlap, late lines, cost",
  },
  {
    keys: ["H"],
    label: "H",
    scope: "dashboard",
    action: "heatmap",
    does: "errors per replica over the whole buffer as a heatmap, each against its own median; where they first rose; H or Esc closes",
  },
  {
    keys: ["!"],
    label: "!",
    scope: "dashboard",
    action: "errorRise",
    does: "go to where the incident began: in the first 20 s in which a replica had 3× its median errors and at least 5, its first error of a message (numbers, hex and ids masked) it had not printed before, else the first of the message that rose most; the status line says which (in open while a large file is indexed: once every line is in, Esc cancels)",
  },
  {
    keys: ["up"],
    label: "↑",
    scope: "logs",
    action: "up",
    does: "line cursor up (pauses; the cursor's line is marked >)",
  },
  { keys: ["down"], label: "↓", scope: "logs", action: "down", does: "line cursor down" },
  { keys: ["pageup"], label: "PgUp", scope: "logs", action: "pageUp", does: "scroll up a page" },
  {
    keys: ["pagedown"],
    label: "PgDn",
    scope: "logs",
    action: "pageDown",
    does: "scroll down a page",
  },
  { keys: ["g"], label: "g", scope: "logs", action: "oldest", does: "oldest line (pauses)" },
  { keys: ["G"], label: "G", scope: "logs", action: "newest", does: "newest line, following" },
  {
    keys: ["enter"],
    label: "Enter",
    scope: "logs",
    action: "open",
    does: "the cursor's line in full: replica, time, level, JSON fields",
  },
  {
    keys: ["m"],
    label: "m",
    scope: "logs",
    action: "mark",
    does: "mark / unmark the cursor's line (*)",
  },
  { keys: ["u"], label: "u", scope: "logs", action: "nextMark", does: "next (newer) marked line" },
  {
    keys: ["U"],
    label: "U",
    scope: "logs",
    action: "previousMark",
    does: "previous (older) marked line",
  },
  {
    keys: ["c"],
    label: "c",
    scope: "logs",
    action: "copy",
    does: "copy the cursor's line as tail --timestamps prints it, with its continuation lines (stack frames): to the clipboard with --clipboard (OSC 52), else shown alone to select",
  },
  {
    keys: ["v"],
    label: "v",
    scope: "dashboard",
    action: "needsMyVote",
    does: "Activities pane: only those awaiting my vote / all",
  },
  {
    keys: ["A"],
    label: "A",
    scope: "dashboard",
    action: "approve",
    does: "Activities pane: approve the selected activity (a confirmation shows what is decided; y sends the vote)",
  },
  {
    keys: ["R"],
    label: "R",
    scope: "dashboard",
    action: "reject",
    does: "Activities pane: reject the selected activity (a confirmation shows what is decided; y sends the vote)",
  },
  { keys: ["up"], label: "↑", scope: "lists", action: "up", does: "select the row above" },
  { keys: ["down"], label: "↓", scope: "lists", action: "down", does: "select the row below" },
  { keys: ["pageup"], label: "PgUp", scope: "lists", action: "pageUp", does: "select a page up" },
  {
    keys: ["pagedown"],
    label: "PgDn",
    scope: "lists",
    action: "pageDown",
    does: "select a page down",
  },
  {
    keys: ["enter"],
    label: "Enter",
    scope: "lists",
    action: "open",
    does: "details of the selected activity, email or transfer",
  },
  {
    keys: ["up"],
    label: "↑",
    scope: "overlay",
    action: "up",
    does: "scroll up; in a log line's detail listing the ids it mentions, choose the one above",
  },
  {
    keys: ["/"],
    label: "/",
    scope: "overlay",
    action: "findInHelp",
    does: "in the help: find a key (o, /, Enter) or a word; only what matches is listed as you type, Enter keeps it, Esc shows all again",
  },
  {
    keys: ["down"],
    label: "↓",
    scope: "overlay",
    action: "down",
    does: "scroll down; in a log line's detail listing the ids it mentions, choose the one below",
  },
  {
    keys: ["enter"],
    label: "Enter",
    scope: "overlay",
    action: "openMention",
    does: "in a log line's detail: open the record of the id chosen (the detail its pane's Enter opens; Esc comes back)",
  },
  {
    keys: DIGITS,
    label: "1-9",
    scope: "overlay",
    action: "mention",
    does: "in a log line's detail: open the record of the id with that number",
  },
  { keys: ["pageup"], label: "PgUp", scope: "overlay", action: "pageUp", does: "scroll up a page" },
  {
    keys: ["pagedown"],
    label: "PgDn",
    scope: "overlay",
    action: "pageDown",
    does: "scroll down a page",
  },
  { keys: ["H"], label: "H", scope: "overlay", action: "heatmap", does: "close the error heatmap" },
  {
    keys: ["!"],
    label: "!",
    scope: "overlay",
    action: "errorRise",
    does: "in the error heatmap: go to where errors first rose, as on the dashboard",
  },
  {
    keys: ["A"],
    label: "A",
    scope: "overlay",
    action: "approve",
    does: "in an activity's detail: approve that activity (a confirmation shows what is decided; y sends the vote)",
  },
  {
    keys: ["R"],
    label: "R",
    scope: "overlay",
    action: "reject",
    does: "in an activity's detail: reject that activity (a confirmation shows what is decided; y sends the vote)",
  },
  {
    keys: ["y"],
    label: "y",
    scope: "vote",
    action: "confirmVote",
    does: "send the vote (only while what is decided is all on screen); other keys do nothing, and any key closes the result",
  },
  {
    keys: ["n", "escape"],
    label: "n, Esc",
    scope: "vote",
    action: "cancelVote",
    does: "cancel: nothing is sent",
  },
  {
    keys: ["up"],
    label: "↑",
    scope: "vote",
    action: "up",
    does: "scroll the rest up (status, creator, votes, intent); what is decided stays",
  },
  { keys: ["down"], label: "↓", scope: "vote", action: "down", does: "scroll the rest down" },
  {
    keys: ["pageup"],
    label: "PgUp",
    scope: "vote",
    action: "pageUp",
    does: "scroll the rest up a page",
  },
  {
    keys: ["pagedown"],
    label: "PgDn",
    scope: "vote",
    action: "pageDown",
    does: "scroll the rest down a page",
  },
  { keys: ["enter"], label: "Enter", scope: "input", action: "apply", does: "apply" },
  { keys: ["escape"], label: "Esc", scope: "input", action: "cancel", does: "cancel" },
  {
    keys: ["up"],
    label: "↑",
    scope: "input",
    action: "recallOlder",
    does: "the pattern typed before (again: earlier ones)",
  },
  { keys: ["down"], label: "↓", scope: "input", action: "recallNewer", does: "a later pattern" },
  {
    keys: ["backspace"],
    label: "Backspace",
    scope: "input",
    action: "erase",
    does: "erase a character",
  },
  { keys: ["up"], label: "↑", scope: "picker", action: "up", does: "select the deployment above" },
  {
    keys: ["down"],
    label: "↓",
    scope: "picker",
    action: "down",
    does: "select the deployment below",
  },
  {
    keys: ["enter"],
    label: "Enter",
    scope: "picker",
    action: "pick",
    does: "watch the selected deployment (● debug mode only) from the start; the one or the scope shown now returns to the dashboard as it was",
  },
  {
    keys: ["r"],
    label: "r",
    scope: "picker",
    action: "retry",
    does: "load the deployments again after a failure",
  },
  {
    keys: ["escape"],
    label: "Esc",
    scope: "picker",
    action: "cancel",
    does: "back to the dashboard, unchanged (at start, with no dashboard: quit)",
  },
  { keys: ["q", "ctrl+c"], label: "q, Ctrl-C", scope: "picker", action: "quit", does: "quit" },
];

/** What a key press is called in the table. */
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

export function keyName(input: string, key: KeyInfo): string | undefined {
  if (key.upArrow) return "up";
  if (key.downArrow) return "down";
  if (key.pageUp) return "pageup";
  if (key.pageDown) return "pagedown";
  if (key.tab) return "tab";
  if (key.escape) return "escape";
  if (key.return) return "enter";
  if (key.backspace || key.delete) return "backspace";
  if (key.ctrl) return input ? `ctrl+${input}` : undefined;
  if (key.meta) return undefined;
  if (input === " ") return "space";
  return input || undefined;
}

/** The binding a key has in the first of `scopes` that binds it. */
export function lookup(scopes: readonly Scope[], name: string | undefined): Binding | undefined {
  if (name === undefined) return undefined;
  for (const scope of scopes) {
    const b = BINDINGS.find((x) => x.scope === scope && x.keys.includes(name));
    if (b) return b;
  }
  return undefined;
}

/** Headings of the scopes in the help and docs/keys.md. */
export const SCOPE_TITLES: Record<Scope, string> = {
  anywhere: "anywhere",
  dashboard: "dashboard",
  logs: "log pane focused",
  lists: "side pane focused",
  overlay: "help, detail, copy view or heatmap open",
  input: "typing in a prompt (search, filter, context, time, file, find in help)",
  vote: "confirming a vote",
  picker: "deployment picker",
};

/** The key table of docs/keys.md, made from the bindings. */
export function keyTableMarkdown(): string {
  // A `|` in a cell (a regex's `a|b`) is escaped, or it would end the cell.
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = BINDINGS.map(
    (b) => `| ${cell(b.label)} | ${SCOPE_TITLES[b.scope]} | ${cell(b.does)} |`,
  );
  return ["| key | where | does |", "|---|---|---|", ...rows].join("\n");
}
