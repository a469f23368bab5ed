import { Box } from "ink";
import { memo, useMemo, useSyncExternalStore } from "react";
import type { Activity } from "../../api/schemas.js";
import type { ActivityRow } from "../../feeds/activity-summary.js";
import { shortAge, summarizeActivities } from "../../feeds/activity-summary.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { lit, padEnd, padStart, type Safe, safe } from "../../text/safe-text.js";
import type { Colour, Segment } from "../segment.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { Line, SafeText } from "./safe-text.js";

const STATUS_COLOUR: Record<string, Colour> = {
  CONSENSUS_NEEDED: "magenta",
  FAILED: "red",
  PENDING: "yellow",
  CREATED: "yellow",
  COMPLETED: "green",
  REJECTED: "gray",
};

const colourOf = (known: string | undefined) => (known ? STATUS_COLOUR[known] : undefined);

function rowText(r: ActivityRow, inner: number): Safe {
  const votes = r.votes > 0 ? lit`${r.votes} vote${r.votes === 1 ? lit`` : lit`s`}` : lit``;
  const typeWidth = Math.max(8, inner - 10 - 1 - 5 - 8);
  return lit`${padEnd(r.status, 10)} ${padEnd(r.type, typeWidth)} ${padStart(safe(shortAge(r.ageMs)), 4)} ${votes}`;
}

export const ActivitiesPane = memo(function ActivitiesPane(props: {
  store: FeedStore<Activity[]>;
  width: number;
  height: number;
  focused: boolean;
  selected: number;
  now: number;
}) {
  const snapshot = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  const rows = contentRows(props.height);
  const summary = useMemo(
    () => summarizeActivities(snapshot.data ?? [], props.now),
    [snapshot.data, props.now],
  );
  const inner = props.width - 2;
  const first = Math.max(0, props.selected - (rows - 2));
  const visible = summary.rows.slice(first, first + Math.max(0, rows - 1));
  const counts: Segment[] = summary.counts.map((c) => ({
    text: lit`${c.label} ${c.count}  `,
    colour: colourOf(c.knownStatus),
  }));
  return (
    <PaneFrame
      title={lit`Activities`}
      right={feedStatus(snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        <FeedError error={snapshot.error} />
        <Line segments={counts} />
        {visible.map((r, i) => (
          <SafeText
            key={r.key}
            colour={colourOf(r.knownStatus)}
            bold={r.attention !== undefined}
            inverse={props.focused && first + i === props.selected}
          >
            {rowText(r, inner)}
          </SafeText>
        ))}
      </Box>
    </PaneFrame>
  );
});
