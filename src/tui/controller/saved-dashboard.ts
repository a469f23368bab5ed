/**
 * The dashboard over saved logs (`tvcwatch open`), without React: a DashboardController on the
 * lines read (with each replica's lifecycle markers among them, its counts and sparkline:
 * src/logs/saved/marked-log.ts), the title naming the files, their lines and time range as they
 * are read (and how far indexing is), a saved view's filters restored and said in the status
 * line (also when a stream's header comes after the dashboard opened), what is still followed
 * (standard input, --follow) in the status line and `i` until it ends, and what reading said
 * (a stream ended, a file cut) said there too. A ticket bundle's incident (its side panes'
 * records, read by src/tui/saving/ticket-bundle.ts) fills the same side panes, read-only (`A`
 * and `R` say why), with what its activities sign decoded in their detail as live; its marks
 * are put back on their lines, and `i` lists what the panes saw happen and `!`'s finding as
 * recorded. Tested without a terminal.
 */

import { IntentDecoder } from "../../activity/decode/intent-decoder.js";
import type { Activity, EmailEvent, SolTransaction } from "../../api/schemas.js";
import type { Feeds } from "../../feeds/feeds.js";
import { Poller } from "../../feeds/poller.js";
import type { LogRows } from "../../logs/model/log-store.js";
import { MarkedLog } from "../../logs/saved/marked-log.js";
import type { OpenedLogs } from "../../logs/saved/open-saved.js";
import type { SavedFilters, SavedHeader } from "../../logs/saved/saved-header.js";
import {
  checkNotice,
  followedNow,
  headerNotice,
  restoredState,
  savedTitle,
} from "../saving/saved-title.js";
import type { SavedIncident, SavedLineRef } from "../saving/ticket-bundle.js";
import type { UiState } from "../state/ui-state.js";
import { DashboardController } from "./dashboard-controller.js";
import type { Heading } from "./dashboard-title.js";
import type { TerminalSize } from "./dashboard-views.js";
import { type FileSink, savedLogs, systemTicker, type Ticker } from "./ports.js";

export interface SavedDashboardPorts {
  clipboard?: ((text: string) => void) | undefined;
  files?: FileSink | undefined;
  clock?: Ticker | undefined;
  quit: () => void;
}

export interface SavedDashboard {
  controller: DashboardController;
  /** Stops the controller and what follows the log (the files stay open: the caller's). */
  stop(): void;
}

/**
 * The state a saved view opens in: the filters its header recorded, and the field queries given
 * on the command line (`open --where`) after those it recorded.
 */
function openingState(
  filters: SavedFilters | undefined,
  given: OpeningFlags,
): Partial<UiState> | undefined {
  const where = given.where ?? [];
  const range = {
    ...(given.timeRange ? { timeRange: given.timeRange } : {}),
    ...(given.columns ? { columns: given.columns } : {}),
  };
  if (!filters && where.length === 0) return given.timeRange || given.columns ? range : undefined;
  const restored = filters ? restoredState(filters) : {};
  const recorded = filters?.where ?? [];
  return {
    ...restored,
    ...range,
    where: [...recorded, ...where.filter((q) => !recorded.includes(q))],
  };
}

/** What the command line opens the view with (`open --where`, `--since`, `--until`, `--fields`). */
export interface OpeningFlags {
  where?: readonly string[] | undefined;
  timeRange?: UiState["timeRange"];
  columns?: UiState["columns"];
}

/** What `A` and `R` say over a bundle's activities. */
export const BUNDLE_READ_ONLY = "a saved bundle is read-only";

/** A pane's records as a feed that never polls: the bundle's, as of when it was saved. */
function savedFeed<T>(data: T, at: number): Poller<T> {
  const feed = new Poller<T>({ intervalMs: 60_000, fetch: async () => data });
  feed.store.succeed(data, at, 0);
  return feed;
}

/** The side panes of a bundle's incident (empty panes for those it has no records of). */
function incidentFeeds(incident: SavedIncident, savedAt: number): Feeds {
  return {
    activities: savedFeed<Activity[]>(incident.activities, savedAt),
    email: savedFeed<EmailEvent[]>(incident.email ?? [], savedAt),
    solana: savedFeed<Map<string, SolTransaction[]>>(incident.solana ?? new Map(), savedAt),
  };
}

/** How many rows with the same time a marked line is looked for among. */
const MARK_LOOKAHEAD = 256;

/** The row ids of the saved lines a bundle marked (by time, replica and text), those found. */
function markedRows(store: LogRows, marks: readonly SavedLineRef[]): number[] {
  const ids: number[] = [];
  for (const m of marks) {
    const from = store.firstAtOrAfter(m.at);
    for (let i = from; i < Math.min(store.size(), from + MARK_LOOKAHEAD); i++) {
      const e = store.at(i)?.event;
      // `at` is to the millisecond; a sort key may have a fraction of one.
      if (!e || e.sortKey >= m.at + 1) break;
      if (
        e.kind === "line" &&
        e.replicaLabel === m.replicaLabel &&
        e.content.startsWith(m.content)
      ) {
        ids.push(store.at(i)?.id as number);
        break;
      }
    }
  }
  return ids;
}

/** A bundle's incident as read (undefined: none could be), and what in it could not be. */
export interface BundleIncident {
  incident: SavedIncident | undefined;
  problems: string[];
}

