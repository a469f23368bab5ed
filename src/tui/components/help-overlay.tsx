import { lit } from "../../text/safe-text.js";
import { HELP_TITLE, helpRows } from "../help-content.js";
import { OverlayFrame } from "./overlay-frame.js";
import { Line } from "./safe-text.js";

const ROWS = helpRows();

/** The help, full size, scrolled with ↑ ↓ PgUp PgDn when it does not fit. */
export function HelpOverlay(props: { width: number; height: number; scroll: number }) {
  const room = Math.max(1, props.height - 3);
  const top = Math.max(0, Math.min(props.scroll, ROWS.length - room));
  const more = ROWS.length > room;
  const heading = (
    <Line
      segments={[
        { text: HELP_TITLE, bold: true, colour: "cyan" },
        {
          text: more
            ? lit` · ↑↓ ${top + 1}-${Math.min(ROWS.length, top + room)} of ${ROWS.length} · Esc or ? closes`
            : lit` · Esc or ? closes`,
          dim: true,
        },
      ]}
    />
  );
  return (
    <OverlayFrame
      width={props.width}
      height={props.height}
      colour="cyan"
      heading={heading}
      rows={ROWS}
      top={top}
    />
  );
}
