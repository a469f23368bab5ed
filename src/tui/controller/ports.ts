/**
 * What the dashboard controller works through, each an interface a test fakes: the log it shows
 * (a live follow, or saved lines with nothing followed), the side panes' feeds, voting, the
 * clipboard, the file `S` writes, the clock, the bell, and the app around it (the picker,
 * quitting). Absent ports are features absent: no feeds, no side panes; no voting, `A` and `R`
 * say so; no follow, `r` and `i` say there is none.
 */
import type { IntentDecoder } from "../../activity/decode/intent-decoder.js";
import { writeNewFile } from "../../config/atomic-file.js";
import type { ActivityVoting, LogSession } from "../../feeds/dashboard-sources.js";
import type { DeploymentHealthFeed } from "../../feeds/deployment-health.js";
import type { Feeds } from "../../feeds/feeds.js";
import type { LogRows, LogStore } from "../../logs/model/log-store.js";
import type { ReplicaSnapshots } from "../../logs/model/replica-activity.js";
import type { FollowSource } from "../../tail/follower-group.js";
import type { SavedAbout } from "../panes/follower-detail.js";
import type { RestingTimes } from "../panes/pane-clock.js";

/** The lines the dashboard shows, and what brings them. */
/** What every log the dashboard shows has, followed or saved. */
interface LogSourceParts {
  /** Each replica's counts, sparkline and lifecycle; absent: no sparkline strip. */
  replicas?: ReplicaSnapshots | undefined;
  /**
   * The replica numbers among the lines, when the log knows them without reading its rows (saved
   * lines: from their index); absent, the dashboard reads the rows appended since it last looked.
   */
  replicaNumbers?: (() => ReadonlySet<number>) | undefined;
  /** Saved lines: their files and header, for `i`. */
  saved?: SavedAbout | undefined;
  /**
   * How the side panes show a record's time while the log shows none (`T` off): ages from now
   * beside a live log, the local time of day beside saved lines. Absent: ages.
   */
  paneTimes?: RestingTimes | undefined;
}

/**
 * The lines the dashboard shows: a live store with the follow polling for new lines (its phase
 * and figures in the status line and `i`, `r` retries it now, an outage's marker appended to the
 * store), or rows read from saved files with nothing followed.
 */
export type LogSource =
  | (LogSourceParts & {
      store: LogStore;
      follow: FollowSource;
      /** The followed deployments' health (get_app_status); absent: not polled. */
      health?: DeploymentHealthFeed | undefined;
    })
  | (LogSourceParts & { store: LogRows; follow?: undefined; health?: undefined });

/** A live log session (src/feeds/dashboard-sources.ts) as the dashboard's log source. */
export function followedLogs(
  session: Pick<LogSession, "store" | "follower" | "replicas" | "health">,
) {
  return {
    store: session.store,
    follow: session.follower,
    replicas: session.replicas,
    health: session.health,
    paneTimes: "age",
  } satisfies LogSource;
}

/** Saved lines in a store, nothing followed (`tvcwatch open FILE`). */
export function savedLogs(
  store: LogRows,
  replicas?: ReplicaSnapshots,
  saved?: SavedAbout,
  replicaNumbers?: () => ReadonlySet<number>,
): LogSource {
  return { store, replicas, saved, replicaNumbers, paneTimes: "absolute" };
}

/** Where `S` writes: a new file, never one that exists. */
export interface FileSink {
  /** Rejects (or throws) with the error's `code` EEXIST when the name is taken. */
  writeNew(path: string, text: string): void | Promise<void>;
}

/** The one way to write a file (src/config/atomic-file.ts): new, mode 0600, never overwriting. */
export const newFiles: FileSink = { writeNew: (path, text) => writeNewFile(path, text) };

/** Wall-clock time, and a tick for what moves with it (ages, countdowns, relative times). */
export interface Ticker {
  now(): number;
  /** Calls `tick` every `ms`; the function returned stops it. */
  every(ms: number, tick: () => void): () => void;
}

export const systemTicker: Ticker = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

export interface DashboardPorts {
  logs: LogSource;
  /** The side panes' pollers; absent: no side panes (saved lines). */
  feeds?: Feeds | undefined;
  /** Approving and rejecting (`A`, `R`); absent: the keys say it is not available. */
  voting?: ActivityVoting | undefined;
  /**
   * Why the records shown cannot be acted on (a saved bundle's panes): `A` and `R` say it.
   * Absent: they act through `voting`.
   */
  readOnly?: string | undefined;
  /** What activities ask to sign, decoded; absent: the detail and confirmation show the intent. */
  decoder?: IntentDecoder | undefined;
  /** Puts text on the terminal's clipboard (OSC 52, --clipboard); absent: `c` shows the line. */
  clipboard?: ((text: string) => void) | undefined;
  /** Where `S` writes; by default a new file (atomic-file.ts). */
  files?: FileSink | undefined;
  /** By default the system's clock and timers. */
  clock?: Ticker | undefined;
  /** Rings the terminal bell: once for each poll that brings activities newly awaiting votes. */
  bell?: (() => void) | undefined;
  /** `D`: the deployment picker over the dashboard; absent, `D` says there is none. */
  picker?: (() => void) | undefined;
  quit: () => void;
}
