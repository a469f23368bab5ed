import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import type { EmailEvent } from "../../api/schemas.js";
import { shortAge } from "../../feeds/activity-summary.js";
import { groupEmailEvents } from "../../feeds/email-timeline.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";

const OUTCOME_COLOUR: Record<string, string> = {
  Delivery: "green",
  Bounce: "red",
  Complaint: "red",
  DeliveryDelay: "yellow",
  Send: "cyan",
};

export const EmailPane = memo(function EmailPane(props: {
  store: FeedStore<EmailEvent[]> | undefined;
  width: number;
  height: number;
  focused: boolean;
  now: number;
  filter: string | undefined;
}) {
  const rows = contentRows(props.height);
  if (!props.store) {
    return (
      <PaneFrame title="Email" width={props.width} height={props.height} focused={props.focused}>
        <Text dimColor wrap="wrap">
          No recipient configured: pass --email ADDR (repeatable) or set "emails" in the config
          file.
        </Text>
      </PaneFrame>
    );
  }
  return <EmailList {...props} store={props.store} rows={rows} />;
});

function EmailList(props: {
  store: FeedStore<EmailEvent[]>;
  width: number;
  height: number;
  focused: boolean;
  now: number;
  filter: string | undefined;
  rows: number;
}) {
  const snapshot = useSyncExternalStore(props.store.subscribe, props.store.getSnapshot);
  const messages = groupEmailEvents(snapshot.data ?? [], props.filter);
  const lines: { key: string; text: string; colour?: string | undefined; dim?: boolean }[] = [];
  for (const m of messages) {
    if (lines.length >= props.rows - 1) break;
    lines.push({
      key: m.messageId,
      text: `${shortAge(props.now - m.lastAt).padStart(4)} ${sanitizeForTerminal(m.toAddress)} ${m.outcome}`,
      colour: OUTCOME_COLOUR[m.outcome],
    });
    const timeline = m.steps
      .map(
        (s, i) =>
          (i === 0 ? s.eventType : `${s.eventType} +${s.afterMs}ms`) +
          (s.detail && s.eventType !== "Delivery" ? ` (${sanitizeForTerminal(s.detail)})` : ""),
      )
      .join(" → ");
    lines.push({ key: `${m.messageId}:t`, text: `     ${timeline}`, dim: true });
  }
  const title = props.filter ? `Email [${props.filter}]` : "Email";
  return (
    <PaneFrame
      title={title}
      right={feedStatus(snapshot, props.now)}
      width={props.width}
      height={props.height}
      focused={props.focused}
    >
      <Box flexDirection="column" height={props.rows} overflow="hidden">
        <FeedError error={snapshot.error} />
        {lines.length === 0 && !snapshot.error ? <Text dimColor>no events yet</Text> : null}
        {lines.slice(0, props.rows).map((l) => (
          <Text key={l.key} wrap="truncate-end" color={l.colour} dimColor={l.dim}>
            {l.text}
          </Text>
        ))}
      </Box>
    </PaneFrame>
  );
}
