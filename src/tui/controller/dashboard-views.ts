/**
 * What the dashboard draws, built from the controller's state and what its ports publish now:
 * the layout for the terminal's size, the log pane's rows (only those that fit), the side panes'
 * view-models with their selections, the open overlay, the title and the status line; and the
 * context the key step resolves keys against, from the same views (keys act on what is shown).
 * Each part is memoized on its inputs (the store's version, the UI state, the size, the feeds'
 * snapshots, the clock's tick): a new log line rebuilds the log pane's view, not the side panes'.
 */

import { CONFLICT_TEXT } from "../../activity/activity-identity.js";
import type { VoteContext } from "../../activity/awaiting-vote.js";
import { awaitsMyVote } from "../../activity/awaiting-vote.js";
import type { IntentDecoder } from "../../activity/decode/intent-decoder.js";
import { NO_NAMES, type OrganizationNames } from "../../activity/organization-names.js";
import type { Activity, EmailEvent, SolTransaction } from "../../api/schemas.js";
import type { HealthView } from "../../feeds/deployment-health.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import { type ErrorHeatmap, errorHeatmap } from "../../logs/error-heatmap.js";
import { isStamped } from "../../logs/model/log-line.js";
import type { LogRows } from "../../logs/model/log-store.js";
import { type ReplicaStats, SPARK_BUCKETS } from "../../logs/model/replica-activity.js";
import { SLICE_MS, WorkBudget } from "../../logs/work-budget.js";
import type { FollowerState } from "../../tail/follower.js";
import type { GroupMember } from "../../tail/follower-group.js";
import { lit, type Safe, safe, safeBounded, truncate } from "../../text/safe-text.js";
import { helpRows } from "../keys/help-content.js";
import type { KeyContext } from "../keys/key-step.js";
import { copyLines } from "../log-view/copy-text.js";
import { lineDetail } from "../log-view/line-detail.js";
import { compileFilters, type Filters, judgeRest } from "../log-view/log-filters.js";
import { logNavigator } from "../log-view/log-navigator.js";
import { computeLogView, type LogView } from "../log-view/log-view.js";
import { ReplicaRoster } from "../log-view/replica-roster.js";
import { replicaStrip } from "../log-view/replica-strip.js";
import { activityDetail } from "../panes/activity-detail.js";
import { type ActivitySummary, summarizeActivities } from "../panes/activity-summary.js";
import { detailRows } from "../panes/detail-layout.js";
import { type DetailView, field } from "../panes/detail-view.js";
import { type EmailMessage, emailDetail, groupEmailEvents } from "../panes/email-timeline.js";
import { followerDetail, savedLinesDetail } from "../panes/follower-detail.js";
import { type KnownIds, knownIds, type Mention, mentionsIn } from "../panes/known-ids.js";
import { computeLayout, type Layout, type PaneBox } from "../panes/layout.js";
import {
  type NearTime,
  nearTime,
  type PaneClock,
  paneTimes,
  type RestingTimes,
} from "../panes/pane-clock.js";
import { activityListRows, emailListRows, transferListRows } from "../panes/pane-lists.js";
import {
  type NetFlow,
  summarizeTransfers,
  type TransferRow,
  transferDetail,
} from "../panes/solana-transfers.js";
import { HEATMAP_TITLE, heatmapRows } from "../rows/heatmap-rows.js";
import type { Segment } from "../rows/segment.js";
import { promptLine, statusLine } from "../rows/status-line.js";
import { type VoteFrame, voteFrame } from "../rows/vote-rows.js";
import { indexingPercent } from "../saving/saved-title.js";
import { type PaneSelection, paneSelection } from "../state/list-selection.js";
import type { ListPane, Pane, UiState } from "../state/ui-state.js";
import type { VoteUi } from "../state/vote-state.js";
import { dashboardTitle, type Heading } from "./dashboard-title.js";
import { memoized } from "./memo.js";
import type { LogSource } from "./ports.js";

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** What the views are built from. */
export interface ViewInputs {
  ui: UiState;
  size: TerminalSize;
  heading: Heading;
  logs: LogSource;
  /** The store's version: its rows changed when it did. */
  version: number;
  /** The follow's state; undefined: saved lines, nothing followed. */
  follow: FollowerState | undefined;
  /** Now on the follow's monotonic clock (countdowns, "last poll 12s ago"). */
  monoNow: number | undefined;
  /** The deployments of a group follow (several: each with its label). */
  members: readonly GroupMember[];
  /** The followed deployments' health as polled; undefined: not polled. */
  health?: FeedSnapshot<HealthView> | undefined;
  /** The side panes' feeds; undefined: no side panes at all. */
  feeds:
    | {
        activities: FeedSnapshot<Activity[]>;
        /** Undefined: not configured (the pane says which flag turns it on). */
        email: FeedSnapshot<EmailEvent[]> | undefined;
        solana: FeedSnapshot<Map<string, SolTransaction[]>> | undefined;
      }
    | undefined;
  /** Epoch ms, moved by the clock's tick. */
  now: number;
  voteContext: VoteContext;
  /** How many slices of judging the log's rows went by (./dashboard-controller.ts runs them). */
  round?: number;
  /** What activities ask to sign, decoded; `decoded` counts the decodings it finished. */
  decoder?: IntentDecoder | undefined;
  decoded?: number | undefined;
  /** The records shown cannot be acted on (a saved bundle): none awaits a vote from here. */
  readOnly?: boolean | undefined;
}

