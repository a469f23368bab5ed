import { Box } from "ink";
import { memo } from "react";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { shortAge } from "../../text/duration.js";
import { joinSafe, lit, type Safe, safe } from "../../text/safe-text.js";
import { cell, planColumns } from "../panes/columns.js";
import type { EmailMessage } from "../panes/email-timeline.js";
import { feedStatus } from "../panes/feed-status.js";
import { visibleWindow } from "../panes/visible-window.js";
import type { Colour } from "../rows/segment.js";
import type { PaneSelection } from "../state/list-selection.js";
import { FeedError } from "./feed-error.js";
import { GoneLine } from "./gone-line.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { SafeText } from "./safe-text.js";

const OUTCOME_COLOUR: Record<string, Colour> = {
  Delivery: "green",
  Bounce: "red",
  Complaint: "red",
  DeliveryDelay: "yellow",
  Send: "cyan",
};

type Col = "age" | "outcome" | "to";

/** Age goes first, then the outcome column narrows to its first letters. */
export function emailColumns(inner: number) {
  return planColumns<Col>(
    [
      { id: "age", forms: [4, 0], align: "right" },
      { id: "outcome", forms: [13, 8] },
    ],
    "to",
    12,
    inner,
    ["age", "outcome"],
  );
}

function timeline(m: EmailMessage): Safe {
  return joinSafe(
    m.steps.map((s, i) => {
      const step = i === 0 ? s.eventType : lit`${s.eventType} +${s.afterMs}ms`;
      return s.detail ? lit`${step} (${s.detail})` : step;
    }),
    lit` → `,
  );
}

export const EmailPane = memo(function EmailPane(props: {
  configured: boolean;
  messages: readonly EmailMessage[];
  snapshot: FeedSnapshot<unknown> | undefined;
  width: number;
  height: number;
  focused: boolean;
  /** The selected message: its row, or its name when it is no longer listed. */
  selection: PaneSelection;
  now: number;
  filter: string | undefined;
}) {
  const rows = contentRows(props.height);
  if (!props.configured || !props.snapshot) {
    return (
      <PaneFrame
        title={lit`Email`}
        width={props.width}
        height={props.height}
        focused={props.focused}
      >
        <SafeText dim wrap="wrap">
          {lit`No recipient configured: pass --email ADDR (repeatable) or set "emails" in the config file.`}
        </SafeText>
      </PaneFrame>
    );
  }
  const inner = Math.max(1, props.width - 2);
  const plan = emailColumns(inner);
  const w = plan.widths;
  const gone = props.focused ? props.selection.gone : undefined;
  const listRows = Math.max(0, rows - 1 - (props.snapshot.error ? 1 : 0) - (gone ? 1 : 0));
  const { first, items } = visibleWindow(
    props.messages,
    props.selection.anchor,
    Math.floor(listRows / 2),
  );
  const head: Safe[] = [];
  if (w.age) head.push(cell(lit`age`, w.age, "right"));
  head.push(cell(lit`outcome`, w.outcome ?? 8), cell(lit`to · then the timeline`, w.to ?? 1));
  return (
    <PaneFrame
      title={props.filter ? lit`Email [${safe(props.filter)}]` : lit`Email`}
      right={feedStatus(props.snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflowY="hidden">
        <FeedError error={props.snapshot.error} />
        {props.messages.length === 0 && !props.snapshot.error ? (
          <SafeText dim>
            {props.filter ? lit`no ${safe(props.filter)} events` : lit`no events yet`}
          </SafeText>
        ) : (
          <SafeText dim>{joinSafe(head, lit` `)}</SafeText>
        )}
        {gone ? <GoneLine name={gone} /> : null}
        {items.flatMap((m, i) => {
          const selected = props.focused && first + i === props.selection.index;
          const cells: Safe[] = [];
          if (w.age) cells.push(cell(safe(shortAge(props.now - m.lastAt)), w.age, "right"));
          // Events the server sent again are shown once; the row says how many.
          const to = m.repeated > 0 ? lit`${m.toAddress} · ${m.repeated} repeated` : m.toAddress;
          cells.push(cell(m.outcome, w.outcome ?? 8), cell(to, w.to ?? 1));
          return [
            // One message per id (grouped); its two rows keyed apart whatever the id holds.
            <SafeText
              key={`m${m.messageId}`}
              colour={m.knownOutcome ? OUTCOME_COLOUR[m.knownOutcome] : undefined}
              inverse={selected}
            >
              {joinSafe(cells, lit` `)}
            </SafeText>,
            <SafeText key={`t${m.messageId}`} dim inverse={selected}>
              {lit`  ${timeline(m)}`}
            </SafeText>,
          ];
        })}
      </Box>
    </PaneFrame>
  );
});
