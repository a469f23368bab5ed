import { Box } from "ink";
import { lit, padEnd, safe } from "../../text/safe-text.js";
import { KEY_HELP } from "../ui-state.js";
import { Line, SafeText } from "./safe-text.js";

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
      <SafeText bold colour="cyan">
        {lit`tvcwatch keys`}
      </SafeText>
      {KEY_HELP.map(([keys, what]) => (
        <Line
          key={keys}
          segments={[{ text: padEnd(safe(keys), 16), bold: true }, { text: safe(what) }]}
        />
      ))}
      <SafeText dim>{lit`Esc or ? closes this help`}</SafeText>
    </Box>
  );
}
