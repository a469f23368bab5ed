import { useMemo } from "react";
import { lit } from "../../text/safe-text.js";
import { voteFrame } from "../vote-rows.js";
import type { VoteUi } from "../vote-state.js";
import { OverlayFrame, OverlayHeading } from "./overlay-frame.js";

/** The overlay's inner width and rows for a body of `width` x `height` (border, padding, heading). */
export function voteRoom(width: number, height: number): { width: number; rows: number } {
  return { width: Math.max(10, width - 4), rows: Math.max(1, height - 3) };
}

/**
 * The confirmation before a vote, full size: what is decided (the verb and type, the activity
 * id, the whole fingerprint, the quorum, what an export lets out) fixed at the top; the rest
 * (status, creator, votes by name, intent, what this vote does) scrolls below it; `y` sends the
 * vote, `n` or Esc cancels. Then the vote in flight and its result.
 */
export function VoteOverlay(props: { vote: VoteUi; width: number; height: number }) {
  const room = voteRoom(props.width, props.height);
  const frame = useMemo(
    () => voteFrame(props.vote, room.width, room.rows),
    [props.vote, room.width, room.rows],
  );
  const title =
    props.vote.action === "approve" ? lit`Approve an activity` : lit`Reject an activity`;
  const heading = <OverlayHeading title={title} hint={lit``} width={room.width} colour="yellow" />;
  return (
    <OverlayFrame
      width={props.width}
      height={props.height}
      colour="yellow"
      heading={heading}
      rows={frame.rows}
      top={0}
    />
  );
}
