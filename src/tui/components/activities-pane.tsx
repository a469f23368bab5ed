import { memo } from "react";
import { repeatMark } from "../../feeds/unique-keys.js";
import { joinSafe, lit, type Safe, widthOf } from "../../text/safe-text.js";
import type { ActivitiesView } from "../controller/dashboard-views.js";
import type { ActivityRow } from "../panes/activity-summary.js";
import { MAX_ID_PREFIX, MIN_ID_PREFIX } from "../panes/activity-summary.js";
import { cell, fitItems, planColumns } from "../panes/columns.js";
import { feedStatus } from "../panes/feed-status.js";
import {
  markCell,
  markWidth,
  type PaneClock,
  paneTime,
  TIME_WIDTH,
  timeHeading,
} from "../panes/pane-clock.js";
import type { Colour } from "../rows/segment.js";
import { ListPane } from "./list-pane.js";
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
export function activityColumns(inner: number, idWidth = MIN_ID_PREFIX, timeWidth = 4) {
  return planColumns<Col>(
    [
      { id: "status", forms: [10, 4] },
      { id: "id", forms: [idWidth] },
      { id: "age", forms: [timeWidth, 0], align: "right" },
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

function row(
  r: ActivityRow,
  plan: ReturnType<typeof activityColumns>,
  clock: PaneClock,
  marked: boolean,
): Safe {
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
  if (w.age) parts.push(cell(paneTime(clock, clock.now - r.ageMs), w.age, "right"));
  if (w.votes) parts.push(cell(r.votes > 0 ? lit`${r.votes}` : lit``, w.votes, "right"));
  return lit`${markCell(clock, marked)}${joinSafe(parts, lit` `)}`;
}

function header(plan: ReturnType<typeof activityColumns>, clock: PaneClock): Safe {
  const w = plan.widths;
  const parts: Safe[] = [
    cell(plan.form.status === 0 ? lit`status` : lit`stat`, w.status ?? 4),
    cell(lit`id`, w.id ?? MIN_ID_PREFIX),
    cell(lit`type`, w.type ?? 1),
  ];
  if (w.age) parts.push(cell(timeHeading(clock.times), w.age, "right"));
  if (w.votes) parts.push(cell(lit`votes`, w.votes, "right"));
  return lit`${markCell(clock, false)}${joinSafe(parts, lit` `)}`;
}

export const ActivitiesPane = memo(function ActivitiesPane(props: ActivitiesView) {
  const { clock } = props;
  const inner = props.box.inner.width;
  const plan = activityColumns(
    inner - markWidth(clock),
    idWidth(props.summary.rows),
    TIME_WIDTH[clock.times],
  );
  const counts = fitItems(
    props.summary.counts.map((c) => lit`${c.label} ${c.count}`),
    inner,
  );
  return (
    <ListPane
      box={props.box}
      // The rows are those awaiting my vote (`v`): said in the title, and when there are none.
      title={props.needsMyVote ? lit`Activities · awaiting my vote` : lit`Activities`}
      right={feedStatus(props.snapshot, props.now)}
      focused={props.focused}
      error={props.snapshot.error}
      above={[
        <SafeText key="counts">
          {joinSafe(counts.more ? [...counts.shown, counts.more] : counts.shown, lit` · `)}
        </SafeText>,
        <SafeText key="header" dim>
          {header(plan, clock)}
        </SafeText>,
      ]}
      empty={props.needsMyVote ? lit`none awaiting your vote (v shows all)` : undefined}
      items={props.summary.rows}
      selection={props.selection}
      clock={clock}
      near={props.near}
      anchor={props.anchor}
      row={(r, selected, marked) => (
        <SafeText
          key={r.key}
          colour={colourOf(r.knownStatus)}
          bold={r.attention !== undefined}
          inverse={selected}
        >
          {row(r, plan, clock, marked)}
        </SafeText>
      )}
    />
  );
});
