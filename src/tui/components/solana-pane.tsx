import { memo } from "react";
import { repeatMark } from "../../feeds/unique-keys.js";
import { joinSafe, lit, type Safe } from "../../text/safe-text.js";
import type { SolanaView } from "../controller/dashboard-views.js";
import { cell, fitItems, planColumns } from "../panes/columns.js";
import { feedStatus } from "../panes/feed-status.js";
import { markCell, markWidth, paneTime, TIME_WIDTH, timeHeading } from "../panes/pane-clock.js";
import type { Segment } from "../rows/segment.js";
import { ListPane, NoticePane } from "./list-pane.js";
import { Line, SafeText } from "./safe-text.js";

type Col = "age" | "dir" | "amount" | "party" | "state" | "fee";

/** The fee goes first, then the state, the age, and the counterparty. */
export function solanaColumns(inner: number, timeWidth = 4) {
  return planColumns<Col>(
    [
      { id: "age", forms: [timeWidth, 0], align: "right" },
      { id: "dir", forms: [3] },
      { id: "party", forms: [14, 0] },
      { id: "state", forms: [5, 0] },
      { id: "fee", forms: [13, 0] },
    ],
    "amount",
    20,
    inner,
    ["fee", "state", "party", "age"],
  );
}

export const SolanaPane = memo(function SolanaPane(props: SolanaView) {
  if (!props.configured || !props.snapshot) {
    return (
      <NoticePane box={props.box} title={lit`Solana`} focused={props.focused}>
        {lit`No address configured: pass --sol-address ADDR (repeatable) or set "solanaAddresses" in the config file.`}
      </NoticePane>
    );
  }
  const { clock } = props;
  const inner = props.box.inner.width;
  const plan = solanaColumns(inner - markWidth(clock), TIME_WIDTH[clock.times]);
  const w = plan.widths;
  const net = fitItems(
    props.net.map((n) => lit`${n.net} ${n.symbol}`),
    Math.max(1, inner - 4),
  );
  const netLine: Segment[] = [
    { text: lit`net ` },
    ...net.shown.flatMap((text, i) => [
      ...(i > 0 ? [{ text: lit` · ` }] : []),
      { text, colour: props.net[i]?.positive ? ("green" as const) : ("red" as const) },
    ]),
    ...(net.more ? [{ text: lit` · ${net.more}`, dim: true }] : []),
  ];
  const head: Safe[] = [];
  if (w.age) head.push(cell(timeHeading(clock.times), w.age, "right"));
  head.push(cell(lit`dir`, 3), cell(lit`amount`, w.amount ?? 1, "right"));
  if (w.party) head.push(cell(lit`counterparty`, w.party));
  if (w.state) head.push(cell(lit`state`, w.state));
  if (w.fee) head.push(cell(lit`fee (SOL)`, w.fee, "right"));
  return (
    <ListPane
      box={props.box}
      title={lit`Solana`}
      right={feedStatus(props.snapshot, props.now)}
      focused={props.focused}
      error={props.snapshot.error}
      above={[
        <Line key="net" segments={netLine} />,
        <SafeText key="header" dim>
          {lit`${markCell(clock, false)}${joinSafe(head, lit` `)}`}
        </SafeText>,
      ]}
      items={props.rows}
      selection={props.selection}
      clock={clock}
      near={props.near}
      anchor={props.anchor}
      row={(t, selected, marked) => {
        const segments: Segment[] = [];
        if (clock.at !== undefined) segments.push({ text: markCell(clock, marked), bold: true });
        // A transaction the server listed again is shown once, marked before its amount.
        const mark = repeatMark(t.listed);
        if (w.age)
          segments.push({
            text: lit`${cell(paneTime(clock, t.at), w.age, "right")} `,
          });
        segments.push(
          {
            text: lit`${cell(t.direction === "IN" ? lit`IN` : lit`OUT`, 3)} `,
            colour: t.direction === "IN" ? "green" : "red",
          },
          {
            text: cell(
              mark ? lit`${mark} ${t.amount} ${t.symbol}` : lit`${t.amount} ${t.symbol}`,
              w.amount ?? 1,
              "right",
            ),
            // An invalid amount (negative, unreadable) stands out: it is in no total.
            ...(t.amountValid ? {} : { colour: "red" as const, bold: true }),
          },
        );
        if (w.party) {
          segments.push({
            text: lit` ${cell(lit`${t.direction === "IN" ? lit`from` : lit`to`} ${t.counterparty}`, w.party)}`,
            dim: true,
          });
        }
        if (w.state) {
          segments.push({
            text: lit` ${cell(t.status, w.state)}`,
            colour: t.finalized ? "green" : "yellow",
          });
        }
        if (w.fee) {
          segments.push(
            t.feeValid
              ? { text: lit` ${cell(t.fee, w.fee, "right")}`, dim: true }
              : { text: lit` ${cell(t.fee, w.fee, "right")}`, colour: "red", bold: true },
          );
        }
        return <Line key={t.key} dim={t.failed} inverse={selected} segments={segments} />;
      }}
    />
  );
});
