import { useMemo } from "react";
import { lit } from "../../text/safe-text.js";
import { voteRows } from "../vote-rows.js";
import type { VoteUi } from "../vote-state.js";
import { OverlayFrame, OverlayHeading } from "./overlay-frame.js";

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
  const heading = <OverlayHeading title={title} hint={hint} width={inner} colour="yellow" />;
  return (
    <OverlayFrame
      width={props.width}
      height={props.height}
      colour="yellow"
      heading={heading}
      rows={rows}
      top={top}
    />
  );
}
