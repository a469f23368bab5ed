import { Box, useInput } from "ink";
import { useMemo, useRef, useState, useSyncExternalStore } from "react";
import { activityDetail } from "../../feeds/activity-detail.js";
import { summarizeActivities } from "../../feeds/activity-summary.js";
import type { Feeds } from "../../feeds/feeds.js";
import type { LogFollower } from "../../tail/follower.js";
import type { LogStore } from "../../tail/log-store.js";
import { lit, safeBounded } from "../../text/safe-text.js";
import { keyToCommand, splitInput } from "../key-map.js";
import { computeLayout } from "../layout.js";
import { compileFilters, computeLogView, findMatchOffset } from "../log-view.js";
import type { Pane, UiAction, UiState } from "../ui-state.js";
import { initialUiState, uiReducer } from "../ui-state.js";
import { useNow } from "../use-now.js";
import { useTerminalSize } from "../use-terminal-size.js";
import { ActivitiesPane } from "./activities-pane.js";
import { DetailPane } from "./detail-pane.js";
import { EmailPane } from "./email-pane.js";
import { HelpOverlay } from "./help-overlay.js";
import { LogPane } from "./log-pane.js";
import { SafeText } from "./safe-text.js";
import { SolanaPane } from "./solana-pane.js";
import { StatusBar } from "./status-bar.js";

export interface DashboardProps {
  store: LogStore;
  follower: LogFollower;
  feeds: Feeds;
  deploymentId: string;
  title?: string;
  onQuit: () => void;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  columns?: number | undefined;
  rows?: number | undefined;
  initialState?: Partial<UiState>;
  now?: () => number;
}

export function Dashboard(props: DashboardProps) {
  const size = useTerminalSize({ columns: props.columns, rows: props.rows });
  const [ui, setUi] = useState<UiState>(() => ({ ...initialUiState, ...props.initialState }));
  // Keys can arrive faster than renders: each one starts from the state the previous one left.
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
  const now = useNow(1000, props.now);
  const layout = computeLayout(size.columns, size.rows, ui.sidePanes);
  const logRows = Math.max(1, layout.logs.height - 3);
  const filters = useMemo(() => compileFilters(ui), [ui]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; its version says when it changed
  const view = useMemo(
    () => computeLogView(props.store, ui, layout.logs.width - 2, logRows, filters),
    [version, ui, layout.logs.width, logRows, filters],
  );
  const total = () => props.store.evicted() + props.store.size();
  const panes: Pane[] =
    layout.side.arrangement === "hidden" ? ["logs"] : ["logs", "activities", "email", "solana"];
  const activityRows = summarizeActivities(activities.data ?? [], now).rows;

  useInput((input, key) => {
    const ctx = {
      panes,
      total: total(),
      logRows,
      activityCount: activityRows.length,
      selectedActivityId: activityRows[latest.current.selection.activities]?.id,
    };
    let state = latest.current;
    for (const press of splitInput(input, key)) {
      const command = keyToCommand(state, press.input, press.key, ctx);
      if (!command) continue;
      if (command.type === "quit") {
        props.onQuit();
        return;
      }
      let action: UiAction | undefined = command.type === "findMatch" ? undefined : command;
      if (command.type === "findMatch") {
        const offset = findMatchOffset(
          props.store,
          state,
          command.direction,
          compileFilters(state),
        );
        if (offset !== undefined) action = { type: "scrollTo", offset, storeSize: ctx.total };
      }
      if (action) {
        state = uiReducer(state, action);
        latest.current = state;
        setUi(state);
      }
    }
  });

  const { width, height } = layout.total;
  const bodyHeight = height - 2;
  const title = lit`tvcwatch · ${safeBounded(props.title ?? "", 200)}deployment ${safeBounded(props.deploymentId, 200)}`;
  let body: React.ReactNode;
  if (ui.help) {
    body = <HelpOverlay width={width} height={bodyHeight} />;
  } else if (ui.detail) {
    const activity = (activities.data ?? []).find((a) => a.id === ui.detail);
    body = (
      <DetailPane
        view={activity ? activityDetail(activity) : undefined}
        gone={lit`(the activity is no longer in the loaded list)`}
        width={width}
        height={bodyHeight}
        scroll={0}
      />
    );
  } else {
    const logPane = (
      <LogPane
        view={view}
        width={layout.logs.width}
        height={layout.logs.height}
        focused={ui.focus === "logs"}
        title={lit`Logs${ui.wrap ? lit` (wrap)` : lit``}${ui.timestamps ? lit` (timestamps)` : lit``}`}
        following={ui.following}
      />
    );
    const p = layout.side.pane;
    const side =
      layout.side.arrangement === "hidden" ? null : (
        <Box flexDirection={layout.side.arrangement === "column" ? "column" : "row"}>
          <ActivitiesPane
            store={props.feeds.activities.store}
            width={p.width}
            height={p.height}
            focused={ui.focus === "activities"}
            selected={ui.selection.activities}
            now={now}
          />
          <EmailPane
            store={props.feeds.email?.store}
            width={p.width}
            height={p.height}
            focused={ui.focus === "email"}
            now={now}
            filter={ui.emailFilter}
          />
          <SolanaPane
            store={props.feeds.solana?.store}
            width={p.width}
            height={p.height}
            focused={ui.focus === "solana"}
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
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <SafeText bold>{title}</SafeText>
      {body}
      <StatusBar
        state={followerState}
        ui={ui}
        buffered={props.store.size()}
        cap={props.store.maxLines}
        width={width}
      />
    </Box>
  );
}
