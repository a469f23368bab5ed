import { memo } from "react";
import { joinSafe, lit, type Safe, safe, truncate } from "../../text/safe-text.js";
import type { EmailView } from "../controller/dashboard-views.js";
import { cell, planColumns } from "../panes/columns.js";
import type { EmailMessage } from "../panes/email-timeline.js";
import { feedStatus } from "../panes/feed-status.js";
import { markCell, markWidth, paneTime, TIME_WIDTH, timeHeading } from "../panes/pane-clock.js";
import type { Colour } from "../rows/segment.js";
import { ListPane, NoticePane } from "./list-pane.js";
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
export function emailColumns(inner: number, timeWidth = 4) {
  return planColumns<Col>(
    [
      { id: "age", forms: [timeWidth, 0], align: "right" },
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

export const EmailPane = memo(function EmailPane(props: EmailView) {
  if (!props.configured || !props.snapshot) {
    return (
      <NoticePane box={props.box} title={lit`Email`} focused={props.focused}>
        {lit`No recipient configured: pass --email ADDR (repeatable) or set "emails" in the config file.`}
      </NoticePane>
    );
  }
  const { snapshot } = props;
  const { clock } = props;
  const plan = emailColumns(props.box.inner.width - markWidth(clock), TIME_WIDTH[clock.times]);
  const w = plan.widths;
  const head: Safe[] = [];
  if (w.age) head.push(cell(timeHeading(clock.times), w.age, "right"));
  head.push(cell(lit`outcome`, w.outcome ?? 8), cell(lit`to · then the timeline`, w.to ?? 1));
  return (
    <ListPane
      box={props.box}
      title={props.filter ? lit`Email [${safe(props.filter)}]` : lit`Email`}
      right={feedStatus(snapshot, props.now)}
      focused={props.focused}
      error={snapshot.error}
      above={[
        props.messages.length === 0 && !snapshot.error ? (
          <SafeText key="header" dim>
            {props.filter ? lit`no ${safe(props.filter)} events` : lit`no events yet`}
          </SafeText>
        ) : (
          <SafeText key="header" dim>
            {lit`${markCell(clock, false)}${joinSafe(head, lit` `)}`}
          </SafeText>
        ),
      ]}
      items={props.messages}
      rowsPerItem={2}
      selection={props.selection}
      clock={clock}
      near={props.near}
      anchor={props.anchor}
      row={(m, selected, marked) => {
        const cells: Safe[] = [];
        if (w.age) cells.push(cell(paneTime(clock, m.lastAt), w.age, "right"));
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
            {lit`${markCell(clock, marked)}${joinSafe(cells, lit` `)}`}
          </SafeText>,
          <SafeText key={`t${m.messageId}`} dim inverse={selected}>
            {/* Cut to the pane by the program's own widths, not left to Ink's, which count
                some characters otherwise and let the row push the border out. */}
            {truncate(lit`${markCell(clock, false)}  ${timeline(m)}`, props.box.inner.width)}
          </SafeText>,
        ];
      }}
    />
  );
});