export interface LogPaneView {
  view: LogView;
  box: PaneBox;
  focused: boolean;
  title: Safe;
  /** Said at the title's right: following, paused, or retrying and why while polls fail. */
  right: Safe;
  following: boolean;
  cap: number;
  strip: Segment[] | undefined;
}

export interface ActivitiesView {
  summary: ActivitySummary;
  snapshot: FeedSnapshot<Activity[]>;
  box: PaneBox;
  focused: boolean;
  selection: PaneSelection;
  now: number;
  needsMyVote: boolean;
  /** The panes' clock: how times are shown, and the log cursor's time followed. */
  clock: PaneClock;
  /** The records nearest the cursor's time, when one is followed. */
  near: NearTime | undefined;
  /** The row the pane's window is kept around: the selection while focused, else the nearest. */
  anchor: number;
}

export interface EmailView {
  configured: boolean;
  messages: readonly EmailMessage[];
  snapshot: FeedSnapshot<EmailEvent[]> | undefined;
  box: PaneBox;
  focused: boolean;
  selection: PaneSelection;
  now: number;
  filter: UiState["emailFilter"];
  clock: PaneClock;
  near: NearTime | undefined;
  anchor: number;
}

export interface SolanaView {
  configured: boolean;
  rows: readonly TransferRow[];
  net: readonly NetFlow[];
  snapshot: FeedSnapshot<Map<string, SolTransaction[]>> | undefined;
  box: PaneBox;
  focused: boolean;
  selection: PaneSelection;
  now: number;
  clock: PaneClock;
  near: NearTime | undefined;
  anchor: number;
}

export interface SidePanesView {
  arrangement: "column" | "row";
  activities: ActivitiesView;
  email: EmailView;
  solana: SolanaView;
}

/** What fills the space between the title and the status line, innermost first. */
export type DashboardBody =
  | { kind: "vote"; vote: VoteUi; frame: VoteFrame }
  /** The help's rows for its width, only those found while `find` is set (`/` in the help). */
  | { kind: "help"; scroll: number; rows: readonly Segment[][]; find: string }
  /** The error heatmap (`H`): its heading and rows for the overlay's width, from `scroll`. */
  | { kind: "heatmap"; title: Safe; rows: readonly Segment[][]; scroll: number }
  /** `c` without --clipboard: the lines copied (./copy-text.ts), undefined once gone. */
  | { kind: "copy"; lines: readonly string[] | undefined }
  | { kind: "detail"; view: DetailView | undefined; scroll: number }
  | { kind: "panes"; log: LogPaneView; side: SidePanesView | undefined };

/** The dashboard as drawn: what the component renders, nothing else. */
export interface DashboardSnapshot {
  ui: UiState;
  layout: Layout;
  title: Safe;
  body: DashboardBody;
  status: Segment[];
}

