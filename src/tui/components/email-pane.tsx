import { Box } from "ink";
import { memo, useMemo, useSyncExternalStore } from "react";
import type { EmailEvent } from "../../api/schemas.js";
import { shortAge } from "../../feeds/activity-summary.js";
import { groupEmailEvents } from "../../feeds/email-timeline.js";
import type { FeedStore } from "../../feeds/feed-store.js";
import { joinSafe, lit, padStart, type Safe, safe } from "../../text/safe-text.js";
import type { Colour } from "../segment.js";
import { FeedError } from "./feed-error.js";
import { feedStatus } from "./feed-status.js";
import { contentRows, PaneFrame } from "./pane-frame.js";
import { SafeText } from "./safe-text.js";

const OUTCOME_COLOUR: Record<string, Colour> = {
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
  const messages = useMemo(
    () => groupEmailEvents(snapshot.data ?? [], props.filter),
    [snapshot.data, props.filter],
  );
  const lines: { key: string; text: Safe; colour?: Colour | undefined; dim?: boolean }[] = [];
  for (const m of messages) {
    if (lines.length >= props.rows - 1) break;
    lines.push({
      key: `${lines.length}:${m.messageId}`,
      text: lit`${padStart(safe(shortAge(props.now - m.lastAt)), 4)} ${m.toAddress} ${m.outcome}`,
      colour: m.knownOutcome ? OUTCOME_COLOUR[m.knownOutcome] : undefined,
    });
    const timeline = joinSafe(
      m.steps.map((s, i) => {
        const step = i === 0 ? s.eventType : lit`${s.eventType} +${s.afterMs}ms`;
        return s.detail ? lit`${step} (${s.detail})` : step;
      }),
      lit` → `,
    );
    lines.push({ key: `${lines.length}:${m.messageId}:t`, text: lit`     ${timeline}`, dim: true });
  }
  const title = props.filter ? lit`Email [${safe(props.filter)}]` : lit`Email`;
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
        {lines.length === 0 && !snapshot.error ? (
          <SafeText dim>{lit`no events yet`}</SafeText>
        ) : null}
        {lines.slice(0, props.rows).map((l) => (
          <SafeText key={l.key} colour={l.colour} dim={l.dim}>
            {l.text}
          </SafeText>
        ))}
      </Box>
    </PaneFrame>
  );
}
