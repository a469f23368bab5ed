/** Wires the dashboard: follower and store, side-pane pollers, full screen, and a clean exit. */
import { render } from "ink";
import type { TurnkeyClient } from "../api/client.js";
import type { DeploymentChoice } from "../feeds/deployment-list.js";
import { createFeeds, startFeeds } from "../feeds/feeds.js";
import { FollowerStopError, LogFollower } from "../tail/follower.js";
import { LogStore } from "../tail/log-store.js";
import { Dashboard } from "./components/dashboard.js";
import { DeploymentPicker } from "./components/deployment-picker.js";
import { enterFullScreen } from "./terminal-session.js";

export interface DashboardRun {
  client: TurnkeyClient;
  deploymentId: string;
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  sinceMs: number;
  intervalMs: number;
  bufferLines: number;
  title?: string;
}

export async function runDashboard(run: DashboardRun): Promise<void> {
  const store = new LogStore({ maxLines: run.bufferLines });
  const follower = new LogFollower({
    fetchLogs: (request, options) =>
      run.client.callWithMeta(
        "get_tvc_deployment_debug_logs",
        { deploymentId: run.deploymentId, ...request },
        options,
      ),
    intervalMs: run.intervalMs,
    sinceMs: run.sinceMs,
  });
  follower.onEvents((events) => store.append(events));
  const feeds = createFeeds(run.client, {
    intervalMs: run.intervalMs,
    emails: run.emails,
    solanaAddresses: run.solanaAddresses,
    caip2: run.caip2,
  });
  const controller = new AbortController();
  let resolveQuit: () => void = () => {};
  const quit = new Promise<void>((r) => {
    resolveQuit = r;
  });
  const session = enterFullScreen(process.stdout, () => resolveQuit());
  const stopFeeds = startFeeds(feeds);
  const following = follower.run(controller.signal, true).catch((err) => {
    // The dashboard shows the failure in its status line; the follow ends.
    if (!(err instanceof FollowerStopError)) throw err;
  });
  const app = render(
    <Dashboard
      store={store}
      follower={follower}
      feeds={feeds}
      deploymentId={run.deploymentId}
      title={run.title}
      onQuit={() => resolveQuit()}
    />,
    { exitOnCtrlC: false, maxFps: 30, patchConsole: true },
  );
  try {
    await quit;
  } finally {
    controller.abort();
    stopFeeds();
    app.unmount();
    app.cleanup();
    session.restore();
  }
  await following;
}

/** Shows the picker full screen; resolves with the chosen deployment, or undefined on quit. */
export async function pickDeployment(
  choices: DeploymentChoice[],
): Promise<DeploymentChoice | undefined> {
  let done: (c: DeploymentChoice | undefined) => void = () => {};
  const picked = new Promise<DeploymentChoice | undefined>((r) => {
    done = r;
  });
  const session = enterFullScreen(process.stdout, () => done(undefined));
  const app = render(
    <DeploymentPicker
      choices={choices}
      onPick={(c) => done(c)}
      onQuit={() => done(undefined)}
      rows={process.stdout.rows ?? 24}
    />,
    {
      exitOnCtrlC: false,
    },
  );
  try {
    return await picked;
  } finally {
    app.unmount();
    app.cleanup();
    session.restore();
  }
}