/** The views and the key context built from one set of inputs. */
export interface Built {
  snapshot: DashboardSnapshot;
  /** The key step's context (its `now` is set when a key is pressed). */
  keys: KeyContext;
  /** Every activity listed (`v` or not): what A and R find a row's activity in. */
  activities: ActivitySummary;
  /** The deployments followed when several are (what `S` records). */
  several: readonly { id: string; label: string }[];
  /** The log pane's rows are what its filters judged so far: the next slice adds to them. */
  logPending: boolean;
  /** A search is still reading the lines: the status line counts what it found so far. */
  searching: boolean;
}

const NO_ACTIVITIES: readonly Activity[] = [];
const NO_MENTIONS: readonly Mention[] = [];
const NO_EMAIL: readonly EmailEvent[] = [];
const NO_TRANSFERS: ReadonlyMap<string, readonly SolTransaction[]> = new Map();
const ALL_PANES: readonly Pane[] = ["logs", "activities", "email", "solana"];
const LOGS_ONLY: readonly Pane[] = ["logs"];

/** What one key may spend judging rows (a slice more than a frame's: it answers the key). */
const KEY_MS = 40;

/** The most of the follow's error the log pane's title shows (the status line says more). */
const TITLE_CAUSE = 32;

/**
 * What the log pane's title says at its right: `following` or `paused`; while polls fail,
 * `retrying: <the cause, short>` instead of `following` (the lines are not coming in).
 */
export function logPaneState(ui: UiState, follow: FollowerState | undefined): Safe {
  const view = ui.following ? lit`following` : lit`paused`;
  if (!follow || (follow.phase !== "retrying" && follow.phase !== "failed")) return view;
  const word = follow.phase === "retrying" ? lit`retrying` : lit`stopped`;
  const cause = follow.lastError
    ? lit`: ${truncate(safeBounded(follow.lastError, 500), TITLE_CAUSE)}`
    : lit``;
  return ui.following ? lit`${word}${cause}` : lit`paused · ${word}${cause}`;
}

/** The log pane's title: wrap and time modes said after "Logs". */
function logTitle(ui: UiState): Safe {
  const wrap = ui.wrap ? lit` (wrap)` : lit``;
  const time = ui.time === "off" ? lit`` : lit` (${safe(ui.time)} times)`;
  return lit`Logs${wrap}${time}`;
}

