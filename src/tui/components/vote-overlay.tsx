import { Box } from "ink";
import { useMemo } from "react";
import { lit, truncate, widthOf } from "../../text/safe-text.js";
import { voteRows } from "../vote-rows.js";
import type { VoteUi } from "../vote-state.js";
import { Line, SafeText } from "./safe-text.js";

/**
 * The confirmation before a vote, full size: what is decided (type, the whole fingerprint, the
 * intent, creator, votes by name, quorum progress, what this vote does), `y` to send it; then
 * the vote in flight and its result. Rows that do not fit keep the question in view.
 */
export function VoteOverlay(props: { vote: VoteUi; width: number; height: number }) {
  const inner = Math.max(10, props.width - 4);
  const rows = useMemo(() => voteRows(props.vote, inner), [props.vote, inner]);
  const room = Math.max(1, props.height - 3);
  // The end (question or result) is what must be seen: when it does not fit, show the last rows.
  const top = Math.max(0, rows.length - room);
  const title =
    props.vote.action === "approve" ? lit`Approve an activity` : lit`Reject an activity`;
  const hint = top > 0 ? lit` (first ${top} rows above)` : lit``;
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="round"
      borderColor="yellow"
      paddingX={1}
      overflowY="hidden"
    >
      <Box width={inner} height={1}>
        <SafeText bold colour="yellow">
          {truncate(title, Math.max(1, inner - widthOf(hint)))}
        </SafeText>
        <Box flexGrow={1} />
        <SafeText dim>{hint}</SafeText>
      </Box>
      {rows.slice(top, top + room).map((segments, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of one static view
        <Line key={top + i} segments={segments} />
      ))}
    </Box>
  );
}
