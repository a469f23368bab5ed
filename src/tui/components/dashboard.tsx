import { Box, useInput } from "ink";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { AWAITING_VOTES, awaitsMyVote } from "../../activity/awaiting-vote.js";
import { writeNewFile } from "../../config/atomic-file.js";
import { activityDetail } from "../../feeds/activity-detail.js";
import { summarizeActivities } from "../../feeds/activity-summary.js";
import type { ActivityVoting } from "../../feeds/dashboard-sources.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import type { DetailView } from "../../feeds/detail-view.js";
import { emailDetail, groupEmailEvents } from "../../feeds/email-timeline.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { FeedStore } from "../../feeds/feed-store.js";
import type { Feeds } from "../../feeds/feeds.js";
import { followerDetail } from "../../feeds/follower-detail.js";
import { summarizeTransfers, transferDetail } from "../../feeds/solana-transfers.js";
import type { FollowSource, GroupMember } from "../../tail/follower-group.js";
import type { LogStore } from "../../tail/log-store.js";
import { type ReplicaSnapshots, SPARK_BUCKETS } from "../../tail/replica-activity.js";
import { lit, type Safe, safe, safeBounded, truncate, widthOf } from "../../text/safe-text.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { detailRows } from "../detail-layout.js";
import { helpRows } from "../help-content.js";
import type { KeyContext } from "../key-step.js";
import { keyStep } from "../key-step.js";
import { computeLayout } from "../layout.js";
import { lineDetail } from "../line-detail.js";
import { paneSelection } from "../list-selection.js";
import { compileFilters } from "../log-filters.js";
import { logNavigator } from "../log-navigator.js";
import { computeLogView } from "../log-view.js";
import { activityListRows, emailListRows, transferListRows } from "../pane-lists.js";
import { ReplicaRoster } from "../replica-roster.js";
import { replicaStrip } from "../replica-strip.js";
import { savedFormat, savedView } from "../saved-view.js";
import { promptLine, statusLine } from "../status-line.js";
import type { Pane, UiAction, UiState } from "../ui-state.js";
import { initialUiState, uiReducer } from "../ui-state.js";
import { useNow } from "../use-now.js";
import { useTerminalSize } from "../use-terminal-size.js";
import { useVoteContext, useVoteFlow } from "../use-vote-flow.js";
import { voteFrame } from "../vote-rows.js";
import { ActivitiesPane } from "./activities-pane.js";
import { CopyView } from "./copy-view.js";
import { DetailPane } from "./detail-pane.js";
import { EmailPane } from "./email-pane.js";
import { HelpOverlay } from "./help-overlay.js";
import { LogPane } from "./log-pane.js";
import { ColourContext, Line, SafeText } from "./safe-text.js";
import { SolanaPane } from "./solana-pane.js";
import { VoteOverlay, voteRoom } from "./vote-overlay.js";

export interface DashboardProps {
  store: LogStore;
  /** The follow: one deployment's follower, or several deployments' as one. */
  follower: FollowSource;
  /** Each replica's counts, sparkline and lifecycle; without it, no sparkline strip. */
  replicaActivity?: ReplicaSnapshots | undefined;
  feeds: Feeds;
  /** The deployment watched (the first, when several are). */
  deploymentId: string;
  /** The deployment as the picker knows it (its app's name), when known. */
  deployment?: DeploymentChoice | undefined;
  /** Said before the deployment in the title ("demo (simulated) · "). */
  title?: string | undefined;
  onQuit: () => void;
  /** `D`: the deployment picker, over the dashboard; without it, `D` says there is none. */
  onPicker?: (() => void) | undefined;
  /**
   * The picker, while it is open over the dashboard: drawn in the body's place (the title and
   * the status line stay, the follow goes on), with the keys while it is shown.
   */
  picker?: ((width: number, rows: number) => React.ReactNode) | undefined;
  /** Colours on (false under NO_COLOR). */
  colour?: boolean;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  columns?: number | undefined;
  rows?: number | undefined;
  initialState?: Partial<UiState>;
  now?: () => number;
  /** Approving and rejecting activities (`A`, `R`); without it the keys say it is not available. */
  voting?: ActivityVoting | undefined;
  /** Rings the terminal bell: once for each poll that brings activities newly awaiting votes. */
  bell?: (() => void) | undefined;
  /** Puts text on the terminal's clipboard (OSC 52, --clipboard); without it `c` shows the line. */
  clipboard?: ((text: string) => void) | undefined;
  /** Writes a saved view (`S`); by default a new file, mode 0600, never overwriting one. */
  saveFile?: ((path: string, text: string) => Promise<void>) | undefined;
}