export class DashboardViews {
  private readonly roster = new ReplicaRoster();
  private readonly layout = memoized(computeLayout);
  /** The filters are compiled again only when one of them changed (not at every key). */
  private readonly filters = memoized(
    (
      include: UiState["include"],
      exclude: UiState["exclude"],
      where: UiState["where"],
      search: UiState["search"],
      hiddenReplicas: UiState["hiddenReplicas"],
      onlyReplica: UiState["onlyReplica"],
      onlyDeployment: UiState["onlyDeployment"],
      minLevel: UiState["minLevel"],
      context: UiState["context"],
      timeRange: UiState["timeRange"],
      events: UiState["events"],
    ): Filters =>
      compileFilters({
        include,
        exclude,
        where,
        search,
        hiddenReplicas,
        onlyReplica,
        onlyDeployment,
        minLevel,
        context,
        timeRange,
        events,
      }),
  );
  private readonly replicaNumbers = memoized(
    (_version: number, logs: LogSource) =>
      logs.replicaNumbers?.() ?? this.roster.update(logs.store),
  );
  private readonly logView = memoized(
    (
      _version: number,
      logs: LogSource,
      ui: UiState,
      width: number,
      height: number,
      filters: Filters,
      replicas: ReadonlySet<number>,
      now: number,
      _round: number,
    ) =>
      computeLogView(logs.store, ui, width, height, {
        filters,
        replicas,
        now,
        // A frame judges at most a slice of rows: a filter over a large buffer never blocks keys.
        budget: WorkBudget.of(SLICE_MS),
      }),
  );
  private readonly replicaStats = memoized(
    (_version: number, logs: LogSource, onlyLabel: string | undefined): ReplicaStats[] => {
      const all = logs.replicas?.snapshot(SPARK_BUCKETS) ?? [];
      // One deployment shown alone (`d`): its replicas only.
      return onlyLabel === undefined ? all : all.filter((r) => r.label.startsWith(`${onlyLabel} `));
    },
  );
  private readonly strip = memoized((stats: readonly ReplicaStats[], width: number) =>
    replicaStrip(stats, width),
  );
  private readonly allActivities = memoized(summarizeActivities);
  private readonly mine = memoized(
    (all: ActivitySummary, only: boolean, voteContext: VoteContext, now: number) => {
      // A contested id (two different activities under it) awaits nothing until it is settled.
      const rows = all.rows.filter(
        (r) => r.conflict === undefined && awaitsMyVote(r.activity, voteContext, now),
      );
      // Counted on the rows: an activity the server sent twice awaits one vote.
      return { awaiting: rows.length, shown: only ? { ...all, rows } : all };
    },
  );
  private readonly messages = memoized(groupEmailEvents);
  private readonly summaries = memoized(
    (
      activities: ActivitySummary,
      messages: readonly EmailMessage[],
      transfers: { rows: TransferRow[] },
    ): SideSummaries => ({ activities, messages, transfers }),
  );
  private readonly transfers = memoized(summarizeTransfers);
  private readonly lists = memoized(
    (summary: ActivitySummary, messages: readonly EmailMessage[], transfers: TransferRow[]) => ({
      activities: activityListRows(summary.rows),
      email: emailListRows(messages),
      solana: transferListRows(transfers),
    }),
  );
  private readonly selections = memoized(
    (selection: UiState["selection"], lists: ReturnType<typeof this.lists>) => ({
      activities: paneSelection(selection.activities, lists.activities),
      email: paneSelection(selection.email, lists.email),
      solana: paneSelection(selection.solana, lists.solana),
    }),
  );
  private readonly clock = memoized(
    (
      time: UiState["time"],
      resting: RestingTimes,
      now: number,
      at: number | undefined,
    ): PaneClock => ({
      times: paneTimes(time, resting),
      now,
      at,
    }),
  );
  private readonly near = memoized(
    (
      at: number | undefined,
      activities: ActivitySummary,
      messages: readonly EmailMessage[],
      transfers: readonly TransferRow[],
      now: number,
    ) =>
      at === undefined
        ? undefined
        : {
            activities: nearTime(
              activities.rows.map((r) => ({ from: now - r.ageMs, to: now - r.ageMs })),
              at,
            ),
            email: nearTime(
              messages.map((m) => ({ from: m.firstAt, to: m.lastAt })),
              at,
            ),
            solana: nearTime(
              transfers.map((t) => ({ from: t.at, to: t.at })),
              at,
            ),
          },
  );
  private readonly cursorTime = memoized(
    (_version: number, logs: LogSource, cursor: number | undefined): number | undefined => {
      if (cursor === undefined) return undefined;
      const event = logs.store.rowById(cursor)?.event;
      if (!event || (event.kind === "line" && !isStamped(event))) return undefined;
      return event.sortKey;
    },
  );
  private readonly voteShown = memoized(voteFrame);
  private readonly navigator = memoized((logs: LogSource, width: number, height: number) =>
    logNavigator(
      logs.store,
      width,
      height,
      (s) => this.filtersOf(s),
      () => WorkBudget.of(KEY_MS),
    ),
  );
  private readonly listDetail = memoized(
    (
      pane: ListPane,
      key: string,
      side: SideSummaries,
      names: OrganizationNames,
      decoder: IntentDecoder | undefined,
      _decoded: number,
    ) => listDetail(pane, key, side, names, decoder),
  );
  private readonly lineDetail = memoized(
    (
      key: string,
      _version: number,
      logs: LogSource,
      now: number,
      mentions: readonly Mention[],
      chosen: string | undefined,
    ) => {
      const row = logs.store.rowById(Number(key));
      return row && lineDetail(logs.store, row, now, mentions, chosen);
    },
  );
  /** The ids the side panes' records have, looked up in a line's tokens (../panes/known-ids.ts). */
  private readonly knownIds = memoized(
    (side: SideSummaries): KnownIds =>
      knownIds({
        activities: side.activities.rows,
        messages: side.messages,
        transfers: side.transfers.rows,
      }),
  );
  /** The records a line (by its row id) mentions, when the panes know them. */
  private readonly mentions = memoized(
    (key: string, _version: number, logs: LogSource, known: KnownIds): readonly Mention[] => {
      const event = logs.store.rowById(Number(key))?.event;
      return event?.kind === "line" ? mentionsIn(event.content, known) : NO_MENTIONS;
    },
  );
  private readonly detailRowCount = memoized(
    (detail: DetailView, width: number) => detailRows(detail, width).length,
  );
  private readonly title = memoized(dashboardTitle);
  /**
   * Over the whole buffer, filters aside; computed while the heatmap is open, or for `!`. Levels
   * are read as the filters read them, not through the rendering (which would render every line).
   */
  private readonly errors = memoized((_version: number, logs: LogSource) => {
    // Saved lines give the heatmap their index's reading, without decoding every line.
    const rows: LogRows = logs.store;
    const indexed = rows.heatmapSource?.();
    return indexed ? errorHeatmap(indexed.source, indexed.options) : errorHeatmap(logs.store);
  });
  private readonly heatmapRows = memoized((map: ErrorHeatmap | undefined, width: number) => ({
    title: HEATMAP_TITLE,
    rows: heatmapRows(map, width),
  }));
  private readonly help = memoized((width: number, find: string) => helpRows(width, find));
  private readonly several = memoized((members: readonly GroupMember[]) =>
    members.length > 1 ? members.map((m) => ({ id: m.deploymentId, label: m.label })) : [],
  );

