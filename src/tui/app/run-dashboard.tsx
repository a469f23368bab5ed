/** Runs the dashboard app full screen on what the CLI wired, and restores the terminal on exit. */
import { render } from "ink";
import type { DashboardSources, DeploymentWatch } from "../../feeds/dashboard-sources.js";
import { startFeeds } from "../../feeds/feeds.js";
import { DashboardApp } from "../components/dashboard-app.js";
import { AppController, type AppExit } from "../controller/app-controller.js";
import { enterFullScreen, osc52 } from "./terminal-session.js";

export interface DashboardRun {
  sources: DashboardSources;
  /** The deployments to watch (several: merged); none: the app starts at the picker. */
  deploymentIds?: readonly string[] | undefined;
  /** `--app` / `--all`: list the deployments again while watching them. */
  watch?: DeploymentWatch | undefined;
  /** Said in the title before the deployment ("demo (simulated) · "). */
  title?: string | undefined;
  colour: boolean;
  /** Ring the terminal bell when activities newly await votes (--bell, the default). */
  bell: boolean;
  /** `c` copies to the terminal's clipboard with OSC 52 (--clipboard); off: shown to select. */
  clipboard?: boolean | undefined;
}

/** Resolves when the user quits: with the error that made the picker fail, if it did. */
export async function runDashboard(run: DashboardRun): Promise<AppExit> {
  let finish: (exit: AppExit) => void = () => {};
  const exited = new Promise<AppExit>((resolve) => {
    finish = resolve;
  });
  const session = enterFullScreen(process.stdout, () => finish({}));
  const stopFeeds = startFeeds(run.sources.feeds);
  const app = new AppController(
    {
      sources: run.sources,
      bell: run.bell ? () => process.stdout.write("\u0007") : undefined,
      clipboard: run.clipboard ? (text) => process.stdout.write(osc52(text)) : undefined,
      exit: (exit) => finish(exit),
    },
    {
      deploymentIds: run.deploymentIds,
      watch: run.watch,
      title: run.title,
      size: { columns: process.stdout.columns || 100, rows: process.stdout.rows || 30 },
    },
  );
  app.start();
  const ink = render(<DashboardApp app={app} colour={run.colour} />, {
    exitOnCtrlC: false,
    maxFps: 30,
    patchConsole: true,
  });
  try {
    return await exited;
  } finally {
    stopFeeds();
    ink.unmount();
    ink.cleanup();
    session.restore();
    await app.stop();
  }
}
