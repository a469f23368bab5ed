import { Box } from "ink";
import type { ReactNode } from "react";
import { type Safe, truncate, widthOf } from "../../text/safe-text.js";
import type { PaneBox } from "../panes/layout.js";
import type { Colour, Segment } from "../rows/segment.js";
import { Line, SafeText } from "./safe-text.js";

/**
 * What takes the body's place (the help, a detail view, a vote's confirmation): a rounded border
 * in the overlay's colour, a heading row, then the rows from `top` that fit the box's inner rows.
 * Only those rows reach React.
 */
export function OverlayFrame(props: {
  box: PaneBox;
  colour: Colour;
  heading: ReactNode;
  rows: readonly Segment[][];
  top: number;
}) {
  const room = props.box.inner.height;
  return (
    <Box
      flexDirection="column"
      width={props.box.outer.width}
      height={props.box.outer.height}
      borderStyle="round"
      borderColor={props.colour}
      paddingX={1}
      overflowY="hidden"
    >
      {props.heading}
      {props.rows.slice(props.top, props.top + room).map((segments, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of one static view
        <Line key={props.top + i} segments={segments} />
      ))}
    </Box>
  );
}

/** An overlay's heading row: its title in the overlay's colour, a dim hint at the right edge. */
export function OverlayHeading(props: { title: Safe; hint: Safe; width: number; colour: Colour }) {
  return (
    <Box width={props.width} height={1}>
      <SafeText bold colour={props.colour}>
        {truncate(props.title, Math.max(1, props.width - widthOf(props.hint)))}
      </SafeText>
      <Box flexGrow={1} />
      <SafeText dim>{props.hint}</SafeText>
    </Box>
  );
}