/** `S` by default: a new file (atomic-file.ts), never overwriting one. */
const saveNewFile = async (path: string, text: string) => writeNewFile(path, text);

const NO_MEMBERS: readonly GroupMember[] = [];

/** Stands in for a feed that is not configured (hooks are called whatever is configured). */
const NO_FEED = new FeedStore<unknown>();

/** A feed's snapshot, or undefined for a feed that is not configured. */
function useFeed<T>(store: FeedStore<T> | undefined): FeedSnapshot<T> | undefined {
  const s = (store ?? NO_FEED) as FeedStore<T>;
  const snapshot = useSyncExternalStore(s.subscribe, s.getSnapshot);
  return store ? snapshot : undefined;
}

/**
 * "payments-signer · deployment 5b2da4c2-… (live)", or the id alone until the name is known;
 * `short` keeps the id's first 8 characters.
 */
export function deploymentTitle(id: string, d: DeploymentChoice | undefined, short = false): Safe {
  const idText = d?.idText ?? safeBounded(id, 200);
  const shown = short ? truncate(idText, 9) : idText;
  if (!d) return lit`deployment ${shown}`;
  return lit`${d.appName} · deployment ${shown}${d.live ? lit` (live)` : lit``}`;
}

/** "3 deployments: 5b2da4, 9c1e07, a0f3d2" */
export function severalTitle(deployments: readonly { label: string }[]): Safe {
  const labels = deployments.map((d) => safeBounded(d.label, 40));
  return lit`${deployments.length} deployments: ${labels.reduce((a, b) => lit`${a}, ${b}`)}`;
}

