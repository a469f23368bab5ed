import { Text } from "ink";
import { sanitizeForTerminal } from "../../text/sanitize.js";

/** A side pane's error state, one red line (the pane keeps showing its last data below it). */
export function FeedError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <Text color="red" wrap="truncate-end">
      {sanitizeForTerminal(error)}
    </Text>
  );
}
