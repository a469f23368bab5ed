import { Box, useInput } from "ink";
import { useState } from "react";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { lit, padEnd } from "../../text/safe-text.js";
import { SafeText } from "./safe-text.js";

/** Lists the organization's deployments; Enter picks a tailable one, q quits. */
export function DeploymentPicker(props: {
  choices: DeploymentChoice[];
  onPick: (c: DeploymentChoice) => void;
  onQuit: () => void;
  rows: number;
}) {
  const [selected, setSelected] = useState(0);
  const [note, setNote] = useState(false);
  useInput((input, key) => {
    if (input === "q" || key.escape || (key.ctrl && input === "c")) return props.onQuit();
    if (key.upArrow) setSelected((s) => Math.max(0, s - 1));
    if (key.downArrow) setSelected((s) => Math.min(props.choices.length - 1, s + 1));
    if (key.return) {
      const c = props.choices[selected];
      if (c?.tailable) props.onPick(c);
      else if (c) setNote(true);
    }
  });
  const visible = props.choices.slice(0, Math.max(1, props.rows - 5));
  const current = props.choices[selected];
  return (
    <Box flexDirection="column">
      <SafeText bold>{lit`Pick a deployment to watch (↑ ↓, Enter; q quits)`}</SafeText>
      {props.choices.length === 0 ? (
        <SafeText colour="yellow">{lit`This organization has no TVC deployments.`}</SafeText>
      ) : null}
      {visible.map((c, i) => (
        <SafeText key={c.key} inverse={i === selected} dim={!c.tailable}>
          {lit`${c.tailable ? lit`●` : lit`○`} ${padEnd(c.appName, 18)} ${c.idText}${c.live ? lit` (live)` : lit``}${c.tailable ? lit`` : lit` [not tailable]`}`}
        </SafeText>
      ))}
      {current?.reason ? (
        <SafeText dim wrap="wrap">
          {lit`${current.idText}: ${current.reason}`}
        </SafeText>
      ) : null}
      {note ? (
        <SafeText colour="yellow">
          {lit`that one cannot be tailed: pick a debug-mode deployment (marked ●)`}
        </SafeText>
      ) : null}
    </Box>
  );
}
