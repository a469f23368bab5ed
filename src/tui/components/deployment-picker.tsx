import { Box, Text, useInput } from "ink";
import { useState } from "react";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import type { DeploymentChoice } from "../deployment-list.js";

/** Lists the organization's deployments; Enter picks a tailable one, q quits. */
export function DeploymentPicker(props: {
  choices: DeploymentChoice[];
  onPick: (c: DeploymentChoice) => void;
  onQuit: () => void;
  rows: number;
}) {
  const [selected, setSelected] = useState(0);
  const [note, setNote] = useState<string | undefined>();
  useInput((input, key) => {
    if (input === "q" || key.escape || (key.ctrl && input === "c")) return props.onQuit();
    if (key.upArrow) setSelected((s) => Math.max(0, s - 1));
    if (key.downArrow) setSelected((s) => Math.min(props.choices.length - 1, s + 1));
    if (key.return) {
      const c = props.choices[selected];
      if (c?.tailable) props.onPick(c);
      else if (c) setNote("that one cannot be tailed: pick a debug-mode deployment (marked ●)");
    }
  });
  const visible = props.choices.slice(0, Math.max(1, props.rows - 5));
  return (
    <Box flexDirection="column">
      <Text bold>Pick a deployment to watch (↑ ↓, Enter; q quits)</Text>
      {props.choices.length === 0 ? (
        <Text color="yellow">This organization has no TVC deployments.</Text>
      ) : null}
      {visible.map((c, i) => (
        <Text
          key={c.deploymentId}
          inverse={i === selected}
          dimColor={!c.tailable}
          wrap="truncate-end"
        >
          {`${c.tailable ? "●" : "○"} ${sanitizeForTerminal(c.appName).padEnd(18)} ${c.deploymentId}${c.live ? " (live)" : ""}${c.tailable ? "" : " [not tailable]"}`}
        </Text>
      ))}
      {props.choices[selected]?.reason ? (
        <Text
          dimColor
          wrap="wrap"
        >{`${props.choices[selected]?.deploymentId}: ${props.choices[selected]?.reason}`}</Text>
      ) : null}
      {note ? <Text color="yellow">{note}</Text> : null}
    </Box>
  );
}
