import { Box } from "ink";
import { memo, useMemo, useSyncExternalStore } from "react";
import type { SolTransaction } from "../../api/schemas.js";
import { shortAge } from "../../feeds/activity-summary.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { summarizeTransfers } from "../../feeds/solana-transfers.js";
import { lit, padEnd, padStart, safe } from "../../text/safe-text.js";
import type { Segment } from "../segment.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { Line, SafeText } from "./safe-text.js";

export const SolanaPane = memo(function SolanaPane(props: {
  store: FeedStore<Map<string, SolTransaction[]>> | undefined;
  width: number;
  height: number;
  focused: boolean;
  now: number;
}) {
  if (!props.store) {
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
  return <SolanaList {...props} store={props.store} />;
});

function SolanaList(props: {
  store: FeedStore<Map<string, SolTransaction[]>>;
  width: number;
  height: number;
  focused: boolean;
  now: number;
}) {
  const snapshot = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  const rows = contentRows(props.height);
  const { rows: transfers, net } = useMemo(
    () => summarizeTransfers(snapshot.data ?? new Map()),
    [snapshot.data],
  );
  const netLine: Segment[] = [
    { text: lit`net ` },
    ...net.map((n) => ({
      text: lit`${n.net} ${n.symbol}  `,
      colour: n.positive ? ("green" as const) : ("red" as const),
    })),
  ];
  return (
    <PaneFrame
      title={lit`Solana`}
      right={feedStatus(snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        <FeedError error={snapshot.error} />
        <Line segments={netLine} />
        {transfers.slice(0, Math.max(0, rows - 1)).map((t) => (
          <Line
            key={t.key}
            dim={t.failed}
            segments={[
              { text: lit`${padStart(safe(shortAge(props.now - t.at)), 4)} ` },
              {
                text: lit`${padEnd(t.direction === "IN" ? lit`IN` : lit`OUT`, 3)} `,
                colour: t.direction === "IN" ? "green" : "red",
              },
              { text: lit`${padEnd(lit`${t.amount} ${t.symbol}`, 22)} ` },
              {
                text: lit`${t.direction === "IN" ? lit`from` : lit`to`} ${t.counterparty} `,
                dim: true,
              },
              { text: t.status, colour: t.finalized ? "green" : "yellow" },
              { text: lit` fee ${t.fee}`, dim: true },
            ]}
          />
        ))}
      </Box>
    </PaneFrame>
  );
}
