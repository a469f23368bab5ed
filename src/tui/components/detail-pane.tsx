import { useMemo } from "react";
import { lit, type Safe } from "../../text/safe-text.js";
import { detailRows } from "../panes/detail-layout.js";
import type { DetailView } from "../panes/detail-view.js";
import type { PaneBox } from "../panes/layout.js";
import { OverlayFrame, OverlayHeading } from "./overlay-frame.js";

/** A detail view full size: every field wrapped in full, scrolled with ↑ ↓ PgUp PgDn. */
export function DetailPane(props: {
  view: DetailView | undefined;
  /** Shown when the item left the loaded list. */
  gone: Safe;
  box: PaneBox;
  scroll: number;
}) {
  const inner = props.box.inner.width;
  const rows = useMemo(
    () => (props.view ? detailRows(props.view, inner) : [[{ text: props.gone }]]),
    [props.view, props.gone, inner],
  );
  const room = props.box.inner.height;
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
  return <OverlayFrame box={props.box} colour="magenta" heading={heading} rows={rows} top={top} />;
}
