/**
 * The deployment picker as a pure state: its rows (the organization's deployments, and over a
 * running dashboard first the scope shown now), its selection by identity (a reload that adds or
 * drops deployments leaves it on the same one), what each key does, and what a pick means for
 * the dashboard behind it: the scope shown now returns to it unchanged; another starts afresh.
 */
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { joinSafe, lit, type Safe, safeBounded } from "../../text/safe-text.js";
import type { KeyAction } from "../keys/key-bindings.js";
import type { ListRow, Selected } from "./list-selection.js";
import { locate, moveSelection, notSelectedText, selectFirst } from "./list-selection.js";

/** The organization's deployments as the picker has them: loading, the list, or why not. */
export type PickerLoad =
  | { state: "loading" }
  | { state: "failed"; error: string }
  | { state: "loaded"; choices: DeploymentChoice[] };

/** What the dashboard shows: its deployments and, for `--app` / `--all`, how it lists them. */
export interface ShownScope {
  ids: readonly string[];
  /** `--app payments-signer`, `--all`: the scope that lists deployments again while watched. */
  watchLabel?: string | undefined;
  /** The deployment as the picker knows it, when one is shown and known. */
  deployment?: DeploymentChoice | undefined;
}

export type PickerRow =
  /** Over a running dashboard: what it shows now (Enter returns to it unchanged). */
  | { kind: "shown"; key: "shown"; label: Safe }
  | { kind: "deployment"; key: string; choice: DeploymentChoice; shownNow: boolean };

/** How the row of the scope shown now describes it. */
export function shownLabel(shown: ShownScope): Safe {
  if (shown.watchLabel !== undefined) {
    return lit`${safeBounded(shown.watchLabel, 200)} (every debug-mode deployment it lists)`;
  }
  if (shown.ids.length > 1) {
    const ids = joinSafe(
      shown.ids.map((id) => safeBounded(id, 40)),
      lit`, `,
    );
    return lit`${shown.ids.length} deployments: ${ids}`;
  }
  const d = shown.deployment;
  const id = d?.idText ?? safeBounded(shown.ids[0] ?? "", 200);
  return d ? lit`${d.appName} · deployment ${id}` : lit`deployment ${id}`;
}

const isOnly = (shown: ShownScope | undefined, c: DeploymentChoice) =>
  shown !== undefined &&
  shown.watchLabel === undefined &&
  shown.ids.length === 1 &&
  shown.ids[0] === c.deploymentId;

/** The picker's rows: over a dashboard, the scope it shows first; then every deployment. */
export function pickerRows(
  choices: readonly DeploymentChoice[],
  shown: ShownScope | undefined,
): PickerRow[] {
  const rows: PickerRow[] = shown
    ? [{ kind: "shown", key: "shown", label: shownLabel(shown) }]
    : [];
  for (const c of choices) {
    rows.push({ kind: "deployment", key: c.key, choice: c, shownNow: isOnly(shown, c) });
  }
  return rows;
}

function listRows(rows: readonly PickerRow[]): ListRow[] {
  return rows.map((r) => ({
    key: r.key,
    name: r.kind === "shown" ? "the scope shown now" : `deployment ${r.choice.idText}`,
  }));
}

export interface PickerState {
  /** The selected row, by key; none until a key moves it or a row is shown. */
  selected: Selected | undefined;
  /** The answer to the last key (a deployment that cannot be tailed, one that is gone). */
  note: string | undefined;
}

/** Over a dashboard the picker starts on the scope it shows. */
export function initialPicker(over: boolean): PickerState {
  return {
    selected: over ? { key: "shown", name: "the scope shown now", at: 0 } : undefined,
    note: undefined,
  };
}

export type PickerEffect =
  | { type: "pick"; row: PickerRow }
  | { type: "quit" }
  /** Esc over a dashboard: back to it, unchanged. */
  | { type: "back" }
  | { type: "retry" };

/** The selected row: the one chosen, or the first while none is. */
export function pickerSelection(
  state: PickerState,
  rows: readonly PickerRow[],
): number | undefined {
  const at = locate(state.selected, listRows(rows));
  if (at.kind === "on") return at.index;
  return at.kind === "none" && rows.length > 0 ? 0 : undefined;
}

/** One key of the picker (`action` from the picker's bindings): the next state and what to do. */
export function pickerStep(
  state: PickerState,
  action: KeyAction,
  rows: readonly PickerRow[],
  context: { over: boolean; failed: boolean },
): { state: PickerState; effect?: PickerEffect } {
  const cleared = { ...state, note: undefined };
  const list = listRows(rows);
  switch (action) {
    case "quit":
      return { state: cleared, effect: { type: "quit" } };
    case "cancel":
      return { state: cleared, effect: context.over ? { type: "back" } : { type: "quit" } };
    case "retry":
      return context.failed ? { state: cleared, effect: { type: "retry" } } : { state: cleared };
    case "up":
    case "down": {
      // Nothing chosen yet, the first row is the one highlighted: moves start from it.
      const from = selectFirst(state.selected, list);
      return {
        state: { ...cleared, selected: moveSelection(from, list, action === "up" ? -1 : 1) },
      };
    }
    case "pick": {
      const at = locate(state.selected, list);
      const index = at.kind === "on" ? at.index : at.kind === "none" && rows.length > 0 ? 0 : -1;
      const row = rows[index];
      if (!row) {
        const why = notSelectedText(at, "deployment", "watch");
        return { state: { ...cleared, note: at.kind === "none" ? undefined : why } };
      }
      if (row.kind === "deployment" && !row.choice.tailable) {
        return {
          state: {
            ...cleared,
            note: `that one cannot be tailed (${row.choice.reason ?? "unknown"}): pick one marked ●`,
          },
        };
      }
      return { state: cleared, effect: { type: "pick", row } };
    }
    default:
      return { state };
  }
}

/**
 * What a pick means for the dashboard behind the picker: the scope it shows (its row, or the
 * one deployment it shows alone) resumes it unchanged; any other deployment is watched afresh.
 */
export function pickOutcome(
  shown: ShownScope | undefined,
  row: PickerRow,
): { type: "resume" } | { type: "watch"; choice: DeploymentChoice } {
  if (row.kind === "shown") return { type: "resume" };
  if (isOnly(shown, row.choice)) return { type: "resume" };
  return { type: "watch", choice: row.choice };
}
