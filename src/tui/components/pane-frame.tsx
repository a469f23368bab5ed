import { Box } from "ink";
import type { ReactNode } from "react";
import { useContext } from "react";
import { lit, type Safe, truncate, widthOf } from "../../text/safe-text.js";
import type { PaneBox } from "../panes/layout.js";
import { ColourContext, SafeText } from "./safe-text.js";

/**
 * A bordered pane of exactly the box's outer size with a title line; its children get the box's
 * inner rows. Focus is shown by a marker before the title and a double border, and (with colours
 * on) a cyan border.
 */
export function PaneFrame(props: {
  title: Safe;
  right?: Safe | undefined;
  box: PaneBox;
  focused: boolean;
  children: ReactNode;
}) {
  const colour = useContext(ColourContext);
  const { outer, inner: room } = props.box;
  const inner = room.width;
  const titled = props.focused ? lit`▸ ${props.title}` : props.title;
  // What is said at the right (a cause while retrying can be long) leaves the title its first
  // 10 cells at least.
  const right = props.right
    ? truncate(lit` ${props.right}`, Math.max(0, inner - Math.min(widthOf(titled), 10)))
    : lit``;
  const title = truncate(titled, Math.max(0, inner - widthOf(right)));
  return (
    <Box
      flexDirection="column"
      width={outer.width}
      height={outer.height}
      borderStyle={props.focused ? "double" : "single"}
      borderColor={colour ? (props.focused ? "cyan" : "gray") : undefined}
      overflowY="hidden"
    >
      <Box width={inner} height={1}>
        <SafeText bold colour={props.focused ? "cyan" : undefined}>
          {title}
        </SafeText>
        <Box flexGrow={1} />
        <SafeText dim>{right}</SafeText>
      </Box>
      <Box flexDirection="column" height={room.height} overflowY="hidden">
        {props.children}
      </Box>
    </Box>
  );
}
