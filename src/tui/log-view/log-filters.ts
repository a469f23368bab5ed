/**
 * Which lines of the store a view shows: replicas hidden with 1-9, the deployment shown alone
 * (`d`, when several are followed), the include filters (each `f` narrows: every one must match;
 * `a|b` in one takes either), the exclude filter, the field queries (`=`: every one must hold), the minimum level, and the context lines kept
 * around each line those keep (grep -C). What a filter keeps is decided in src/logs (the same
 * core as `tail`): a line's group is judged by its head, so a stack trace stays whole. Search
 * does not hide lines; it marks them.
 *
 * Each row's verdict (shown, holds a match) is remembered by its place (src/logs/row-verdicts.ts),
 * so the work over a whole buffer is done in slices (src/logs/work-budget.ts): a view, a key or
 * the background judging stops when its slice is spent and goes on later where it stopped.
 */
import { parseQuery } from "../../logs/field-query.js";
import { IndexedFilter } from "../../logs/indexed-filter.js";
import { compilePattern, LineFilter, within } from "../../logs/line-filter.js";
import type { EventMarker, StoreEvent } from "../../logs/model/log-line.js";
import type { LogRows } from "../../logs/model/log-store.js";
import { eventLevel } from "../../logs/model/pane-event.js";
import { replicaNumber } from "../../logs/replicas.js";
import { RowVerdicts } from "../../logs/row-verdicts.js";
import type { WorkBudget } from "../../logs/work-budget.js";
import type { LogLevel } from "../../text/log-level.js";
import type { Pattern } from "../../text/pattern.js";
import type { UiState } from "../state/ui-state.js";
import { renderedLine, searchable } from "./rendered-line.js";

export interface Filters {
  include: readonly Pattern[];
  exclude: Pattern | undefined;
  search: Pattern | undefined;
  hidden: ReadonlySet<number>;
  /** The replica shown alone (`o`); undefined: every one not hidden. */
  only: number | undefined;
  /** The deployment shown alone (its id); undefined: every one. */
  deployment: string | undefined;
  minLevel: LogLevel | undefined;
  context: number;
  /** The side panes' events shown among the lines (`I`), judged by the same filters. */
  events: boolean;
  /** The core's filter over the store; it remembers its verdict on each group head. */
  readonly lines: IndexedFilter;
  /** Whether anything is hidden at all (else every row is shown and nothing is judged). */
  readonly narrows: boolean;
  /** Each row's verdict, shown or not, for these filters. */
  readonly shownRows: RowVerdicts;
  /** Each row's verdict, holding a search match or not. */
  readonly matchRows: RowVerdicts;
}

export type FilterState = Pick<
  UiState,
  | "include"
  | "exclude"
  | "where"
  | "search"
  | "hiddenReplicas"
  | "onlyReplica"
  | "onlyDeployment"
  | "minLevel"
  | "context"
  | "timeRange"
  | "events"
>;

export function compileFilters(state: FilterState): Filters {
  const compile = (s: string | undefined) => {
    if (!s) return undefined;
    try {
      return compilePattern(s);
    } catch {
      return undefined;
    }
  };
  const include = state.include.map(compile).filter((r): r is Pattern => r !== undefined);
  const where = state.where.flatMap((q) => {
    try {
      return [parseQuery(q)];
    } catch {
      return [];
    }
  });
  const exclude = compile(state.exclude);
  const hidden = new Set(state.hiddenReplicas);
  const deployment = state.onlyDeployment?.id;
  const only = state.onlyReplica;
  const f = { hidden, only, deployment };
  const lines = new IndexedFilter(
    new LineFilter({
      select:
        hidden.size === 0 && only === undefined && deployment === undefined
          ? undefined
          : (line) => !replicaHidden(line, f),
      include: include.map((r) => [r]),
      exclude: exclude ? [exclude] : [],
      where,
      minLevel: state.minLevel,
      range: state.timeRange,
      before: state.context,
      after: state.context,
      // The level the line's rendering read (cached with it): the same reading as the core's.
      levelOfLine: (line) => renderedLine(line).level,
    }),
  );
  return {
    include,
    exclude,
    search: compile(state.search),
    hidden,
    only,
    deployment,
    minLevel: state.minLevel,
    context: state.context,
    events: state.events,
    lines,
    narrows:
      lines.filter.narrows || hidden.size > 0 || only !== undefined || deployment !== undefined,
    shownRows: new RowVerdicts(),
    matchRows: new RowVerdicts(),
  };
}

