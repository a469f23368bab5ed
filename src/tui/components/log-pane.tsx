import { Box, Text } from "ink";
import { memo } from "react";
import type { LogView } from "../log-view.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { SegmentsLine } from "./segments-line.js";

export const LogPane = memo(function LogPane(props: {
  view: LogView;
  width: number;
  height: number;
  focused: boolean;
  title: string;
  following: boolean;
}) {
  const rows = contentRows(props.height);
  const marker =
    !props.following && props.view.newWhilePaused > 0
      ? `⏸ ${props.view.newWhilePaused} new lines (Space to follow)`
      : undefined;
  const shown = marker
    ? props.view.rows.slice(Math.max(0, props.view.rows.length - (rows - 1)))
    : props.view.rows;
  return (
    <PaneFrame
      title={props.title}
      right={props.following ? "following" : "paused"}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        {shown.length === 0 ? <Text dimColor>waiting for log lines…</Text> : null}
        {shown.map((row) => (
          <SegmentsLine key={row.key} segments={row.segments} />
        ))}
        {marker ? (
          <Text color="black" backgroundColor="yellow" wrap="truncate-end">
            {marker}
          </Text>
        ) : null}
      </Box>
    </PaneFrame>
  );
});
