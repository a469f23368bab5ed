import type { Safe } from "../../text/safe-text.js";
import { lit } from "../../text/safe-text.js";
import type { PaneBox } from "../panes/layout.js";
import type { Segment } from "../rows/segment.js";
import { OverlayFrame } from "./overlay-frame.js";
import { Line } from "./safe-text.js";

/**
 * The error heatmap (`H`), full size: its rows (src/tui/rows/heatmap-rows.ts, made for this width),
 * only those from `scroll` that fit; ↑ ↓ PgUp PgDn scroll the rest.
 */
export function HeatmapOverlay(props: {
  title: Safe;
  rows: readonly Segment[][];
  box: PaneBox;
  scroll: number;
}) {
  const { rows } = props;
  const room = props.box.inner.height;
  const top = Math.max(0, Math.min(props.scroll, rows.length - room));
  const more = rows.length > room;
  const heading = (
    <Line
      segments={[
        { text: props.title, bold: true, colour: "red" },
        {
          text: more
            ? lit` · ↑↓ ${top + 1}-${Math.min(rows.length, top + room)} of ${rows.length} · ! goes there · Esc or H closes`
            : lit` · ! goes there · Esc or H closes`,
          dim: true,
        },
      ]}
    />
  );
  return <OverlayFrame box={props.box} colour="red" heading={heading} rows={rows} top={top} />;
}
