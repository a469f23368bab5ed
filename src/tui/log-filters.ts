/**
 * Which lines of the store a view shows: replicas hidden with 1-9, the deployment shown alone
 * (`d`, when several are followed), the include filters (every one
 * must match), the exclude filter, the minimum level, and the context lines kept around each line
 * those keep (grep -C). A line's group (./line-groups.ts) is judged by its head, so a stack trace
 * stays whole. Search does not hide lines; it marks them.
 */
import type { LogLine, StoreEvent } from "../tail/log-line.js";
import type { LogStore } from "../tail/log-store.js";
import { isAtLeast, type LogLevel } from "../text/log-level.js";
import { smartCaseRegex } from "../text/smart-case.js";
import { groupHead } from "./line-groups.js";
import { renderedLine, replicaNumber, searchable } from "./rendered-line.js";
import type { UiState } from "./ui-state.js";

export interface Filters {
  include: readonly RegExp[];
  exclude: RegExp | undefined;
  search: RegExp | undefined;
  hidden: ReadonlySet<number>;
  /** The deployment shown alone (its id); undefined: every one. */
  deployment: string | undefined;
  minLevel: LogLevel | undefined;
  context: number;
  /** Whether a group head passes the filters, remembered for these filters. */
  readonly verdicts: WeakMap<LogLine, boolean>;
}

export type FilterState = Pick<
  UiState,
  "include" | "exclude" | "search" | "hiddenReplicas" | "onlyDeployment" | "minLevel" | "context"
>;

export function compileFilters(state: FilterState): Filters {
  const compile = (s: string | undefined) => {
    if (!s) return undefined;
    try {
      return smartCaseRegex(s);
    } catch {
      return undefined;
    }
  };
  return {
    include: state.include.map(compile).filter((r): r is RegExp => r !== undefined),
    exclude: compile(state.exclude),
    search: compile(state.search),
    hidden: new Set(state.hiddenReplicas),
    deployment: state.onlyDeployment?.id,
    minLevel: state.minLevel,
    context: state.context,
    verdicts: new WeakMap(),
  };
}

/** True when some filter (not only replicas) narrows what is shown. */
export function filtering(f: Filters): boolean {
  return f.include.length > 0 || f.exclude !== undefined || f.minLevel !== undefined;
}

function replicaHidden(event: StoreEvent, f: Filters): boolean {
  if (deploymentHidden(event, f)) return true;
  if (event.kind !== "line" || f.hidden.size === 0) return false;
  const n = replicaNumber(event.replicaLabel);
  return n !== undefined && f.hidden.has(n);
}

/** A line or marker of a deployment other than the one shown alone (gaps are always shown). */
function deploymentHidden(event: StoreEvent, f: Filters): boolean {
  return (
    f.deployment !== undefined &&
    event.kind !== "gap" &&
    event.deploymentId !== undefined &&
    event.deploymentId !== f.deployment
  );
}

/** Lines with no level of their own (and none in their group) count as info. */
export function levelOfLine(event: LogLine): LogLevel {
  return renderedLine(event).level ?? "info";
}

/** Whether a group head passes the include, exclude and level filters. */
function headPasses(head: LogLine, f: Filters): boolean {
  const known = f.verdicts.get(head);
  if (known !== undefined) return known;
  let ok = f.minLevel === undefined || isAtLeast(levelOfLine(head), f.minLevel);
  if (ok && (f.include.length > 0 || f.exclude)) {
    const text = searchable(head);
    ok = f.include.every((r) => r.test(text)) && !f.exclude?.test(text);
  }
  f.verdicts.set(head, ok);
  return ok;
}

/** The line at `index` passes the filters on its own (its group's head does). */
function passes(store: LogStore, index: number, f: Filters): boolean {
  const event = store.at(index)?.event;
  if (!event) return false;
  if (event.kind !== "line") return !deploymentHidden(event, f);
  if (replicaHidden(event, f)) return false;
  if (!filtering(f)) return true;
  const head = groupHead(store, index) ?? event;
  return headPasses(head, f);
}

/** Whether the view shows the line at store `index`. */
export function isShown(store: LogStore, index: number, f: Filters): boolean {
  if (passes(store, index, f)) return true;
  if (f.context === 0 || !filtering(f)) return false;
  const event = store.at(index)?.event;
  if (!event || replicaHidden(event, f)) return false;
  const from = Math.max(0, index - f.context);
  const to = Math.min(store.size() - 1, index + f.context);
  for (let i = from; i <= to; i++) {
    const e = store.at(i)?.event;
    if (i !== index && e?.kind === "line" && passes(store, i, f)) return true;
  }
  return false;
}

/** Whether a shown line holds a search match. */
export function matchesSearch(event: StoreEvent, f: Filters): boolean {
  if (f.search === undefined || event.kind === "gap") return false;
  return f.search.test(event.kind === "line" ? searchable(event) : event.text);
}
