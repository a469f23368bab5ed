import { Box, Text } from "ink";
import type { ReactNode } from "react";

/** A bordered pane of exactly `width` x `height` with a title line; focus colours the border. */
export function PaneFrame(props: {
  title: string;
  right?: string | undefined;
  width: number;
  height: number;
  focused: boolean;
  children: ReactNode;
}) {
  const inner = Math.max(1, props.width - 2);
  const right = props.right ? ` ${props.right}` : "";
  const title = props.title.slice(0, Math.max(0, inner - right.length));
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="single"
      borderColor={props.focused ? "cyan" : "gray"}
      overflow="hidden"
    >
      <Box width={inner} height={1}>
        <Text bold color={props.focused ? "cyan" : undefined} wrap="truncate-end">
          {title}
        </Text>
        <Box flexGrow={1} />
        <Text dimColor wrap="truncate-end">
          {right}
        </Text>
      </Box>
      {props.children}
    </Box>
  );
}

/** Rows a pane of this height holds below its border and title. */
export function contentRows(height: number): number {
  return Math.max(0, height - 3);
}
