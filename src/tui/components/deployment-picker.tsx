import { Box } from "ink";
import { useEffect, useState } from "react";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { shortAge } from "../../text/duration.js";
import { joinSafe, lit, type Safe, safe, safeBounded } from "../../text/safe-text.js";
import { cell, planColumns } from "../panes/columns.js";
import { readyText } from "../panes/health-detail.js";
import { visibleWindow } from "../panes/visible-window.js";
import type { PickerLoad, PickerRow, PickerState, ShownScope } from "../state/picker-state.js";
import { pickerSelection } from "../state/picker-state.js";
import { Line, SafeText } from "./safe-text.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The spinner's frame, turning every 100 ms while `on`. */
function useSpinner(on: boolean): number {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setFrame((f) => f + 1), 100);
    return () => clearInterval(timer);
  }, [on]);
  return frame;
}

type Col = "mark" | "app" | "id" | "ready" | "note";

/**
 * The app name stays, then the id shortens to its first characters, then the ready column
 * narrows, then the note goes.
 */
export function pickerColumns(inner: number) {
  return planColumns<Col>(
    [
      { id: "mark", forms: [1] },
      { id: "app", forms: [20, 14] },
      { id: "id", forms: [36, 9] },
      { id: "ready", forms: [7, 5], align: "right" },
    ],
    "note",
    32,
    inner,
    ["id", "app", "ready"],
  );
}

/** "2/3": its ready and desired replicas as its app's status said; "—" when not known. */
function readyCell(c: DeploymentChoice): Safe {
  return c.health ? lit`${c.health.ready}/${c.health.desired}` : lit`—`;
}

/** "3/3 ready, targeted by its app · ": the selected row's health in words, when known. */
function healthWords(c: DeploymentChoice): Safe {
  if (!c.health) return lit``;
  return lit`${safe(readyText(c.health))}${c.health.targeted ? lit`, targeted by its app` : lit``} · `;
}

function note(c: DeploymentChoice, now: number, shownNow = false): Safe {
  const parts: Safe[] = shownNow ? [lit`shown now`] : [];
  if (!c.tailable) parts.push(c.reason ?? lit`cannot be tailed`);
  if (c.health?.targeted) parts.push(lit`targeted`);
  if (c.live) parts.push(lit`live`);
  if (c.createdAt !== undefined) parts.push(lit`created ${safe(shortAge(now - c.createdAt))} ago`);
  if (c.qosVersion) parts.push(lit`qos ${c.qosVersion}`);
  if (c.listed > 1) parts.push(lit`listed ${c.listed} times by the server`);
  return joinSafe(parts, lit` · `);
}

/**
 * The organization's deployments (a spinner while they load), debug-mode ones first, the
 * selected one highlighted and described; each row says why a deployment cannot be tailed.
 * Opened over a running dashboard (`over`), its first row is what the dashboard shows. Its state
 * and keys are the app controller's (../controller/app-controller.ts); this only draws them.
 */
export function DeploymentPicker(props: {
  load: PickerLoad;
  state: PickerState;
  list: readonly PickerRow[];
  /** What the dashboard behind the picker shows; undefined at start. */
  over?: ShownScope | undefined;
  width: number;
  rows: number;
  now?: number;
}) {
  const frame = useSpinner(props.load.state === "loading");
  const { state } = props;
  const rows = props.list;
  const choices = props.load.state === "loaded" ? props.load.choices : [];
  const now = props.now ?? Date.now();
  const inner = Math.max(20, props.width);
  const plan = pickerColumns(inner);
  const w = plan.widths;
  const listRows = Math.max(1, props.rows - 11);
  const selected = pickerSelection(state, rows);
  const { first, items } = visibleWindow(rows, selected ?? 0, listRows);
  const current = selected === undefined ? undefined : rows[selected];
  const back = props.over ? lit` · Esc back to the dashboard` : lit``;
  return (
    <Box flexDirection="column" width={inner}>
      <SafeText bold>
        {props.over
          ? lit`pick a deployment to watch, or go back to the one shown`
          : lit`tvcwatch · pick a deployment to watch`}
      </SafeText>
      <SafeText
        dim
      >{lit`● debug mode: its logs can be read · ○ cannot be tailed (the row says why)`}</SafeText>
      {props.load.state === "loading" ? (
        <SafeText colour="cyan">
          {lit`${safe(SPINNER[frame % SPINNER.length] ?? "")} loading the organization's deployments…`}
        </SafeText>
      ) : null}
      {props.load.state === "failed" ? (
        <SafeText colour="red" wrap="wrap">
          {lit`${safeBounded(props.load.error, 1000)} · r retries${back} · q quits`}
        </SafeText>
      ) : null}
      {props.load.state === "loaded" && choices.length === 0 ? (
        <SafeText colour="yellow">{lit`This organization has no TVC deployments.`}</SafeText>
      ) : null}
      {choices.length > 0 ? (
        <SafeText dim>
          {joinSafe(
            [
              cell(lit``, 1),
              cell(lit`app`, w.app ?? 1),
              cell(lit`deployment`, w.id ?? 1),
              cell(lit`ready`, w.ready ?? 1, "right"),
              cell(lit`state`, w.note ?? 1),
            ],
            lit` `,
          )}
        </SafeText>
      ) : null}
      {items.map((r, i) =>
        r.kind === "shown" ? (
          <SafeText key={r.key} inverse={first + i === selected} bold>
            {lit`↩ shown now: ${r.label}`}
          </SafeText>
        ) : (
          <SafeText key={r.key} inverse={first + i === selected} dim={!r.choice.tailable}>
            {joinSafe(
              [
                r.choice.tailable ? lit`●` : lit`○`,
                cell(r.choice.appName, w.app ?? 1),
                cell(r.choice.idText, w.id ?? 1),
                cell(readyCell(r.choice), w.ready ?? 1, "right"),
                cell(note(r.choice, now, r.shownNow), w.note ?? 1),
              ],
              lit` `,
            )}
          </SafeText>
        ),
      )}
      {current?.kind === "shown" ? (
        <Box marginTop={1}>
          <SafeText dim>{lit`shown now: Enter returns to the dashboard as it is`}</SafeText>
        </Box>
      ) : null}
      {current?.kind === "deployment" ? (
        <Box flexDirection="column" marginTop={1}>
          <Line
            segments={[
              { text: lit`app `, dim: true },
              { text: current.choice.appName, bold: true },
              { text: lit` · deployment `, dim: true },
              { text: current.choice.idText },
            ]}
          />
          <SafeText dim>
            {lit`${healthWords(current.choice)}${
              current.shownNow
                ? lit`shown now: Enter returns to the dashboard as it is`
                : current.choice.tailable
                  ? lit`Enter watches it${props.over ? lit` (the dashboard starts afresh)` : lit``}`
                  : lit`cannot be tailed: ${current.choice.reason ?? lit`unknown`} (only debug-mode deployments serve their logs)`
            }`}
          </SafeText>
        </Box>
      ) : null}
      {state.note ? <SafeText colour="yellow">{safeBounded(state.note, 500)}</SafeText> : null}
      <SafeText dim>{lit`↑ ↓ select · Enter watch${back} · q quits`}</SafeText>
    </Box>
  );
}
