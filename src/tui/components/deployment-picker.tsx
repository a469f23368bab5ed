import { Box, useInput } from "ink";
import { useEffect, useState } from "react";
import { shortAge } from "../../feeds/activity-summary.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { joinSafe, lit, type Safe, safe, safeBounded } from "../../text/safe-text.js";
import { cell, planColumns } from "../columns.js";
import type { KeyInfo } from "../key-bindings.js";
import { keyName, lookup } from "../key-bindings.js";
import { Line, SafeText } from "./safe-text.js";
import { visibleWindow } from "./visible-window.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export type PickerLoad =
  | { state: "loading" }
  | { state: "failed"; error: string }
  | { state: "loaded"; choices: DeploymentChoice[] };

type Col = "mark" | "app" | "id" | "note";

/** The app name stays, then the id shortens to its first characters, then the note goes. */
export function pickerColumns(inner: number) {
  return planColumns<Col>(
    [
      { id: "mark", forms: [1] },
      { id: "app", forms: [20, 14] },
      { id: "id", forms: [36, 9] },
    ],
    "note",
    32,
    inner,
    ["id", "app"],
  );
}

function note(c: DeploymentChoice, now: number): Safe {
  const parts: Safe[] = [];
  if (!c.tailable) parts.push(c.reason ?? lit`cannot be tailed`);
  if (c.live) parts.push(lit`live`);
  if (c.createdAt !== undefined) parts.push(lit`created ${safe(shortAge(now - c.createdAt))} ago`);
  if (c.qosVersion) parts.push(lit`qos ${c.qosVersion}`);
  if (c.listed > 1) parts.push(lit`listed ${c.listed} times by the server`);
  return joinSafe(parts, lit` · `);
}

/**
 * The organization's deployments (a spinner while they load), debug-mode ones first; Enter picks
 * a tailable one, q quits. Each row says why a deployment cannot be tailed.
 */
export function DeploymentPicker(props: {
  load: PickerLoad;
  onPick: (c: DeploymentChoice) => void;
  onQuit: () => void;
  onRetry?: () => void;
  width: number;
  rows: number;
  now?: number;
}) {
  const [selected, setSelected] = useState(0);
  const [note_, setNote] = useState<Safe | undefined>();
  const [frame, setFrame] = useState(0);
  const loading = props.load.state === "loading";
  useEffect(() => {
    if (!loading) return;
    const timer = setInterval(() => setFrame((f) => f + 1), 100);
    return () => clearInterval(timer);
  }, [loading]);
  const choices = props.load.state === "loaded" ? props.load.choices : [];
  useInput((input, key: KeyInfo) => {
    const b = lookup(["picker"], keyName(input, key));
    if (!b) return;
    if (b.action === "quit") return props.onQuit();
    if (b.action === "retry" && props.load.state === "failed") return props.onRetry?.();
    if (b.action === "up") setSelected((s) => Math.max(0, s - 1));
    if (b.action === "down") setSelected((s) => Math.min(choices.length - 1, s + 1));
    if (b.action === "pick") {
      const c = choices[selected];
      if (c?.tailable) props.onPick(c);
      else if (c) {
        setNote(lit`that one cannot be tailed (${c.reason ?? lit`unknown`}): pick one marked ●`);
      }
    }
  });
  const now = props.now ?? Date.now();
  const inner = Math.max(20, props.width);
  const plan = pickerColumns(inner);
  const w = plan.widths;
  const listRows = Math.max(1, props.rows - 11);
  const { first, items } = visibleWindow(choices, selected, listRows);
  const current = choices[selected];
  return (
    <Box flexDirection="column" width={inner}>
      <SafeText bold>{lit`tvcwatch · pick a deployment to watch`}</SafeText>
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
          {lit`${safeBounded(props.load.error, 1000)} · r retries · q quits`}
        </SafeText>
      ) : null}
      {props.load.state === "loaded" && choices.length === 0 ? (
        <SafeText colour="yellow">{lit`This organization has no TVC deployments.`}</SafeText>
      ) : null}
      {items.length > 0 ? (
        <SafeText dim>
          {joinSafe(
            [
              cell(lit``, 1),
              cell(lit`app`, w.app ?? 1),
              cell(lit`deployment`, w.id ?? 1),
              cell(lit`state`, w.note ?? 1),
            ],
            lit` `,
          )}
        </SafeText>
      ) : null}
      {items.map((c, i) => (
        <SafeText key={c.key} inverse={first + i === selected} dim={!c.tailable}>
          {joinSafe(
            [
              c.tailable ? lit`●` : lit`○`,
              cell(c.appName, w.app ?? 1),
              cell(c.idText, w.id ?? 1),
              cell(note(c, now), w.note ?? 1),
            ],
            lit` `,
          )}
        </SafeText>
      ))}
      {current ? (
        <Box flexDirection="column" marginTop={1}>
          <Line
            segments={[
              { text: lit`app `, dim: true },
              { text: current.appName, bold: true },
              { text: lit` · deployment `, dim: true },
              { text: current.idText },
            ]}
          />
          <SafeText dim>
            {current.tailable
              ? lit`Enter watches it`
              : lit`cannot be tailed: ${current.reason ?? lit`unknown`} (only debug-mode deployments serve their logs)`}
          </SafeText>
        </Box>
      ) : null}
      {note_ ? <SafeText colour="yellow">{note_}</SafeText> : null}
      <SafeText dim>{lit`↑ ↓ select · Enter watch · q quits`}</SafeText>
    </Box>
  );
}
