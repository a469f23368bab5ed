/**
 * The status line, fitted to its width by priority: what changes what you see (paused, filters,
 * search, hidden replicas, the answer to the last key) stays; the rest (poll latency, rate,
 * buffer) is shortened first, then left out. Pure, so every width is testable.
 */

import { queryProblem } from "../../logs/field-query.js";
import type { SearchSoFar } from "../../logs/model/log-store.js";
import type { FollowerState } from "../../tail/follower.js";
import { grouped } from "../../text/grouped-number.js";
import {
  lit,
  type Safe,
  safe,
  safeBounded,
  truncate,
  truncateStart,
  widthOf,
} from "../../text/safe-text.js";
import { SAVE_CHOICES_TEXT } from "../saving/save-range.js";
import { type InputMode, regexError, type SaveOffer, type UiState } from "../state/ui-state.js";
import type { Colour, Segment } from "./segment.js";

interface Item {
  full: Safe;
  /** Shorter forms, longest first. */
  shorter: Safe[];
  colour?: Colour | undefined;
  dim?: boolean;
  /** Higher stays longer. */
  priority: number;
  /** Whether it may be left out entirely (else only shortened). */
  droppable: boolean;
}

const SEPARATOR = lit`  `;

/** 1234 -> 1.2k, 100000 -> 100k */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** A search still reading: its matches so far and how far it is, in full and shorter. */
function searchingCounter(s: SearchSoFar): [Safe, Safe] {
  const share = s.lines > 0 ? Math.min(99, Math.floor((s.read / s.lines) * 100)) : 0;
  return [
    lit` ${safe(grouped(s.found))} found… ${safe(String(share))}%`,
    lit` ${safe(compactCount(s.found))}… ${safe(String(share))}%`,
  ];
}

/** Seconds until the next try, rounded up (0: it is going out now); undefined if not known. */
function secondsToNextTry(s: FollowerState, nowMono: number | undefined): number | undefined {
  if (s.nextPollAt === undefined || nowMono === undefined) return undefined;
  return Math.max(0, Math.ceil((s.nextPollAt - nowMono) / 1000));
}

