import { lit, safeBounded } from "../../text/safe-text.js";
import { SafeText } from "./safe-text.js";

/**
 * A list pane's line when its selected record is no longer in the list shown: nothing is
 * highlighted in its place, and Enter, A and R say so rather than act on a neighbour.
 */
export function GoneLine(props: { name: string }) {
  return (
    <SafeText colour="yellow">{lit`gone: ${safeBounded(props.name, 300)} · ↑ ↓ select another`}</SafeText>
  );
}
