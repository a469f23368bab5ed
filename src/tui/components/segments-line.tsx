import { Text } from "ink";
import type { Segment } from "../log-view.js";

/** One screen line made of coloured segments. */
export function SegmentsLine({ segments }: { segments: Segment[] }) {
  return (
    <Text wrap="truncate-end">
      {segments.map((s, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line have no identity beyond their position
          key={i}
          color={s.colour}
          dimColor={s.dim}
          bold={s.bold}
          inverse={s.inverse}
        >
          {s.text}
        </Text>
      ))}
    </Text>
  );
}
