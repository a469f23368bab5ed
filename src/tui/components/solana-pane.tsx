import { Box } from "ink";
import { memo } from "react";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { repeatMark } from "../../feeds/unique-keys.js";
import { shortAge } from "../../text/duration.js";
import { joinSafe, lit, type Safe, safe } from "../../text/safe-text.js";
import { cell, fitItems, planColumns } from "../panes/columns.js";
import { feedStatus } from "../panes/feed-status.js";
import type { NetFlow, TransferRow } from "../panes/solana-transfers.js";
import { visibleWindow } from "../panes/visible-window.js";
import type { Segment } from "../rows/segment.js";
import type { PaneSelection } from "../state/list-selection.js";
import { FeedError } from "./feed-error.js";
import { GoneLine } from "./gone-line.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { Line, SafeText } from "./safe-text.js";

type Col = "age" | "dir" | "amount" | "party" | "state" | "fee";

/** The fee goes first, then the state, the age, and the counterparty. */
export function solanaColumns(inner: number) {
  return planColumns<Col>(
    [
      { id: "age", forms: [4, 0], align: "right" },
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

export const SolanaPane = memo(function SolanaPane(props: {
  configured: boolean;
  rows: readonly TransferRow[];
  net: readonly NetFlow[];
  snapshot: FeedSnapshot<unknown> | undefined;
  width: number;
  height: number;
  focused: boolean;
  /** The selected transfer: its row, or its name when it is no longer listed. */
  selection: PaneSelection;
  now: number;
}) {
  if (!props.configured || !props.snapshot) {
    return (
      <PaneFrame
        title={lit`Solana`}
        width={props.width}
        height={props.height}
        focused={props.focused}
      >
        <SafeText dim wrap="wrap">
          {lit`No address configured: pass --sol-address ADDR (repeatable) or set "solanaAddresses" in the config file.`}
        </SafeText>
      </PaneFrame>
    );
  }
  const rows = contentRows(props.height);
  const inner = Math.max(1, props.width - 2);
  const plan = solanaColumns(inner);
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
  if (w.age) head.push(cell(lit`age`, w.age, "right"));
  head.push(cell(lit`dir`, 3), cell(lit`amount`, w.amount ?? 1, "right"));
  if (w.party) head.push(cell(lit`counterparty`, w.party));
  if (w.state) head.push(cell(lit`state`, w.state));
  if (w.fee) head.push(cell(lit`fee (SOL)`, w.fee, "right"));
  const gone = props.focused ? props.selection.gone : undefined;
  const listRows = Math.max(0, rows - 2 - (props.snapshot.error ? 1 : 0) - (gone ? 1 : 0));
  const { first, items } = visibleWindow(props.rows, props.selection.anchor, listRows);
  return (
    <PaneFrame
      title={lit`Solana`}
      right={feedStatus(props.snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflowY="hidden">
        <FeedError error={props.snapshot.error} />
        <Line segments={netLine} />
        <SafeText dim>{joinSafe(head, lit` `)}</SafeText>
        {gone ? <GoneLine name={gone} /> : null}
        {items.map((t, i) => {
          const segments: Segment[] = [];
          // A transaction the server listed again is shown once, marked before its amount.
          const mark = repeatMark(t.listed);
          if (w.age)
            segments.push({
              text: lit`${cell(safe(shortAge(props.now - t.at)), w.age, "right")} `,
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
          return (
            <Line
              key={t.key}
              dim={t.failed}
              inverse={props.focused && first + i === props.selection.index}
              segments={segments}
            />
          );
        })}
      </Box>
    </PaneFrame>
  );
});