  /**
   * One slice of the work the view's filters still have over the whole buffer (rows no frame or
   * key has judged yet): true when none is left.
   */
  judgeSlice(ui: UiState, logs: LogSource): boolean {
    return judgeRest(logs.store, this.filtersOf(ui), WorkBudget.of(SLICE_MS));
  }

  /** The filters as the view compiled them for `ui` (the key step's navigator uses them too). */
  filtersOf(ui: UiState): Filters {
    return this.filters(
      ui.include,
      ui.exclude,
      ui.where,
      ui.search,
      ui.hiddenReplicas,
      ui.onlyReplica,
      ui.onlyDeployment,
      ui.minLevel,
      ui.context,
      ui.timeRange,
      ui.events,
    );
  }

  build(input: ViewInputs): Built {
    const { ui, logs } = input;
    const layout = this.layout(input.size.columns, input.size.rows, ui.sidePanes && !!input.feeds);
    const { boxes } = layout;
    // The replicas' sparkline takes the pane's first row when it has rows to spare.
    const showStrip = logs.replicas !== undefined && boxes.logs.inner.height >= 8;
    // Paused, the pane's last row is the marker counting new lines: the view keeps one row less.
    const logRows = Math.max(
      1,
      boxes.logs.inner.height - (ui.following ? 0 : 1) - (showStrip ? 1 : 0),
    );
    const logWidth = boxes.logs.inner.width;
    const replicas = this.replicaNumbers(input.version, logs);
    const stats = this.replicaStats(input.version, logs, ui.onlyDeployment?.label);
    const log: LogPaneView = {
      view: this.logView(
        input.version,
        logs,
        ui,
        logWidth,
        logRows,
        this.filtersOf(ui),
        replicas,
        // Relative times move with the clock; otherwise the view does not depend on it.
        ui.time === "relative" ? input.now : 0,
        input.round ?? 0,
      ),
      box: boxes.logs,
      focused: ui.focus === "logs",
      title: logTitle(ui),
      right: logPaneState(ui, input.follow),
      following: ui.following,
      cap: logs.store.maxLines,
      strip: showStrip ? this.strip(stats, logWidth) : undefined,
    };
    const side = this.sideViews(input, layout);
    const several = this.several(input.members);
    const open = ui.detail;
    const mentions =
      open?.pane === "line"
        ? this.mentions(open.key, input.version, logs, this.knownIds(side.summaries))
        : NO_MENTIONS;
    const detail = this.detail(input, side.summaries, stats, mentions);
    const pattern = ui.search === undefined ? undefined : this.filtersOf(ui).search;
    const rows: LogRows = logs.store;
    const searching = pattern && rows.searchProgress?.(pattern);
    // The overlays (the heatmap, the help, a detail, a vote) lay out their rows inside its box.
    const overlay = boxes.overlay.inner;
    const overlayRows = overlay.height;
    const heatmap = ui.heatmap
      ? this.heatmapRows(this.errors(input.version, logs), overlay.width)
      : undefined;
    // Typing in the help's prompt finds as it goes.
    const helpFind = ui.input?.mode === "helpFind" ? ui.input.text : (ui.helpFind ?? "");
    const help = ui.help ? this.help(overlay.width, helpFind) : [];
    const vote = ui.vote ? this.voteShown(ui.vote, overlay.width, overlay.height) : undefined;
    const keys: KeyContext = {
      panes: layout.side.arrangement === "hidden" ? LOGS_ONLY : ALL_PANES,
      log: this.navigator(logs, logWidth, logRows),
      logRows,
      pageRows:
        ui.help || ui.detail || ui.heatmap
          ? overlayRows
          : // A page of a list pane: its rows less its counts and header lines.
            Math.max(1, boxes.activities.inner.height - 2),
      replicas,
      deployments: several,
      overlayMax: ui.help
        ? Math.max(0, help.length - overlayRows)
        : heatmap
          ? Math.max(0, heatmap.rows.length - overlayRows)
          : detail
            ? Math.max(0, this.detailRowCount(detail, overlay.width) - overlayRows)
            : 0,
      lists: side.lists,
      now: input.now,
      vote,
      sidePanes: input.feeds !== undefined,
      errors: () => this.errors(input.version, logs),
      indexing: () => {
        const summary = logs.saved?.summary();
        return summary ? indexingPercent(summary) : undefined;
      },
      mentions,
    };
    const snapshot: DashboardSnapshot = {
      ui,
      layout,
      title: this.title(input.heading, several, layout.total.width, input.health),
      body: this.body(input, { log, side: side.view, detail, vote, heatmap, help, helpFind }),
      status: ui.input
        ? promptLine(ui.input, layout.total.width)
        : statusLine(
            {
              follower: input.follow,
              reading: input.follow ? undefined : logs.saved?.following?.(),
              ui,
              buffered: logs.store.cappedSize(),
              cap: logs.store.maxLines,
              nowMono: input.monoNow,
              awaitingVotes: input.readOnly ? 0 : side.awaiting,
              searching,
            },
            layout.total.width,
          ),
    };
    return {
      snapshot,
      keys,
      activities: side.all,
      several,
      logPending: log.view.pending,
      searching: searching !== undefined,
    };
  }

