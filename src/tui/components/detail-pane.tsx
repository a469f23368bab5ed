import { useMemo } from "react";
import { lit, type Safe } from "../../text/safe-text.js";
import { detailRows } from "../panes/detail-layout.js";
import type { DetailView } from "../panes/detail-view.js";
import { OverlayFrame, OverlayHeading } from "./overlay-frame.js";

/** A detail view full size: every field wrapped in full, scrolled with ↑ ↓ PgUp PgDn. */
export function DetailPane(props: {
  view: DetailView | undefined;
  /** Shown when the item left the loaded list. */
  gone: Safe;
  width: number;
  height: number;
  scroll: number;
}) {
  const inner = Math.max(10, props.width - 4);
  const rows = useMemo(
    () => (props.view ? detailRows(props.view, inner) : [[{ text: props.gone }]]),
    [props.view, props.gone, inner],
  );
  const room = Math.max(1, props.height - 3);
  const top = Math.max(0, Math.min(props.scroll, rows.length - room));
  const hint =
    rows.length > room
      ? lit` ↑↓ ${top + 1}-${Math.min(rows.length, top + room)} of ${rows.length} · Esc closes`
      : lit` Esc closes`;
  const heading = (
    <OverlayHeading
      title={props.view?.title ?? lit`Detail`}
      hint={hint}
      width={inner}
      colour="magenta"
    />
  );
  return (
    <OverlayFrame
      width={props.width}
      height={props.height}
      colour="magenta"
      heading={heading}
      rows={rows}
      top={top}
    />
  );
}
