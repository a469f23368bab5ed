import { lit, safeBounded } from "../../text/safe-text.js";
import { HELP_TITLE } from "../keys/help-content.js";
import type { PaneBox } from "../panes/layout.js";
import type { Segment } from "../rows/segment.js";
import { OverlayFrame } from "./overlay-frame.js";
import { Line } from "./safe-text.js";

/**
 * The help, full size, its rows laid out for its width (./../help-content.ts), scrolled with ↑ ↓
 * PgUp PgDn when they do not fit; `/` finds in it, and the heading says what was found by.
 */
export function HelpOverlay(props: {
  box: PaneBox;
  scroll: number;
  rows: readonly Segment[][];
  find: string;
}) {
  const { rows } = props;
  const room = props.box.inner.height;
  const top = Math.max(0, Math.min(props.scroll, rows.length - room));
  const more = rows.length > room;
  const found = props.find.trim() === "" ? lit`` : lit` · "${safeBounded(props.find.trim(), 40)}"`;
  const heading = (
    <Line
      segments={[
        { text: lit`${HELP_TITLE}${found}`, bold: true, colour: "cyan" },
        {
          text: more
            ? lit` · ↑↓ ${top + 1}-${Math.min(rows.length, top + room)} of ${rows.length} · / finds · Esc or ? closes`
            : lit` · / finds · Esc or ? closes`,
          dim: true,
        },
      ]}
    />
  );
  return <OverlayFrame box={props.box} colour="cyan" heading={heading} rows={rows} top={top} />;
}
