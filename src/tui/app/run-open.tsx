/**
 * Runs the dashboard over saved logs (`tvcwatch open`, ./controller/saved-dashboard.ts) full
 * screen: the log pane alone, nothing followed over the network. Keys come from `keys` (the
 * terminal, which is /dev/tty when standard input is the log being read). Restores the terminal
 * on exit.
 */
import type { ReadStream } from "node:tty";
import { render } from "ink";
import type { OpenedLogs } from "../../logs/saved/open-saved.js";
import { Dashboard } from "../components/dashboard.js";
import { readBundleIncident, savedDashboard } from "../controller/saved-dashboard.js";
import type { UiState } from "../state/ui-state.js";
import { enterFullScreen, osc52 } from "./terminal-session.js";

export interface OpenRun {
  opened: OpenedLogs;
  /** Where keys are read: a terminal. */
  keys: ReadStream;
  colour: boolean;
  /** `c` copies with OSC 52 (--clipboard); off: shown to select. */
  clipboard?: boolean | undefined;
  /** Told once the first screen is drawn (the rest of a large file is indexed after it). */
  drawn?: (() => void) | undefined;
  /** Field queries the view opens with (`--where`). */
  where?: readonly string[] | undefined;
  /** The range of times the view opens with (`--since`, `--until`). */
  range?: UiState["timeRange"];
  /** The fields the view opens showing as columns (`--fields`). */
  columns?: readonly string[] | undefined;
}

/** Resolves when the person quits. */
export async function runOpen(run: OpenRun): Promise<void> {
  let finish: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // A bundle's incident read before the screen is taken (its reader loaded only for a bundle).
  const bundle = await readBundleIncident(run.opened.log.header());
  const session = enterFullScreen(process.stdout, () => finish());
  const saved = savedDashboard(
    run.opened,
    {
      clipboard: run.clipboard ? (text) => process.stdout.write(osc52(text)) : undefined,
      quit: () => finish(),
    },
    { columns: process.stdout.columns || 100, rows: process.stdout.rows || 30 },
    { where: run.where, timeRange: run.range, columns: run.columns },
    bundle,
  );
  const controller = saved.controller;
  const ink = render(<Dashboard controller={controller} colour={run.colour} />, {
    stdin: run.keys,
    exitOnCtrlC: false,
    maxFps: 30,
    patchConsole: true,
  });
  // Ink writes the first frame as it renders; one turn of the event loop lets it out.
  setImmediate(() => run.drawn?.());
  try {
    await exited;
  } finally {
    saved.stop();
    ink.unmount();
    ink.cleanup();
    session.restore();
    run.opened.close();
  }
}
