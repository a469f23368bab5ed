import { Box } from "ink";
import { useMemo } from "react";
import type { DetailView } from "../../feeds/detail-view.js";
import { lit, type Safe, truncate, widthOf } from "../../text/safe-text.js";
import { detailRows } from "../detail-layout.js";
import { Line, SafeText } from "./safe-text.js";

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
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="round"
      borderColor="magenta"
      paddingX={1}
      overflowY="hidden"
    >
      <Box width={inner} height={1}>
        <SafeText bold colour="magenta">
          {truncate(props.view?.title ?? lit`Detail`, Math.max(1, inner - widthOf(hint)))}
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
