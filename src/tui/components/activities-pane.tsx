import { Box } from "ink";
import { memo } from "react";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { repeatMark } from "../../feeds/unique-keys.js";
import { shortAge } from "../../text/duration.js";
import { joinSafe, lit, type Safe, safe, widthOf } from "../../text/safe-text.js";
import type { ActivityRow, ActivitySummary } from "../panes/activity-summary.js";
import { MAX_ID_PREFIX, MIN_ID_PREFIX } from "../panes/activity-summary.js";
import { cell, fitItems, planColumns } from "../panes/columns.js";
import { feedStatus } from "../panes/feed-status.js";
import { visibleWindow } from "../panes/visible-window.js";
import type { Colour } from "../rows/segment.js";
import type { PaneSelection } from "../state/list-selection.js";
import { FeedError } from "./feed-error.js";
import { GoneLine } from "./gone-line.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { SafeText } from "./safe-text.js";

const STATUS_COLOUR: Record<string, Colour> = {
  CONSENSUS_NEEDED: "magenta",
  FAILED: "red",
  PENDING: "yellow",
  CREATED: "yellow",
  COMPLETED: "green",
  REJECTED: "gray",
};

const colourOf = (known: string | undefined) => (known ? STATUS_COLOUR[known] : undefined);

type Col = "status" | "id" | "type" | "age" | "votes";

/**
 * Columns for a pane `inner` cells wide: votes go first, then the status shortens, then age. The
 * id (its shortest unique prefix, `idWidth` wide) always stays: it tells the rows apart.
 */
export function activityColumns(inner: number, idWidth = MIN_ID_PREFIX) {
  return planColumns<Col>(
    [
      { id: "status", forms: [10, 4] },
      { id: "id", forms: [idWidth] },
      { id: "age", forms: [4, 0], align: "right" },
      { id: "votes", forms: [5, 0], align: "right" },
    ],
    "type",
    10,
    inner,
    ["votes", "status", "age"],
  );
}

/** The id column's width: the longest prefix shown (a prefix is at least 8 characters). */
function idWidth(rows: readonly ActivityRow[]): number {
  return Math.min(MAX_ID_PREFIX, Math.max(MIN_ID_PREFIX, ...rows.map((r) => widthOf(r.idText))));
}

function row(r: ActivityRow, plan: ReturnType<typeof activityColumns>): Safe {
  const w = plan.widths;
  // Two different activities under one id: ≠N (N records), before the ×N of a repeat.
  const contested = r.conflict === undefined ? undefined : lit`≠${r.conflict}`;
  const repeated = repeatMark(r.listed);
  const mark = contested && repeated ? lit`${contested} ${repeated}` : (contested ?? repeated);
  const parts: Safe[] = [
    cell(plan.form.status === 0 ? r.status : r.code, w.status ?? 4),
    cell(r.idText, w.id ?? MIN_ID_PREFIX),
    cell(mark ? lit`${r.type} ${mark}` : r.type, w.type ?? 1),
  ];
  if (w.age) parts.push(cell(safe(shortAge(r.ageMs)), w.age, "right"));
  if (w.votes) parts.push(cell(r.votes > 0 ? lit`${r.votes}` : lit``, w.votes, "right"));
  return joinSafe(parts, lit` `);
}

function header(plan: ReturnType<typeof activityColumns>): Safe {
  const w = plan.widths;
  const parts: Safe[] = [
    cell(plan.form.status === 0 ? lit`status` : lit`stat`, w.status ?? 4),
    cell(lit`id`, w.id ?? MIN_ID_PREFIX),
    cell(lit`type`, w.type ?? 1),
  ];
  if (w.age) parts.push(cell(lit`age`, w.age, "right"));
  if (w.votes) parts.push(cell(lit`votes`, w.votes, "right"));
  return joinSafe(parts, lit` `);
}

export const ActivitiesPane = memo(function ActivitiesPane(props: {
  summary: ActivitySummary;
  snapshot: FeedSnapshot<unknown>;
  width: number;
  height: number;
  focused: boolean;
  /** The selected activity: its row, or its name when it is no longer listed. */
  selection: PaneSelection;
  now: number;
  /** The rows are those awaiting my vote (`v`): said in the title, and when there are none. */
  needsMyVote?: boolean;
}) {
  const rows = contentRows(props.height);
  const inner = Math.max(1, props.width - 2);
  const plan = activityColumns(inner, idWidth(props.summary.rows));
  const counts = fitItems(
    props.summary.counts.map((c) => lit`${c.label} ${c.count}`),
    inner,
  );
  const gone = props.focused ? props.selection.gone : undefined;
  const listRows = Math.max(0, rows - 2 - (props.snapshot.error ? 1 : 0) - (gone ? 1 : 0));
  const { first, items } = visibleWindow(props.summary.rows, props.selection.anchor, listRows);
  return (
    <PaneFrame
      title={props.needsMyVote ? lit`Activities · awaiting my vote` : lit`Activities`}
      right={feedStatus(props.snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflowY="hidden">
        <FeedError error={props.snapshot.error} />
        <SafeText>
          {joinSafe(counts.more ? [...counts.shown, counts.more] : counts.shown, lit` · `)}
        </SafeText>
        <SafeText dim>{header(plan)}</SafeText>
        {gone ? <GoneLine name={gone} /> : null}
        {props.needsMyVote && props.summary.rows.length === 0 ? (
          <SafeText dim>{lit`none awaiting your vote (v shows all)`}</SafeText>
        ) : null}
        {items.map((r, i) => (
          <SafeText
            key={r.key}
            colour={colourOf(r.knownStatus)}
            bold={r.attention !== undefined}
            inverse={props.focused && first + i === props.selection.index}
          >
            {row(r, plan)}
          </SafeText>
        ))}
      </Box>
    </PaneFrame>
  );
});