  /** The side panes' view-models and their rows as selection sees them. */
  private sideViews(input: ViewInputs, layout: Layout) {
    const { ui, feeds, now } = input;
    const all = this.allActivities(feeds?.activities.data ?? NO_ACTIVITIES, now);
    const mine = this.mine(all, ui.needsMyVote, input.voteContext, now);
    const messages = this.messages(feeds?.email?.data ?? NO_EMAIL, ui.emailFilter);
    const transfers = this.transfers(feeds?.solana?.data ?? NO_TRANSFERS);
    const lists = this.lists(mine.shown, messages, transfers.rows);
    // One object per change of them: the detail view of a row is memoized on it.
    const summaries = this.summaries(mine.shown, messages, transfers);
    if (!feeds || layout.side.arrangement === "hidden") {
      return { all, lists, summaries, awaiting: mine.awaiting, view: undefined };
    }
    const selection = this.selections(ui.selection, lists);
    // Paused with a cursor in the log, the panes follow its time; following live, none.
    const at = ui.following ? undefined : this.cursorTime(input.version, input.logs, ui.cursor);
    const clock = this.clock(ui.time, input.logs.paneTimes ?? "age", now, at);
    const near = this.near(at, mine.shown, messages, transfers.rows, now);
    const anchor = (pane: ListPane, kept: NearTime | undefined) =>
      ui.focus === pane || !kept ? selection[pane].anchor : kept.anchor;
    const { boxes } = layout;
    const view: SidePanesView = {
      arrangement: layout.side.arrangement,
      activities: {
        summary: mine.shown,
        snapshot: feeds.activities,
        box: boxes.activities,
        focused: ui.focus === "activities",
        selection: selection.activities,
        now,
        needsMyVote: ui.needsMyVote,
        clock,
        near: near?.activities,
        anchor: anchor("activities", near?.activities),
      },
      email: {
        configured: feeds.email !== undefined,
        messages,
        snapshot: feeds.email,
        box: boxes.email,
        focused: ui.focus === "email",
        selection: selection.email,
        now,
        filter: ui.emailFilter,
        clock,
        near: near?.email,
        anchor: anchor("email", near?.email),
      },
      solana: {
        configured: feeds.solana !== undefined,
        rows: transfers.rows,
        net: transfers.net,
        snapshot: feeds.solana,
        box: boxes.solana,
        focused: ui.focus === "solana",
        selection: selection.solana,
        now,
        clock,
        near: near?.solana,
        anchor: anchor("solana", near?.solana),
      },
    };
    return { all, lists, summaries, awaiting: mine.awaiting, view };
  }

