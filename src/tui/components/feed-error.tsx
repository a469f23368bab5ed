import { safeBounded } from "../../text/safe-text.js";
import { SafeText } from "./safe-text.js";

/** A side pane's error state, one red line (the pane keeps showing its last data below it). */
export function FeedError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return <SafeText colour="red">{safeBounded(error, 1000)}</SafeText>;
}
