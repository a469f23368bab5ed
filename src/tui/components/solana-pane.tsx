import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import type { SolTransaction } from "../../api/schemas.js";
import { shortAge } from "../../feeds/activity-summary.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { summarizeTransfers } from "../../feeds/solana-transfers.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";

export const SolanaPane = memo(function SolanaPane(props: {
  store: FeedStore<Map<string, SolTransaction[]>> | undefined;
  width: number;
  height: number;
  focused: boolean;
  now: number;
}) {
  if (!props.store) {
    return (
      <PaneFrame title="Solana" width={props.width} height={props.height} focused={props.focused}>
        <Text dimColor wrap="wrap">
          No address configured: pass --sol-address ADDR (repeatable) or set "solanaAddresses" in
          the config file.
        </Text>
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
  const { rows: transfers, net } = summarizeTransfers(snapshot.data ?? new Map());
  return (
    <PaneFrame
      title="Solana"
      right={feedStatus(snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={rows} overflow="hidden">
        <FeedError error={snapshot.error} />
        <Text wrap="truncate-end">
          {"net "}
          {net.map((n) => (
            <Text
              key={n.symbol}
              color={n.positive ? "green" : "red"}
            >{`${n.net} ${sanitizeForTerminal(n.symbol)}  `}</Text>
          ))}
        </Text>
        {transfers.slice(0, Math.max(0, rows - 1)).map((t) => (
          <Text key={t.key} wrap="truncate-end" dimColor={t.failed}>
            <Text>{shortAge(props.now - t.at).padStart(4)} </Text>
            <Text color={t.direction === "IN" ? "green" : "red"}>{t.direction.padEnd(3)} </Text>
            <Text>{`${t.amount} ${sanitizeForTerminal(t.symbol)}`.padEnd(22)} </Text>
            <Text
              dimColor
            >{`${t.direction === "IN" ? "from" : "to"} ${sanitizeForTerminal(t.counterparty)} `}</Text>
            <Text color={t.status === "FINALIZED" ? "green" : "yellow"}>
              {t.status === "FINALIZED" ? "final" : "conf"}
            </Text>
            <Text dimColor>{` fee ${t.fee}`}</Text>
          </Text>
        ))}
      </Box>
    </PaneFrame>
  );
}