  /** The open detail view's content: a list row by its key, a log line, or the follow's status. */
  private detail(
    input: ViewInputs,
    side: SideSummaries,
    stats: readonly ReplicaStats[],
    mentions: readonly Mention[],
  ): DetailView | undefined {
    const open = input.ui.detail;
    if (!open) return undefined;
    if (open.pane === "follow") {
      return input.follow
        ? followerDetail(
            input.follow,
            input.monoNow ?? 0,
            stats,
            input.now,
            input.members,
            input.health,
          )
        : savedLinesDetail(input.logs.store, stats, input.now, input.logs.saved);
    }
    if (open.pane === "line")
      return this.lineDetail(open.key, input.version, input.logs, input.now, mentions, open.chosen);
    const voteContext = input.voteContext;
    const names = voteContext.state === "loaded" ? voteContext.context.names : undefined;
    return this.listDetail(
      open.pane,
      open.key,
      side,
      names ?? NO_NAMES,
      input.decoder,
      input.decoded ?? 0,
    );
  }

  private body(
    input: ViewInputs,
    parts: {
      log: LogPaneView;
      side: SidePanesView | undefined;
      detail: DetailView | undefined;
      vote: VoteFrame | undefined;
      heatmap: { title: Safe; rows: readonly Segment[][] } | undefined;
      help: readonly Segment[][];
      helpFind: string;
    },
  ): DashboardBody {
    const { ui } = input;
    if (ui.vote && parts.vote) return { kind: "vote", vote: ui.vote, frame: parts.vote };
    if (ui.help)
      return { kind: "help", scroll: ui.helpScroll, rows: parts.help, find: parts.helpFind };
    if (parts.heatmap) return { kind: "heatmap", ...parts.heatmap, scroll: ui.heatmapScroll };
    if (ui.copy !== undefined) return { kind: "copy", lines: copyLines(input.logs.store, ui.copy) };
    if (ui.detail) return { kind: "detail", view: parts.detail, scroll: ui.detailScroll };
    return { kind: "panes", log: parts.log, side: parts.side };
  }
}

interface SideSummaries {
  activities: ActivitySummary;
  messages: readonly EmailMessage[];
  transfers: { rows: TransferRow[] };
}

/** A list pane's record by its key, as a detail view; undefined when it left the list. */
function listDetail(
  pane: ListPane,
  key: string,
  side: SideSummaries,
  names: OrganizationNames,
  decoder: IntentDecoder | undefined,
): DetailView | undefined {
  if (pane === "activities") {
    const r = side.activities.rows.find((x) => x.key === key);
    if (!r) return undefined;
    const view = activityDetail(r.activity, names, decoder?.lookup(r.activity));
    if (r.conflict === undefined) return view;
    const contested = field(lit`contested`, `${CONFLICT_TEXT} (${r.conflict} under ${r.id})`);
    return { ...view, fields: [contested, ...view.fields] };
  }
  if (pane === "email") {
    const m = side.messages.find((x) => x.messageId === key);
    return m ? emailDetail(m) : undefined;
  }
  const t = side.transfers.rows.find((x) => x.key === key);
  return t ? transferDetail(t) : undefined;
}
