/**
 * The one way component tests draw the dashboard: a controller over a store, a follower and the
 * side panes' feeds (./fixtures.ts, or what the test gives), fake ports where the test needs
 * them (voting, the clipboard, the file sink, the bell, the picker), a clock stopped at NOW, and
 * the component rendered: through ink-testing-library (100 columns, 30 rows) when no size is
 * given, else at that size (./render-at.ts). `type` presses keys and waits for the frame to
 * settle; `waitForFrame` waits for a frame that satisfies the whole assertion. `renderApp` draws
 * the picker and the dashboard together, as `tvcwatch watch` runs them.
 */
import { render as inkRender } from "ink-testing-library";
import { vi } from "vitest";
import type { IntentDecoder } from "../../src/activity/decode/intent-decoder.js";
import type { ActivityVoting, DashboardSources } from "../../src/feeds/dashboard-sources.js";
import type { DeploymentChoice } from "../../src/feeds/deployment-list.js";
import type { Feeds } from "../../src/feeds/feeds.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import type { LogStore } from "../../src/logs/model/log-store.js";
import type { ReplicaSnapshots } from "../../src/logs/model/replica-activity.js";
import { Dashboard } from "../../src/tui/components/dashboard.js";
import { DashboardApp } from "../../src/tui/components/dashboard-app.js";
import { AppController } from "../../src/tui/controller/app-controller.js";
import { DashboardController } from "../../src/tui/controller/dashboard-controller.js";
import type { Heading } from "../../src/tui/controller/dashboard-title.js";
import type { FileSink, LogSource, Ticker } from "../../src/tui/controller/ports.js";
import type { UiState } from "../../src/tui/state/ui-state.js";
import { settle } from "../helpers/settle.js";
import { dashboardParts, NOW } from "./fixtures.js";
import { renderAt } from "./render-at.js";

/** A clock stopped at `now`: ages and countdowns stay put, no timer runs. */
export function stoppedClock(now = NOW): Ticker {
  return { now: () => now, every: () => () => {} };
}

export interface DashboardSetup {
  /** The terminal's size; absent: ink-testing-library's (100 columns, 30 rows). */
  size?: { columns: number; rows: number } | undefined;
  /** What dashboardParts builds (its feeds' activities, email and Solana on or off). */
  parts?: Parameters<typeof dashboardParts>[0];
  /** Lines in the store before the first frame. */
  lines?: readonly LogLine[];
  /** The log source; by default the parts' store and follower. */
  logs?: (parts: Awaited<ReturnType<typeof dashboardParts>>) => LogSource;
  replicas?: ReplicaSnapshots;
  /** The feeds; by default the parts'; null: none (no side panes). */
  feeds?: Feeds | null;
  voting?: ActivityVoting;
  /** Decodes what activities sign (src/activity/decode); absent: nothing is decoded. */
  decoder?: IntentDecoder;
  clipboard?: (text: string) => void;
  files?: FileSink;
  bell?: () => void;
  picker?: () => void;
  heading?: Heading;
  initialState?: Partial<UiState>;
  clock?: Ticker;
  colour?: boolean;
}

export async function renderDashboard(setup: DashboardSetup = {}) {
  const parts = await dashboardParts(setup.parts);
  if (setup.lines) parts.store.append([...setup.lines]);
  const quit = vi.fn();
  const feeds = setup.feeds === null ? undefined : (setup.feeds ?? parts.feeds);
  const size = setup.size;
  const controller = new DashboardController(
    {
      logs: setup.logs?.(parts) ?? {
        store: parts.store,
        follow: parts.follower,
        replicas: setup.replicas,
      },
      feeds,
      voting: setup.voting,
      decoder: setup.decoder,
      clipboard: setup.clipboard,
      files: setup.files,
      bell: setup.bell,
      picker: setup.picker,
      clock: setup.clock ?? stoppedClock(),
      quit,
    },
    {
      heading: setup.heading ?? { kind: "deployments", deploymentId: "dep-1" },
      size: size ?? { columns: 100, rows: 30 },
      initialState: setup.initialState,
    },
  );
  controller.start();
  const element = <Dashboard controller={controller} colour={setup.colour} />;
  const ui = size ? renderAt(element, size) : inkRender(element);
  const frames = ui.frames;
  await settle(frames);
  const frame = () => ui.lastFrame() ?? "";
  return {
    ...parts,
    store: parts.store as LogStore,
    feeds,
    controller,
    ui,
    quit,
    frame,
    /** Presses keys (or types text) and waits for the frame to settle. */
    type: async (keys: string) => {
      ui.stdin.write(keys);
      await settle(frames);
    },
    /** Waits for the frames to settle after something else changed (a store, a feed). */
    settled: () => settle(frames),
    /** Waits (up to 5 s) for a settled frame for which `assert` does not throw. */
    waitForFrame: async (assert: (frame: string) => void) => {
      await vi.waitFor(
        async () => {
          await settle(frames);
          assert(frame());
        },
        { timeout: 5000, interval: 10 },
      );
    },
    unmount: () => {
      ui.unmount();
      controller.stop();
    },
  };
}

/**
 * The whole app (picker and dashboard) over `sources`, at a size: keys go through the app
 * controller as they do in `tvcwatch watch`.
 */
export async function renderApp(setup: {
  sources: DashboardSources;
  deploymentIds?: readonly string[];
  size?: { columns: number; rows: number };
  colour?: boolean;
}) {
  const exit = vi.fn();
  const size = setup.size ?? { columns: 100, rows: 30 };
  const app = new AppController(
    { sources: setup.sources, clock: stoppedClock(), exit },
    { deploymentIds: setup.deploymentIds, size },
  );
  app.start();
  const ui = renderAt(<DashboardApp app={app} colour={setup.colour ?? false} />, size);
  await settle(ui.frames);
  const frame = () => ui.lastFrame() ?? "";
  return {
    app,
    ui,
    exit,
    frame,
    type: async (keys: string) => {
      ui.stdin.write(keys);
      await settle(ui.frames);
    },
    waitForFrame: async (assert: (frame: string) => void) => {
      await vi.waitFor(
        async () => {
          await settle(ui.frames);
          assert(frame());
        },
        { timeout: 5000, interval: 10 },
      );
    },
    unmount: async () => {
      ui.unmount();
      await app.stop();
    },
  };
}

/** Sources for the picker alone: `choices` listed (or the error thrown), no log session. */
export async function pickerSources(
  list: () => Promise<DeploymentChoice[]>,
): Promise<DashboardSources> {
  const parts = await dashboardParts();
  return {
    feeds: parts.feeds,
    voting: { loadContext: () => new Promise(() => {}), vote: () => new Promise(() => {}) },
    listDeployments: list,
    describeDeployment: async () => undefined,
    openLogs: () => {
      throw new Error("the picker alone opens no log session");
    },
  };
}
