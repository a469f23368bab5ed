import { lit } from "../../text/safe-text.js";
import type { PaneBox } from "../panes/layout.js";
import type { VoteFrame } from "../rows/vote-rows.js";
import type { VoteUi } from "../state/vote-state.js";
import { OverlayFrame, OverlayHeading } from "./overlay-frame.js";

/**
 * The confirmation before a vote, full size: what is decided (the verb and type, the activity
 * id, the whole fingerprint, the quorum, what an export lets out) fixed at the top; the rest
 * (status, creator, votes by name, intent, what this vote does) scrolls below it; `y` sends the
 * vote, `n` or Esc cancels. Then the vote in flight and its result. `frame` is the overlay's
 * rows at this size (../vote-rows.ts), as the key step measured them.
 */
export function VoteOverlay(props: { vote: VoteUi; frame: VoteFrame; box: PaneBox }) {
  const title =
    props.vote.action === "approve" ? lit`Approve an activity` : lit`Reject an activity`;
  const heading = (
    <OverlayHeading title={title} hint={lit``} width={props.box.inner.width} colour="yellow" />
  );
  return (
    <OverlayFrame
      box={props.box}
      colour="yellow"
      heading={heading}
      rows={props.frame.rows}
      top={0}
    />
  );
}
