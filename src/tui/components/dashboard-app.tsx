import { useEffect, useRef, useState } from "react";
import type {
  DashboardSources,
  DeploymentWatch,
  LogSession,
} from "../../feeds/dashboard-sources.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { describeError } from "../../feeds/poller.js";
import { pickOutcome, type ShownScope } from "../picker-state.js";
import { useTerminalSize } from "../use-terminal-size.js";
import { Dashboard } from "./dashboard.js";
import type { PickerLoad } from "./deployment-picker.js";
import { DeploymentPicker } from "./deployment-picker.js";
import { ColourContext } from "./safe-text.js";

/** Why the app ended: a quit, or a failure the CLI reports as its one-line error. */
export type AppExit = { error?: unknown };

/**
 * The picker and the dashboard in one full-screen app: without a deployment it starts at the
 * picker; `D` in the dashboard opens it over the dashboard, which keeps following: Esc, or the
 * deployment or scope shown now, returns to it unchanged (buffer, filters, cursor, marks). What
 * is watched (one deployment, or several merged) gets its own log session, stopped only when
 * another is picked.
 */
export function DashboardApp(props: {
  sources: DashboardSources;
  /** The deployments to watch (several: merged); none: the picker. */
  deploymentIds?: readonly string[] | undefined;
  /** `--app` / `--all`: the deployments given are listed again while watched. */
  watch?: DeploymentWatch | undefined;
  title?: string | undefined;
  colour: boolean;
  /** Rings the terminal bell (activities newly awaiting votes); undefined: no bell. */
  bell?: (() => void) | undefined;
  /** Puts text on the terminal's clipboard (OSC 52, --clipboard); undefined: `c` shows it. */
  clipboard?: ((text: string) => void) | undefined;
  onExit: (exit: AppExit) => void;
}) {
  const size = useTerminalSize();
  const [watching, setWatching] = useState<
    | {
        ids: readonly string[];
        deployment: DeploymentChoice | undefined;
        watch?: DeploymentWatch | undefined;
        watchLabel?: string | undefined;
      }
    | undefined
  >(
    props.deploymentIds && props.deploymentIds.length > 0
      ? {
          ids: props.deploymentIds,
          deployment: undefined,
          watch: props.watch,
          watchLabel: props.watch?.label,
        }
      : undefined,
  );
  // The picker is shown: at start without a deployment, or over the dashboard after `D`.
  const [picking, setPicking] = useState(watching === undefined);
  const [load, setLoad] = useState<PickerLoad>({ state: "loading" });
  const [lastError, setLastError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  // The log session and the deployments it follows: a dashboard is drawn only over its own.
  const [opened, setOpened] = useState<{ key: string; session: LogSession } | undefined>();
  const { sources } = props;

  // The picker's list, loaded each time the picker is shown (and again on r).
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks for a reload
  useEffect(() => {
    if (!picking) return;
    const controller = new AbortController();
    setLoad({ state: "loading" });
    sources.listDeployments(controller.signal).then(
      (choices) => {
        if (controller.signal.aborted) return;
        setLastError(undefined);
        setLoad({ state: "loaded", choices });
      },
      (err) => {
        if (controller.signal.aborted) return;
        setLastError(err);
        setLoad({ state: "failed", error: describeError(err) });
      },
    );
    return () => controller.abort();
  }, [picking, sources, attempt]);

  // A log session for the deployment watched; the title learns its app's name.
  const watchingKey = watching?.ids.join(",");
  const nameUnknown = useRef(false);
  nameUnknown.current = watching !== undefined && watching.deployment === undefined;
  const watchRef = useRef<DeploymentWatch | undefined>(undefined);
  watchRef.current = watching?.watch;
  useEffect(() => {
    if (!watchingKey) return;
    const ids = watchingKey.split(",");
    const s = sources.openLogs(ids, watchRef.current);
    s.start();
    setOpened({ key: watchingKey, session: s });
    const controller = new AbortController();
    const [only] = ids;
    if (nameUnknown.current && ids.length === 1 && only !== undefined) {
      void sources.describeDeployment(only, controller.signal).then((d) => {
        if (d && !controller.signal.aborted) {
          setWatching((w) =>
            w && w.ids.length === 1 && w.ids[0] === d.deploymentId ? { ...w, deployment: d } : w,
          );
        }
      });
    }
    return () => {
      controller.abort();
      void s.stop();
      setOpened(undefined);
    };
  }, [watchingKey, sources]);

  const shown: ShownScope | undefined = watching
    ? { ids: watching.ids, watchLabel: watching.watchLabel, deployment: watching.deployment }
    : undefined;
  const picker = (width: number, rows: number) => (
    <DeploymentPicker
      load={load}
      over={shown}
      width={width}
      rows={rows}
      onPick={(row) => {
        const outcome = pickOutcome(shown, row);
        // The scope shown now: back to the dashboard as it is. Another: watched afresh.
        if (outcome.type === "watch") {
          setWatching({ ids: [outcome.choice.deploymentId], deployment: outcome.choice });
        }
        setPicking(false);
      }}
      onBack={() => setPicking(false)}
      onQuit={() => props.onExit(lastError === undefined ? {} : { error: lastError })}
      onRetry={() => setAttempt((a) => a + 1)}
    />
  );
  if (!watching) {
    return (
      <ColourContext.Provider value={props.colour}>
        {picker(size.columns, size.rows)}
      </ColourContext.Provider>
    );
  }
  const session = opened && opened.key === watchingKey ? opened.session : undefined;
  if (!session) return null;
  return (
    <Dashboard
      key={watchingKey}
      store={session.store}
      follower={session.follower}
      replicaActivity={session.replicas}
      feeds={sources.feeds}
      deploymentId={watching.ids[0] ?? ""}
      deployment={watching.deployment}
      title={props.title}
      colour={props.colour}
      onQuit={() => props.onExit({})}
      onPicker={() => setPicking(true)}
      picker={picking ? picker : undefined}
      voting={sources.voting}
      bell={props.bell}
      clipboard={props.clipboard}
    />
  );
}