function replicaHidden(
  event: StoreEvent,
  f: Pick<Filters, "hidden" | "only" | "deployment">,
): boolean {
  if (deploymentHidden(event, f)) return true;
  if (event.kind !== "line" || (f.hidden.size === 0 && f.only === undefined)) return false;
  const n = replicaNumber(event.replicaLabel);
  return n !== undefined && (f.hidden.has(n) || (f.only !== undefined && n !== f.only));
}

/** A line or marker of a deployment other than the one shown alone (gaps are always shown). */
function deploymentHidden(event: StoreEvent, f: Pick<Filters, "deployment">): boolean {
  return (
    f.deployment !== undefined &&
    event.kind !== "gap" &&
    event.deploymentId !== undefined &&
    event.deploymentId !== f.deployment
  );
}

/**
 * Whether the view shows the row at store `index`: a line the filters keep, or a marker. With a
 * `budget` spent, a row not judged before is not judged now: false, and the budget says so.
 */
export function isShown(
  store: LogRows,
  index: number,
  f: Filters,
  budget?: WorkBudget | undefined,
): boolean {
  if (!f.narrows) return shownNow(store, index, f);
  f.shownRows.sync(store);
  const known = f.shownRows.get(store, index);
  if (known !== undefined) return known;
  if (budget && !budget.allows()) return false;
  const verdict = shownNow(store, index, f);
  f.shownRows.set(store, index, verdict);
  return verdict;
}

function shownNow(store: LogRows, index: number, f: Filters): boolean {
  const event = store.at(index)?.event;
  if (!event) return false;
  const range = f.lines.filter.range;
  if (event.kind === "event")
    return (
      f.events && keepsEvent(event, f) && (range === undefined || within(event.sortKey, range))
    );
  if (event.kind !== "line") {
    return !deploymentHidden(event, f) && (range === undefined || within(event.sortKey, range));
  }
  return f.lines.shows(store, index);
}

/**
 * A side pane's event is judged as a line is: the include, exclude and level filters and the
 * field queries (on its fields and `kind`); the deployment shown alone hides another's.
 */
function keepsEvent(marker: EventMarker, f: Filters): boolean {
  if (deploymentHidden(marker, f)) return false;
  const filter = f.lines.filter;
  if (!filter.narrows) return true;
  const e = marker.event;
  return filter.keepsRecord(e.text, { ...e.fields, kind: e.kind }, eventLevel(e));
}

/**
 * The first row from `index` in direction `step` that is not known to be hidden (rows judged
 * hidden before are passed over without being read): where a walk for shown rows goes on.
 */
export function skipHidden(store: LogRows, index: number, step: 1 | -1, f: Filters): number {
  if (!f.narrows) return index;
  f.shownRows.sync(store);
  return f.shownRows.skipFalse(store, index, step);
}

/** Whether the row at store `index` holds a search match (as isShown, within a budget). */
export function matchesSearchAt(
  store: LogRows,
  index: number,
  f: Filters,
  budget?: WorkBudget | undefined,
): boolean {
  if (f.search === undefined) return false;
  f.matchRows.sync(store);
  const known = f.matchRows.get(store, index);
  if (known !== undefined) return known;
  if (budget && !budget.allows()) return false;
  const event = store.at(index)?.event;
  const verdict = event !== undefined && matchesSearch(event, f);
  f.matchRows.set(store, index, verdict);
  return verdict;
}

/**
 * Judges, newest first, the rows no view or key has judged yet (shown, and holding a match when
 * there is a search) until `budget` is spent. True when every row is judged.
 */
export function judgeRest(store: LogRows, f: Filters, budget: WorkBudget): boolean {
  // A store that searches its own bytes (saved lines) reads on where it stopped.
  if (f.search && store.matching && store.matching(f.search, budget) === undefined) return false;
  for (const [verdicts, judge] of [
    [f.narrows ? f.shownRows : undefined, isShown],
    [f.search && !store.matching ? f.matchRows : undefined, matchesSearchAt],
  ] as const) {
    if (!verdicts) continue;
    verdicts.sync(store);
    for (let i = verdicts.nextUnjudged(store); i >= 0; i = verdicts.nextUnjudged(store)) {
      if (!budget.allows()) return false;
      judge(store, i, f);
    }
  }
  return true;
}

/** Whether a shown line holds a search match. */
export function matchesSearch(event: StoreEvent, f: Filters): boolean {
  if (f.search === undefined || event.kind === "gap") return false;
  return f.search.test(event.kind === "line" ? searchable(event) : event.text);
}
