import { Box } from "ink";
import { lit, safeBounded } from "../../text/safe-text.js";
import { SafeText } from "./safe-text.js";

/**
 * `c` without --clipboard: the cursor's line as `tail --timestamps` prints it, with its
 * continuation lines, alone, no border or gutter, wrapped to the screen, so the terminal's own
 * selection copies exactly its text.
 */
export function CopyView(props: {
  lines: readonly string[] | undefined;
  width: number;
  height: number;
}) {
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflowY="hidden">
      <SafeText dim>{lit`select with the mouse to copy · Esc closes`}</SafeText>
      {props.lines === undefined ? (
        <SafeText wrap="wrap">{lit`(the line left the buffer)`}</SafeText>
      ) : (
        props.lines.map((line, i) => (
          // The lines are fixed while the view is open: their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <SafeText key={i} wrap="wrap">
            {safeBounded(line, 16 * 1024)}
          </SafeText>
        ))
      )}
    </Box>
  );
}
