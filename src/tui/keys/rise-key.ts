/**
 * `H` and `!`: the error heatmap opened and closed, and the cursor put where the incident began:
 * in the bucket where errors first rose above baseline (src/logs/error-heatmap.ts has the rule),
 * the first error new to that replica, or of the message that rose most (src/logs/error-onset.ts),
 * said in the status line with the rule that picked it; or why not (no rise, no baseline yet, the
 * line hidden by the view); over a saved file whose start is still being indexed, once it is.
 */
import type { ErrorHeatmap } from "../../logs/error-heatmap.js";
import type { LogNavigator } from "../log-view/log-navigator.js";
import { noRiseText, riseNotice } from "../rows/heatmap-rows.js";
import type { UiAction, UiState } from "../state/ui-state.js";
import type { Binding } from "./key-bindings.js";

export interface RiseContext {
  log: LogNavigator;
  /** The heatmap of the whole buffer now, computed when asked; absent: no log. */
  errors?: (() => ErrorHeatmap | undefined) | undefined;
  /** How much of saved files is indexed (percent) while their start is still read; else undefined. */
  indexing?: (() => number | undefined) | undefined;
}

/** H: opens the heatmap from the dashboard, closes it when it is the overlay shown. */
export function heatmapKey(b: Binding, state: UiState): UiAction | undefined {
  if (b.scope === "overlay" && (!state.heatmap || state.help)) return undefined;
  return { type: "toggleHeatmap" };
}

/** What the view hides a line by: which key shows it again. */
function hiddenBy(state: UiState, replica: number | undefined): string {
  if (replica !== undefined && state.hiddenReplicas.includes(replica))
    return `${replica} shows replica ${replica}`;
  if (state.onlyDeployment) return "d shows every deployment";
  return "X clears the filters";
}

/** What `!` says while it waits for the start of a saved file to be indexed. */
export function riseWaitText(percent: number, again: boolean): string {
  return again
    ? `indexing ${percent}%: ! still waits for every line to go to the onset (Esc cancels)`
    : `indexing ${percent}%: ! goes to the onset once every line is in (Esc cancels)`;
}

/** What Esc says when it cancels a `!` waiting for indexing. */
export const RISE_WAIT_CANCELLED = "! no longer waits for indexing";

/**
 * !: the cursor on the onset of the first rise, the heatmap closed; or why not. While a saved
 * file's start is still indexed, it waits and goes there once every line is in (the controller
 * runs riseSteps then); a second `!` meanwhile says it still waits, Esc cancels.
 */
export function riseKey(b: Binding, state: UiState, ctx: RiseContext): UiAction[] {
  if (b.scope === "overlay" && (!state.heatmap || state.help)) return [];
  // The start of a file not read yet holds its baseline, and maybe the rise: none is told from
  // the newest lines alone.
  const indexing = ctx.indexing?.();
  if (indexing !== undefined)
    return [
      { type: "riseWhenIndexed", on: true },
      { type: "notice", text: riseWaitText(indexing, state.riseWhenIndexed) },
    ];
  return riseSteps(state, ctx);
}

/** Where `!` goes over every line read: the onset of the first rise, or why not. */
export function riseSteps(state: UiState, ctx: RiseContext): UiAction[] {
  const map = ctx.errors?.();
  const rise = map?.rise;
  if (!map || !rise) return [{ type: "notice", text: noRiseText(map) }];
  const move = ctx.log.toIndex(state, rise.onset?.index ?? rise.index);
  if (!move) {
    const hint = hiddenBy(state, rise.replica.number);
    return [{ type: "notice", text: riseNotice(map, rise, hint) }];
  }
  return [
    ...(state.heatmap ? [{ type: "toggleHeatmap" } as const] : []),
    { type: "moveTo", anchor: move.anchor, cursor: move.cursor, total: ctx.log.total() },
    { type: "notice", text: riseNotice(map, rise) },
  ];
}