/**
 * The incident of the bundle whose header this is (undefined: not a bundle), read once and
 * everything in it checked. Its reader (and zod, the schemas it checks with) is loaded only here,
 * so that a plain file's first screen waits for neither.
 */
export async function readBundleIncident(
  header: SavedHeader | undefined,
): Promise<BundleIncident | undefined> {
  if (!header?.bundle) return undefined;
  const { readIncident } = await import("../saving/ticket-bundle.js");
  const problems: string[] = [];
  return { incident: readIncident(header.incident, problems), problems };
}

/**
 * The controller's clock with `before` run just before one of its timers' ticks, so that what it
 * changes is drawn in that tick's frame: the oldest timer still running (the controller's first),
 * never each of several, so that a second timer adds no call (nor frame) of its own; once that
 * timer stops, the next oldest carries it.
 */
export function progressTicker(ticker: Ticker, before: () => void): Ticker {
  const running: object[] = [];
  return {
    now: () => ticker.now(),
    every(ms, tick) {
      const timer = {};
      running.push(timer);
      const stop = ticker.every(ms, () => {
        if (running[0] === timer) before();
        tick();
      });
      return () => {
        const at = running.indexOf(timer);
        if (at >= 0) running.splice(at, 1);
        stop();
      };
    },
  };
}

export function savedDashboard(
  opened: OpenedLogs,
  ports: SavedDashboardPorts,
  size: TerminalSize,
  /** Field queries and a range the view opens with (`open --where`, `--since`), checked by the caller. */
  given: OpeningFlags = {},
  /** The bundle's incident, when the logs are a bundle: readBundleIncident() of their header. */
  bundle: BundleIncident | undefined = undefined,
): SavedDashboard {
  const { log } = opened;
  const heading = (): Heading => ({
    kind: "named",
    name: savedTitle(log.summary(), opened.followed),
    deploymentId: log.header()?.deploymentId ?? (log.streams.deployments().join(",") || undefined),
  });
  let header = log.header();
  const marked = new MarkedLog(log);
  // A bundle's incident (what in it could not be read is said).
  const incidentProblems = bundle?.problems ?? [];
  const incident = bundle?.incident;
  const about = {
    summary: () => log.summary(),
    header: () => log.header(),
    following: () => followedNow(log.summary(), opened.followed),
    headerCheck: () => log.headerCheck(),
    incident: () => incident,
  };
  const savedAt = header?.savedAt === undefined ? Number.NaN : Date.parse(header.savedAt);
  // While the start of a large file is indexed behind its end, the title says how far it is: at
  // the controller's own tick, just before it, so that both make one frame.
  let progress = () => {};
  const clock = progressTicker(ports.clock ?? systemTicker, () => progress());
  const controller = new DashboardController(
    {
      logs: savedLogs(marked, marked, about, () => marked.replicaNumbers()),
      ...ports,
      clock,
      ...(incident
        ? {
            feeds: incidentFeeds(incident, Number.isFinite(savedAt) ? savedAt : Date.now()),
            readOnly: BUNDLE_READ_ONLY,
            // What its activities sign, decoded as live; no API here, so no stored ABI or IDL.
            decoder: new IntentDecoder(),
          }
        : {}),
    },
    {
      heading: heading(),
      size,
      initialState: openingState(header?.filters, given),
    },
  );
  // The bundle's marks back on their lines once those are read (a large file: when indexed).
  let marksDone = !incident || incident.marks.length === 0;
  const restoreMarks = () => {
    if (marksDone || !incident) return;
    const ids = markedRows(marked, incident.marks);
    if (ids.length === incident.marks.length || log.summary().complete) marksDone = true;
    const marks = [...new Set([...controller.state.marks, ...ids])];
    if (marks.length > controller.state.marks.length) controller.restore({ marks });
  };
  restoreMarks();
  const notice = [
    header && headerNotice(header),
    incidentProblems.length > 0
      ? `bundle records not read in part: ${incidentProblems.join("; ")}`
      : undefined,
  ]
    .filter((n): n is string => n !== undefined)
    .join(" · ");
  // Where the header's claims and the lines disagree, said once, when its file is read whole.
  let checkSaid = false;
  const sayCheck = (): string | undefined => {
    if (checkSaid) return undefined;
    const check = log.headerCheck();
    if (!check) return undefined;
    checkSaid = true;
    return checkNotice(check);
  };
  const first = [notice || undefined, sayCheck()].filter((n): n is string => n !== undefined);
  if (first.length > 0) controller.say(first.join(" · "));
  let notesSaid = log.summary().notes.length;
  const stopFollowing = log.subscribe(() => {
    restoreMarks();
    const check = sayCheck();
    if (check) controller.say(check);
    controller.retitle(heading());
    if (!header && log.header()) {
      // A stream's header comes with its first lines.
      header = log.header() as SavedHeader;
      const state = openingState(header.filters, given);
      if (header.filters && state) controller.restore(state);
      const said = headerNotice(header);
      if (said) controller.say(said);
    }
    const notes = log.summary().notes;
    if (notes.length > notesSaid) controller.say(notes.slice(notesSaid).join(" · "));
    notesSaid = notes.length;
  });
  progress = () => {
    if (!log.summary().complete) controller.retitle(heading());
  };
  controller.start();
  return {
    controller,
    stop() {
      stopFollowing();
      marked.close();
      controller.stop();
    },
  };
}