export function Dashboard(props: DashboardProps) {
  const size = useTerminalSize({ columns: props.columns, rows: props.rows });
  const [ui, setUi] = useState<UiState>(() => ({ ...initialUiState, ...props.initialState }));
  // Keys can come faster than frames: each starts from the state the previous one left.
  const latest = useRef(ui);
  const version = useSyncExternalStore(props.store.subscribe, props.store.getVersion);
  const followerState = useSyncExternalStore(
    props.follower.subscribe.bind(props.follower),
    props.follower.getState.bind(props.follower),
  );
  const activities = useSyncExternalStore(
    props.feeds.activities.store.subscribe,
    props.feeds.activities.store.getSnapshot,
  );
  const email = useFeed(props.feeds.email?.store);
  const solana = useFeed(props.feeds.solana?.store);
  const now = useNow(1000, props.now);
  const voteContext = useVoteContext(props.voting);
  // The bell: activities newly awaiting votes since the dashboard opened, once per poll.
  const seenAwaiting = useRef<Set<string> | undefined>(undefined);
  const bell = props.bell;
  useEffect(() => {
    if (!activities.data) return;
    const awaiting = activities.data.filter((a) => a.status === AWAITING_VOTES).map((a) => a.id);
    const seen = seenAwaiting.current;
    seenAwaiting.current = new Set([...(seen ?? []), ...awaiting]);
    if (seen && awaiting.some((id) => !seen.has(id))) bell?.();
  }, [activities.data, bell]);
  // The follower's own clock, for "retrying in 3s" and "last poll 12s ago" (re-read each tick).
  const monoNow = props.follower.monotonicNow();
  // Several deployments: each with its label and own follower (`d`, `i`); re-read when the
  // follow changes (a deployment added or removed changes it).
  const members = props.follower.members?.() ?? NO_MEMBERS;
  const several = members.length > 1;
  const deploymentChoices = useMemo(
    () => members.map((m) => ({ id: m.deploymentId, label: m.label })),
    [members],
  );
  const roster = useRef(new ReplicaRoster());

  const layout = computeLayout(size.columns, size.rows, ui.sidePanes);
  // The replicas' sparkline takes the pane's first row when it has rows to spare.
  const showStrip = props.replicaActivity !== undefined && layout.logs.height - 3 >= 8;
  // Paused, the pane's last row is the marker counting new lines: the view keeps one row less.
  const logRows = Math.max(
    1,
    layout.logs.height - 3 - (ui.following ? 0 : 1) - (showStrip ? 1 : 0),
  );
  const logWidth = layout.logs.width - 2;
  const filters = useMemo(() => compileFilters(ui), [ui]);
  // Relative times move with the clock; otherwise the view does not depend on it.
  const viewNow = ui.time === "relative" ? now : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; its version says when it changed
  const replicas = useMemo(() => roster.current.update(props.store), [version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; its version says when it changed
  const view = useMemo(
    () => computeLogView(props.store, ui, logWidth, logRows, { filters, replicas, now: viewNow }),
    [version, ui, logWidth, logRows, filters, replicas, viewNow],
  );
  const onlyLabel = ui.onlyDeployment?.label;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the activity is mutable; the store's version says when it changed
  const replicaStats = useMemo(() => {
    const all = props.replicaActivity?.snapshot(SPARK_BUCKETS) ?? [];
    // One deployment shown alone (`d`): its replicas only.
    return onlyLabel === undefined ? all : all.filter((r) => r.label.startsWith(`${onlyLabel} `));
  }, [version, props.replicaActivity, onlyLabel]);
  const strip = useMemo(
    () => (showStrip ? replicaStrip(replicaStats, logWidth) : undefined),
    [showStrip, replicaStats, logWidth],
  );
  const allActivities = useMemo(
    () => summarizeActivities(activities.data ?? [], now),
    [activities.data, now],
  );
  const summary = useMemo(
    () =>
      ui.needsMyVote
        ? {
            ...allActivities,
            rows: allActivities.rows.filter((r) => awaitsMyVote(r.activity, voteContext, now)),
          }
        : allActivities,
    [allActivities, ui.needsMyVote, voteContext, now],
  );
  // Counted on the rows: an activity the server sent twice awaits one vote.
  const awaitingMyVote = useMemo(
    () => allActivities.rows.filter((r) => awaitsMyVote(r.activity, voteContext, now)).length,
    [allActivities, voteContext, now],
  );
  const messages = useMemo(
    () => groupEmailEvents(email?.data ?? [], ui.emailFilter),
    [email?.data, ui.emailFilter],
  );
  const transfers = useMemo(() => summarizeTransfers(solana?.data ?? new Map()), [solana?.data]);
  // Each list pane's rows by key and name, as shown: what selection and the keys act on.
  const lists = useMemo(
    () => ({
      activities: activityListRows(summary.rows),
      email: emailListRows(messages),
      solana: transferListRows(transfers.rows),
    }),
    [summary, messages, transfers],
  );
  const selectionOf = useMemo(
    () => ({
      activities: paneSelection(ui.selection.activities, lists.activities),
      email: paneSelection(ui.selection.email, lists.email),
      solana: paneSelection(ui.selection.solana, lists.solana),
    }),
    [ui.selection, lists],
  );

  const listDetail = useMemo((): DetailView | undefined => {
    if (!ui.detail) return undefined;
    const { pane, key } = ui.detail;
    if (pane === "follow" || pane === "line") return undefined;
    if (pane === "activities") {
      const r = summary.rows.find((x) => x.key === key);
      return r ? activityDetail(r.activity) : undefined;
    }
    if (pane === "email") {
      const m = messages.find((x) => x.messageId === key);
      return m ? emailDetail(m) : undefined;
    }
    const t = transfers.rows.find((x) => x.key === key);
    return t ? transferDetail(t) : undefined;
  }, [ui.detail, summary, messages, transfers]);
  // The follow's status is re-made each render (a tick a second): "next try in 3s" counts down.
  const lineRow =
    ui.detail?.pane === "line" ? props.store.rowById(Number(ui.detail.key)) : undefined;
  const detail =
    ui.detail?.pane === "follow"
      ? followerDetail(followerState, monoNow, replicaStats, now, several ? members : [])
      : ui.detail?.pane === "line"
        ? lineRow && lineDetail(props.store, lineRow, now)
        : listDetail;

  const panes: Pane[] =
    layout.side.arrangement === "hidden" ? ["logs"] : ["logs", "activities", "email", "solana"];
  const overlayRows = Math.max(1, layout.body.height - 3);
  // The vote confirmation at this size: how far its details scroll, and whether it all fits.
  const voteRoomNow = voteRoom(layout.total.width, layout.body.height);
  const voteShown = useMemo(
    () => (ui.vote ? voteFrame(ui.vote, voteRoomNow.width, voteRoomNow.rows) : undefined),
    [ui.vote, voteRoomNow.width, voteRoomNow.rows],
  );
  const ctx: KeyContext = {
    panes,
    log: logNavigator(props.store, logWidth, logRows),
    logRows,
    pageRows:
      ui.help || ui.detail ? overlayRows : Math.max(1, layout.side.panes.activities.height - 5),
    replicas,
    deployments: deploymentChoices,
    overlayMax: ui.help
      ? Math.max(0, helpRows().length - overlayRows)
      : detail
        ? Math.max(0, detailRows(detail, Math.max(10, layout.total.width - 4)).length - overlayRows)
        : 0,
    lists,
    now: props.now?.() ?? Date.now(),
    vote: voteShown,
  };

  const apply = (action: UiAction) => {
    latest.current = uiReducer(latest.current, action);
    setUi(latest.current);
  };
  const { startVote, sendVote } = useVoteFlow({
    voting: props.voting,
    voteContext,
    activities: props.feeds.activities.store,
    activityFor: (key) => allActivities.rows.find((r) => r.key === key)?.activity,
    latest,
    apply,
  });

  /** c: the line to the clipboard (OSC 52) with --clipboard, else shown alone to select. */
  const copyLine = (id: number) => {
    const row = props.store.rowById(id);
    if (row?.event.kind !== "line")
      return apply({ type: "notice", text: "that line left the buffer" });
    if (!props.clipboard) return apply({ type: "openCopy", id });
    props.clipboard(sanitizeForTerminal(row.event.content));
    apply({ type: "notice", text: "line copied to the clipboard (OSC 52)" });
  };
  /** S: the view's lines (as filtered) written to a new file. */
  const saveView = (path: string) => {
    const rows = ctx.log.shownRows(latest.current);
    const text = savedView(rows, savedFormat(path), {
      deploymentId: several ? deploymentChoices.map((d) => d.id).join(",") : props.deploymentId,
      filters: latest.current,
      savedAt: Date.now(),
    });
    (props.saveFile ?? saveNewFile)(path, text).then(
      () =>
        apply({
          type: "notice",
          text: `saved ${rows.length.toLocaleString("en-US")} lines to ${path} (${savedFormat(path) === "ndjson" ? "NDJSON" : "text"})`,
        }),
      (err: unknown) => {
        const code = (err as NodeJS.ErrnoException).code;
        apply({
          type: "notice",
          text:
            code === "EEXIST"
              ? `not saved: ${path} exists (S again with another name)`
              : `not saved: ${(err as Error).message}`,
        });
      },
    );
  };

  useInput((input, key) => {
    if (props.picker) return;
    const result = keyStep(latest.current, input, key, ctx);
    if (result.state !== latest.current) {
      latest.current = result.state;
      setUi(result.state);
    }
    for (const effect of result.effects) {
      if (effect.type === "quit") return props.onQuit();
      if (effect.type === "startVote") startVote(effect.action, effect.key);
      if (effect.type === "sendVote") sendVote();
      if (effect.type === "copy") copyLine(effect.id);
      if (effect.type === "save") saveView(effect.path);
      if (effect.type === "retryNow") {
        const phase = props.follower.getState().phase;
        if (phase === "retrying") props.follower.retryNow();
        latest.current = {
          ...latest.current,
          notice:
            phase === "retrying"
              ? "retrying the log poll now"
              : phase === "live"
                ? "the log is live: nothing to retry"
                : `the log follow is ${phase === "failed" ? "stopped by an error" : phase}: nothing to retry`,
        };
        setUi(latest.current);
      }
      if (effect.type === "picker") {
        if (props.onPicker) props.onPicker();
        else {
          latest.current = {
            ...latest.current,
            notice: "no deployment picker here: tvcwatch without --deployment shows it",
          };
          setUi(latest.current);
        }
      }
    }
  });

  const { width, height } = layout.total;
  const bodyHeight = layout.body.height;
  const prefix = lit`tvcwatch · ${safeBounded(props.title ?? "", 200)}`;
  const full = several
    ? lit`${prefix}${severalTitle(deploymentChoices)}`
    : lit`${prefix}${deploymentTitle(props.deploymentId, props.deployment)}`;
  const title =
    widthOf(full) <= width
      ? full
      : several
        ? truncate(full, width)
        : lit`${prefix}${deploymentTitle(props.deploymentId, props.deployment, true)}`;
  let body: React.ReactNode;
  if (props.picker) {
    body = (
      <Box height={bodyHeight} width={width} overflowY="hidden">
        {props.picker(width, bodyHeight)}
      </Box>
    );
  } else if (ui.vote) {
    body = <VoteOverlay vote={ui.vote} width={width} height={bodyHeight} />;
  } else if (ui.help) {
    body = <HelpOverlay width={width} height={bodyHeight} scroll={ui.helpScroll} />;
  } else if (ui.copy !== undefined) {
    const row = props.store.rowById(ui.copy);
    body = (
      <CopyView
        text={row?.event.kind === "line" ? row.event.content : undefined}
        width={width}
        height={bodyHeight}
      />
    );
  } else if (ui.detail) {
    body = (
      <DetailPane
        view={detail}
        gone={lit`(no longer in the loaded list)`}
        width={width}
        height={bodyHeight}
        scroll={ui.detailScroll}
      />
    );
  } else {
    const logPane = (
      <LogPane
        view={view}
        width={layout.logs.width}
        height={layout.logs.height}
        focused={ui.focus === "logs"}
        title={lit`Logs${ui.wrap ? lit` (wrap)` : lit``}${ui.time === "off" ? lit`` : lit` (${safe(ui.time)} times)`}`}
        following={ui.following}
        cap={props.store.maxLines}
        strip={strip}
      />
    );
    const p = layout.side.panes;
    const side =
      layout.side.arrangement === "hidden" ? null : (
        <Box flexDirection={layout.side.arrangement === "column" ? "column" : "row"}>
          <ActivitiesPane
            summary={summary}
            snapshot={activities}
            width={p.activities.width}
            height={p.activities.height}
            focused={ui.focus === "activities"}
            selection={selectionOf.activities}
            now={now}
            needsMyVote={ui.needsMyVote}
          />
          <EmailPane
            configured={props.feeds.email !== undefined}
            messages={messages}
            snapshot={email}
            width={p.email.width}
            height={p.email.height}
            focused={ui.focus === "email"}
            selection={selectionOf.email}
            now={now}
            filter={ui.emailFilter}
          />
          <SolanaPane
            configured={props.feeds.solana !== undefined}
            rows={transfers.rows}
            net={transfers.net}
            snapshot={solana}
            width={p.solana.width}
            height={p.solana.height}
            focused={ui.focus === "solana"}
            selection={selectionOf.solana}
            now={now}
          />
        </Box>
      );
    body = (
      <Box
        flexDirection={layout.side.arrangement === "column" ? "row" : "column"}
        height={bodyHeight}
      >
        {logPane}
        {side}
      </Box>
    );
  }
  const status = ui.input
    ? promptLine(ui.input, width)
    : statusLine(
        {
          follower: followerState,
          ui,
          buffered: props.store.size(),
          cap: props.store.maxLines,
          nowMono: monoNow,
          awaitingVotes: awaitingMyVote,
        },
        width,
      );
  return (
    <ColourContext.Provider value={props.colour ?? true}>
      <Box flexDirection="column" width={width} height={height} overflowY="hidden">
        <SafeText bold>{title}</SafeText>
        {body}
        <Line segments={status} />
      </Box>
    </ColourContext.Provider>
  );
}
