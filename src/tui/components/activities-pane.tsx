import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import type { Activity } from "../../api/schemas.js";
import { shortAge, summarizeActivities } from "../../feeds/activity-summary.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";

const STATUS_COLOUR: Record<string, string> = {
  CONSENSUS_NEEDED: "magenta",
  FAILED: "red",
  PENDING: "yellow",
  CREATED: "yellow",
  COMPLETED: "green",
  REJECTED: "gray",
};

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
  const summary = summarizeActivities(snapshot.data ?? [], props.now);
  const inner = props.width - 2;
  const visible = summary.rows.slice(
    Math.max(0, props.selected - (rows - 2)),
    Math.max(rows - 1, props.selected + 1),
  );
  return (
    <PaneFrame
      title="Activities"
      right={feedStatus(snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        <FeedError error={snapshot.error} />
        <Text wrap="truncate-end">
          {summary.counts.map((c) => (
            <Text key={c.status} color={STATUS_COLOUR[c.status]}>
              {`${c.status.toLowerCase()} ${c.count}  `}
            </Text>
          ))}
        </Text>
        {visible.map((r) => {
          const index = summary.rows.indexOf(r);
          const line = `${r.status.padEnd(16)} ${sanitizeForTerminal(r.type).padEnd(Math.max(8, inner - 30))} ${shortAge(r.ageMs).padStart(4)} ${r.votes > 0 ? `${r.votes}v` : ""}`;
          return (
            <Text
              key={r.id}
              wrap="truncate-end"
              color={STATUS_COLOUR[r.status]}
              bold={r.attention !== undefined}
              inverse={props.focused && index === props.selected}
            >
              {line}
            </Text>
          );
        })}
      </Box>
    </PaneFrame>
  );
});
