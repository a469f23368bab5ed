import { Box, Text } from "ink";
import { KEY_HELP } from "../ui-state.js";

export function HelpOverlay(props: { width: number; height: number }) {
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="round"
      borderColor="cyan"
      paddingX={1}
      overflow="hidden"
    >
      <Text bold color="cyan">
        tvcwatch keys
      </Text>
      {KEY_HELP.map(([keys, what]) => (
        <Text key={keys} wrap="truncate-end">
          <Text bold>{keys.padEnd(16)}</Text>
          <Text>{what}</Text>
        </Text>
      ))}
      <Text dimColor>Esc or ? closes this help</Text>
    </Box>
  );
}
