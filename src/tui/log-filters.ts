/**
 * Which lines of the store a view shows: replicas hidden with 1-9, the deployment shown alone
 * (`d`, when several are followed), the include filters (each `f` narrows: every one must match;
 * `a|b` in one takes either), the exclude filter, the minimum level, and the context lines kept
 * around each line those keep (grep -C). What a filter keeps is decided in src/logs (the same
 * core as `tail`): a line's group is judged by its head, so a stack trace stays whole. Search
 * does not hide lines; it marks them.
 */
import { IndexedFilter } from "../logs/indexed-filter.js";
import { compilePattern, LineFilter } from "../logs/line-filter.js";
import { replicaNumber } from "../logs/replicas.js";
import type { StoreEvent } from "../tail/log-line.js";
import type { LogRows } from "../tail/log-store.js";
import type { LogLevel } from "../text/log-level.js";
import type { Pattern } from "../text/pattern.js";
import { renderedLine, searchable } from "./rendered-line.js";
import type { UiState } from "./ui-state.js";

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
  /** The core's filter over the store; it remembers its verdict on each group head. */
  readonly lines: IndexedFilter;
}

export type FilterState = Pick<
  UiState,
  | "include"
  | "exclude"
  | "search"
  | "hiddenReplicas"
  | "onlyReplica"
  | "onlyDeployment"
  | "minLevel"
  | "context"
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
      minLevel: state.minLevel,
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
    lines,
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

/** Whether the view shows the row at store `index`: a line the filters keep, or a marker. */
export function isShown(store: LogRows, index: number, f: Filters): boolean {
  const event = store.at(index)?.event;
  if (!event) return false;
  if (event.kind !== "line") return !deploymentHidden(event, f);
  return f.lines.shows(store, index);
}

/** Whether a shown line holds a search match. */
export function matchesSearch(event: StoreEvent, f: Filters): boolean {
  if (f.search === undefined || event.kind === "gap") return false;
  return f.search.test(event.kind === "line" ? searchable(event) : event.text);
}
