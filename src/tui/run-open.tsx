/**
 * Runs the dashboard full screen over saved logs (`tvcwatch open`): the log pane alone, nothing
 * followed over the network; the title names the files, their lines and time range as they are
 * read; a saved view's filters are restored and said. Keys come from `keys` (the terminal, which
 * is /dev/tty when standard input is the log being read). Restores the terminal on exit.
 */
import type { ReadStream } from "node:tty";
import { render } from "ink";
import { MarkedLog } from "../logs/saved/marked-log.js";
import type { OpenedLogs } from "../logs/saved/open-saved.js";
import type { SavedHeader } from "../logs/saved/saved-header.js";
import { Dashboard } from "./components/dashboard.js";
import { DashboardController } from "./controller/dashboard-controller.js";
import type { Heading } from "./controller/dashboard-title.js";
import { savedLogs } from "./controller/ports.js";
import { headerNotice, restoredState, savedTitle } from "./saved-title.js";
import { enterFullScreen, osc52 } from "./terminal-session.js";

export interface OpenRun {
  opened: OpenedLogs;
  /** Where keys are read: a terminal. */
  keys: ReadStream;
  colour: boolean;
  /** `c` copies with OSC 52 (--clipboard); off: shown to select. */
  clipboard?: boolean | undefined;
}

/** Resolves when the person quits. */
export async function runOpen(run: OpenRun): Promise<void> {
  const { log } = run.opened;
  let finish: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const heading = (): Heading => ({
    kind: "named",
    name: savedTitle(log.summary(), run.opened.followed),
    deploymentId: log.header()?.deploymentId ?? (log.streams.deployments().join(",") || undefined),
  });
  let header = log.header();
  // The lines with each replica's lifecycle markers among them, and its counts and sparkline.
  const marked = new MarkedLog(log);
  const session = enterFullScreen(process.stdout, () => finish());
  const controller = new DashboardController(
    {
      logs: savedLogs(marked, marked, log, () => marked.replicaNumbers()),
      clipboard: run.clipboard ? (text) => process.stdout.write(osc52(text)) : undefined,
      quit: () => finish(),
    },
    {
      heading: heading(),
      size: { columns: process.stdout.columns || 100, rows: process.stdout.rows || 30 },
      initialState: header?.filters ? restoredState(header.filters) : undefined,
    },
  );
  const notice = header && headerNotice(header);
  if (notice) controller.say(notice);
  let notesSaid = log.summary().notes.length;
  const stopTitle = log.subscribe(() => {
    controller.retitle(heading());
    if (!header && log.header()) {
      // A stream's header comes with its first lines.
      header = log.header() as SavedHeader;
      if (header.filters) controller.restore(restoredState(header.filters));
      const said = headerNotice(header);
      if (said) controller.say(said);
    }
    const notes = log.summary().notes;
    if (notes.length > notesSaid) controller.say(notes.slice(notesSaid).join(" · "));
    notesSaid = notes.length;
  });
  // While the start of a large file is indexed behind its end, the title says how far it is.
  const progress = setInterval(() => {
    if (log.summary().complete) clearInterval(progress);
    controller.retitle(heading());
  }, 250);
  controller.start();
  const ink = render(<Dashboard controller={controller} colour={run.colour} />, {
    stdin: run.keys,
    exitOnCtrlC: false,
    maxFps: 30,
    patchConsole: true,
  });
  try {
    await exited;
  } finally {
    stopTitle();
    clearInterval(progress);
    marked.close();
    controller.stop();
    ink.unmount();
    ink.cleanup();
    session.restore();
    run.opened.close();
  }
}
