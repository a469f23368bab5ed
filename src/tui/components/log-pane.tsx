import { Box } from "ink";
import { memo } from "react";
import { lit, type Safe } from "../../text/safe-text.js";
import type { LogView } from "../log-view.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { Line, SafeText } from "./safe-text.js";

export const LogPane = memo(function LogPane(props: {
  view: LogView;
  width: number;
  height: number;
  focused: boolean;
  title: Safe;
  following: boolean;
}) {
  const rows = contentRows(props.height);
  const marker =
    !props.following && props.view.newWhilePaused > 0
      ? lit`⏸ ${props.view.newWhilePaused} new lines (Space to follow)`
      : undefined;
  const shown = marker
    ? props.view.rows.slice(Math.max(0, props.view.rows.length - (rows - 1)))
    : props.view.rows;
  return (
    <PaneFrame
      title={props.title}
      right={props.following ? lit`following` : lit`paused`}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        {shown.length === 0 ? <SafeText dim>{lit`waiting for log lines…`}</SafeText> : null}
        {shown.map((row) => (
          <Line key={row.key} segments={row.segments} />
        ))}
        {marker ? (
          <SafeText colour="black" background="yellow">
            {marker}
          </SafeText>
        ) : null}
      </Box>
    </PaneFrame>
  );
});