function seconds(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`;
}

function connection(
  s: FollowerState,
  nowMono: number | undefined,
): { text: Safe; shorter: Safe[]; colour: Colour } {
  switch (s.phase) {
    case "live":
      return { text: lit`● live`, shorter: [lit`●`], colour: "green" };
    case "retrying": {
      // When the next try is, which one it is (failed polls so far + 1), and whether the wait is
      // the server's Retry-After; the reason follows as its own item.
      const attempt = s.retries + 1;
      const wait = secondsToNextTry(s, nowMono);
      const when =
        wait === undefined
          ? lit`retrying`
          : wait === 0
            ? lit`retrying now`
            : lit`retrying in ${wait}s`;
      const asked = s.retryAfter && wait ? lit` (Retry-After)` : lit``;
      return {
        text: lit`● ${when}${asked}, attempt ${attempt}`,
        shorter: [lit`● ${when}, attempt ${attempt}`, lit`● ${when}`, lit`●`],
        colour: "yellow",
      };
    }
    case "failed":
      return { text: lit`● stopped by an error`, shorter: [lit`● error`, lit`●`], colour: "red" };
    case "starting":
      return { text: lit`○ connecting`, shorter: [lit`○`], colour: "yellow" };
    default:
      return { text: lit`○ stopped`, shorter: [lit`○`], colour: "gray" };
  }
}

/** A regex as shown: whole when it fits, else cut (the prompt shows it whole when edited). */
const regexForms = (prefix: Safe, source: string): [Safe, Safe[]] => {
  const full = lit`${prefix}/${safeBounded(source, 500)}/`;
  return [full, [lit`${prefix}/${truncate(safeBounded(source, 500), 12)}/`]];
};

/** A field query as shown: `=[latencyMs > 300]`, cut when it does not fit. */
const queryForms = (source: string): [Safe, Safe[]] => {
  const full = lit`=[${safeBounded(source, 500)}]`;
  return [full, [lit`=[${truncate(safeBounded(source, 500), 12)}]`]];
};

export interface StatusInput {
  /** The follow's state; undefined: saved lines, nothing followed. */
  follower: FollowerState | undefined;
  /** Saved lines still read as they come: what is followed ("standard input", a file). */
  reading?: string | undefined;
  ui: UiState;
  buffered: number;
  cap: number;
  /** Now on the follower's monotonic clock: when the next try is, how old the figures are. */
  nowMono?: number | undefined;
  /** Activities awaiting my vote (CONSENSUS_NEEDED). */
  awaitingVotes?: number | undefined;
  /** The search still reading the lines (saved lines, in slices): what it found so far. */
  searching?: SearchSoFar | undefined;
}

/** The filters and view settings in force, as status items: regexes, queries, level, columns, range, context. */
function filterItems(ui: UiState): Item[] {
  const items: Item[] = [];
  const regexes: [Safe, string][] = [
    ...ui.include.map((i): [Safe, string] => [lit`+`, i]),
    ...(ui.exclude ? [[lit`-`, ui.exclude] as [Safe, string]] : []),
  ];
  for (const [prefix, source] of regexes) {
    const [full, shorter] = regexForms(prefix, source);
    items.push({ full, shorter, colour: "cyan", priority: 8, droppable: false });
  }
  for (const query of ui.where) {
    const [full, shorter] = queryForms(query);
    items.push({ full, shorter, colour: "cyan", priority: 8, droppable: false });
  }
  if (ui.minLevel) {
    const level = safe(ui.minLevel);
    items.push({
      full: lit`level ≥ ${level}`,
      shorter: [lit`≥${level}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.columns) {
    items.push({
      full: lit`columns ${safeBounded(ui.columns.join(","), 60)}`,
      shorter: [lit`|${ui.columns.length}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.timeRange) {
    items.push({
      full: safe(ui.timeRange.words),
      shorter: [lit`⏱`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.context > 0) {
    items.push({
      full: lit`context ${ui.context}`,
      shorter: [lit`C${ui.context}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  return items;
}

/** Saved lines: still read from a pipe or a followed file, or read to their end. */
function savedConnection(reading: string | undefined) {
  if (reading === undefined)
    return { text: lit`○ saved lines`, shorter: [lit`○ saved`, lit`○`], colour: "gray" as const };
  // A long path keeps its end: the file's name.
  const name = truncateStart(safeBounded(reading, 500), 40);
  return {
    text: lit`○ reading ${name}`,
    shorter: [lit`○ reading`, lit`○`],
    colour: "green" as const,
  };
}

/** What narrows the lines shown, or adds to them: a deployment or replica alone, hidden ones, events. */
function shownItems(ui: UiState): Item[] {
  const items: Item[] = [];
  if (ui.onlyDeployment) {
    const label = safeBounded(ui.onlyDeployment.label, 40);
    items.push({
      full: lit`only ${label}`,
      shorter: [lit`=${label}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.onlyReplica !== undefined) {
    items.push({
      full: lit`only replica ${ui.onlyReplica}`,
      shorter: [lit`=r${ui.onlyReplica}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.events) {
    items.push({
      full: lit`◆ events`,
      shorter: [lit`◆`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  if (ui.hiddenReplicas.length > 0) {
    const list = safe(ui.hiddenReplicas.join(","));
    items.push({
      full: lit`hidden ${list}`,
      shorter: [lit`h ${list}`],
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  return items;
}

export function statusItems({
  follower,
  reading,
  ui,
  buffered,
  cap,
  nowMono,
  awaitingVotes,
  searching,
}: StatusInput): Item[] {
  const items: Item[] = [];
  const c = follower ? connection(follower, nowMono) : savedConnection(reading);
  items.push({ full: c.text, shorter: c.shorter, colour: c.colour, priority: 9, droppable: false });
  const cause = follower ? causeItem(follower) : undefined;
  // Why polls fail, next to the connection: the rest gives way before it is cut below 30 cells.
  if (cause) items.push(cause);
  items.push({
    full: ui.following ? lit`following` : lit`⏸ paused`,
    shorter: ui.following ? [lit`follow`] : [lit`⏸`],
    colour: ui.following ? "green" : "yellow",
    priority: 10,
    droppable: false,
  });
  items.push(...filterItems(ui));
  if (ui.search) {
    const [full, shorter] = regexForms(lit`search `, ui.search);
    const m = ui.matchPosition;
    const [counter, short] = m
      ? [lit` ${safe(grouped(m.index))}/${safe(grouped(m.total))}`, lit` ${m.index}/${m.total}`]
      : searching
        ? searchingCounter(searching)
        : [lit``, lit``];
    items.push({
      full: lit`${full}${counter}`,
      shorter: shorter.map((x) => lit`${x}${short}`),
      colour: "cyan",
      priority: 8,
      droppable: false,
    });
  }
  items.push(...shownItems(ui));
  if (ui.riseWhenIndexed) {
    // Said for as long as it waits, not only in the notice `!` gave (which expires).
    items.push({
      full: lit`! waits for the index`,
      shorter: [lit`! waits`, lit`!…`],
      colour: "yellow",
      priority: 8,
      droppable: false,
    });
  }
  if (awaitingVotes) {
    items.push({
      full: lit`⚑ ${awaitingVotes} awaiting your vote`,
      shorter: [lit`⚑ ${awaitingVotes} to vote`, lit`⚑${awaitingVotes}`],
      colour: "yellow",
      // Shortened (never left out) before the answer to the last key is cut.
      priority: 6,
      droppable: false,
    });
  }
  const answer = ui.inputError ?? ui.notice;
  if (answer) {
    const text = safeBounded(answer, 500);
    // A notice that says its own shorter form is shortened to it, not cut mid-word.
    const short = ui.inputError === undefined && ui.noticeShort ? ui.noticeShort : undefined;
    items.push({
      full: text,
      shorter: short
        ? [truncate(text, 40), safeBounded(short, 40)]
        : [truncate(text, 40), truncate(text, 20)],
      colour: ui.inputError ? "red" : "yellow",
      priority: 7,
      // While polls fail, why they do stays before the answer to a key (it expires anyway).
      droppable: cause !== undefined,
    });
  }
  if (follower) items.push(...followItems(follower, nowMono));
  items.push({
    full: lit`${safe(grouped(buffered))}/${safe(grouped(cap))} buffered`,
    shorter: [lit`${safe(compactCount(buffered))}/${safe(compactCount(cap))}`],
    priority: 1,
    droppable: true,
  });
  items.push({ full: lit`? help`, shorter: [lit`?`], dim: true, priority: 5, droppable: false });
  return items;
}

/** The least of the follow's error the status line shows while it fails (all of it if shorter). */
export const MIN_CAUSE = 30;

/** Why the follow is not live, shortened to MIN_CAUSE cells at most, never left out. */
function causeItem(follower: FollowerState): Item | undefined {
  if (follower.phase === "live" || !follower.lastError) return undefined;
  const text = safeBounded(follower.lastError, 500);
  return {
    full: text,
    shorter: [truncate(text, 48), truncate(text, MIN_CAUSE)],
    colour: "red",
    // Shortened (to MIN_CAUSE at the least) before the answer to a key gives way entirely.
    priority: 7.5,
    droppable: false,
  };
}

/** What the follow says besides its phase and why: how old its figures are, its rate. */
function followItems(follower: FollowerState, nowMono: number | undefined): Item[] {
  const items: Item[] = [];
  const live = follower.phase === "live";
  if (!live && follower.phase !== "starting" && follower.lastSuccessAt !== undefined) {
    // Rates and latency are of the last good poll: not shown as if current while not live.
    const ago =
      nowMono === undefined ? lit`` : lit` ${safe(seconds(nowMono - follower.lastSuccessAt))} ago`;
    items.push({
      full: lit`last good poll${ago}`,
      shorter: [lit`last ok${ago}`],
      dim: true,
      priority: 3,
      droppable: true,
    });
  }
  const rate = follower.linesPerSecond;
  if (live)
    items.push({
      full: lit`${safe(rate.toFixed(rate < 10 ? 1 : 0))} lines/s`,
      shorter: [lit`${safe(compactCount(Math.round(rate)))}/s`],
      priority: 3,
      droppable: true,
    });
  if (live && follower.lastPollLatencyMs !== undefined) {
    items.push({
      full: lit`poll ${Math.round(follower.lastPollLatencyMs)}ms`,
      shorter: [lit`${Math.round(follower.lastPollLatencyMs)}ms`],
      priority: 2,
      droppable: true,
    });
  }
  return items;
}

/** The status line's segments for `width` cells. */
export function statusLine(input: StatusInput, width: number): Segment[] {
  const items = statusItems(input);
  const forms = items.map(() => 0);
  const dropped = items.map(() => false);
  const textOf = (i: number): Safe => {
    const item = items[i] as Item;
    const level = forms[i] as number;
    return level === 0 ? item.full : (item.shorter[level - 1] ?? item.full);
  };
  const used = () =>
    items.reduce(
      (n, _, i) => (dropped[i] ? n : n + widthOf(textOf(i)) + (n > 0 ? widthOf(SEPARATOR) : 0)),
      0,
    );
  // Give way in this order until it fits: shorten the lesser items, then leave them out, and
  // only then shorten what changes what you see.
  const order = items
    .map((_, i) => i)
    .sort((a, b) => (items[a] as Item).priority - (items[b] as Item).priority);
  const shorten = (i: number) =>
    (items[i] as Item).shorter.map(() => () => {
      forms[i] = (forms[i] as number) + 1;
    });
  const drop = (i: number) => () => {
    dropped[i] = true;
  };
  const tier = (from: number, to: number) =>
    order.filter((i) => (items[i] as Item).priority >= from && (items[i] as Item).priority < to);
  // Figures (rate, latency, buffer) give way entirely before the answer to a key or the
  // follower's reason for retrying is cut; that reason keeps MIN_CAUSE cells.
  const steps: (() => void)[] = [
    ...tier(0, 5).flatMap(shorten),
    ...tier(0, 5)
      .filter((i) => (items[i] as Item).droppable)
      .map(drop),
    ...tier(5, 8).flatMap(shorten),
    ...tier(8, Number.POSITIVE_INFINITY).flatMap(shorten),
    // Last, while polls fail, the answer to a key gives way to why they do.
    ...tier(5, 8)
      .filter((i) => (items[i] as Item).droppable)
      .map(drop),
  ];
  for (const step of steps) {
    if (used() <= width) break;
    step();
  }
  const segments: Segment[] = [];
  items.forEach((item, i) => {
    if (dropped[i]) return;
    if (segments.length > 0) segments.push({ text: SEPARATOR });
    segments.push({ text: textOf(i), colour: item.colour, dim: item.dim });
  });
  return segments;
}

const PROMPTS: Record<InputMode, Safe> = {
  search: lit`search /`,
  include: lit`include f /`,
  exclude: lit`exclude F /`,
  where: lit`where = `,
  columns: lit`columns | (fields, e.g. time,level,msg): `,
  context: lit`context lines (0-50): `,
  jump: lit`go to time (-5m, 14:02:10): `,
  saveRange: lit`save which lines? `,
  save: lit`save to file: `,
  helpFind: lit`find in help: `,
};

/** `S`'s file prompt: the lines chosen, counted, and the name Enter takes (`[…]`). */
function saveLabel(offer: SaveOffer): Safe {
  const n = (x: number) => grouped(x);
  const gaps = offer.markers > 0 ? lit` + ${safe(n(offer.markers))} gaps` : lit``;
  const what = offer.bundle ? lit`a bundle of ` : lit``;
  return lit`save ${what}${safe(n(offer.lines))} lines${gaps} (${safeBounded(offer.words, 120)}) to `;
}

/**
 * The prompt while something is typed: the whole text, its end kept in view; a pattern that
 * does not compile (or a reason Enter was refused) is said in full after it.
 */
export function promptLine(input: NonNullable<UiState["input"]>, width: number): Segment[] {
  const label = input.save ? saveLabel(input.save) : PROMPTS[input.mode];
  const regex = input.mode === "search" || input.mode === "include" || input.mode === "exclude";
  const problem =
    input.error ??
    (regex && input.text !== ""
      ? regexError(input.text)
      : input.mode === "where" && input.text.trim() !== ""
        ? queryProblem(input.text.trim())
        : undefined);
  const hint = problem
    ? lit`  ${safeBounded(problem, 300)}`
    : input.mode === "saveRange"
      ? lit`  ${safe(SAVE_CHOICES_TEXT)}`
      : lit`  Enter applies · Esc cancels · ↑ earlier`;
  const room = Math.max(4, width - widthOf(label) - widthOf(hint) - 1);
  // Nothing typed at the file prompt: the name Enter takes, in brackets.
  const offered = input.save && input.text === "" ? input.save.defaultName : undefined;
  if (offered !== undefined) {
    // The name first: the hint only where it fits beside it whole.
    const full = safeBounded(offered, 400);
    const spare = width - widthOf(label) - widthOf(full) - 4;
    const tail = problem ? hint : lit`  Enter saves · Esc cancels`;
    const shownHint = problem || widthOf(tail) <= spare ? tail : lit``;
    const name = truncateStart(full, Math.max(4, width - widthOf(label) - widthOf(shownHint) - 4));
    return [
      { text: label, colour: "cyan" },
      { text: lit`▏[${name}]`, dim: true },
      problem ? { text: shownHint, colour: "red" } : { text: shownHint, dim: true },
    ];
  }
  // Keep the end of a long pattern in view, where the cursor is.
  const shown = truncateStart(safeBounded(input.text, 2000), room);
  return [
    { text: label, colour: "cyan" },
    { text: lit`${shown}▏` },
    problem ? { text: hint, colour: "red" } : { text: hint, dim: true },
  ];
}
