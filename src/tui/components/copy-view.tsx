import { Box } from "ink";
import { lit, safeBounded } from "../../text/safe-text.js";
import { SafeText } from "./safe-text.js";

/**
 * `c` without --clipboard: the cursor's line alone, no border or gutter, wrapped to the screen,
 * so the terminal's own selection copies exactly its text.
 */
export function CopyView(props: { text: string | undefined; width: number; height: number }) {
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflowY="hidden">
      <SafeText dim>{lit`select with the mouse to copy · Esc closes`}</SafeText>
      <SafeText wrap="wrap">
        {props.text === undefined
          ? lit`(the line left the buffer)`
          : safeBounded(props.text, 16 * 1024)}
      </SafeText>
    </Box>
  );
}
