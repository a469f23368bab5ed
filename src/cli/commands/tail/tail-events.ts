/**
 * `tail --events`: the side panes' events (src/logs/model/pane-event.ts) printed among the lines
 * in time order. The sources are the dashboard's pollers (src/feeds/feeds.ts: activities every
 * --interval, email events and Solana transactions every two; src/feeds/deployment-health.ts:
 * the deployment's app status every two), read into events once each
 * (src/feeds/pane-event-feed.ts). A source not configured (no --email, no --sol-address) is not
 * polled and nothing is said for it.
 *
 * Order: a line is let out once every source has answered a poll made after its time, so the
 * events before it are out first, and an event once the follow has handed on a line after it; a source that does not answer holds lines back at most
 * MAX_HOLD_MS, and at most MAX_HELD lines are held. An event older than lines already printed
 * (a status change a poll sees late) is printed when seen. Events outside the window of lines
 * (before --since, after --until) are not printed. The filters (--grep, --exclude, --where,
 * --level) judge events as they judge lines; an event's text goes through the one sanitizer.
 */
import type { TurnkeyClient } from "../../../api/client.js";
import { DeploymentHealthFeed } from "../../../feeds/deployment-health.js";
import type { FeedStore } from "../../../feeds/feed-store.js";
import { createFeeds, type Feeds, startFeeds } from "../../../feeds/feeds.js";
import { PaneEventFeed } from "../../../feeds/pane-event-feed.js";
import type { LineFilter } from "../../../logs/line-filter.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { EVENT_GLYPHS, eventLevel, type PaneEvent } from "../../../logs/model/pane-event.js";
import type { RequestLimit } from "../../../tail/request-limit.js";
import { safe } from "../../../text/safe-text.js";
import { stringifyForTerminal } from "../../../text/terminal-json.js";
import { formatMsRfc3339, msToUtcRfc3339 } from "../../../text/timestamp.js";

/** The longest a line waits for a source that does not answer. */
export const MAX_HOLD_MS = 15_000;
/** The most lines held back for the sources. */
export const MAX_HELD = 50_000;

/** An event as `tail` prints it: `◆ TIME text`, or a JSON record with its `kind`. */
export function formatPaneEvent(e: PaneEvent, output: "text" | "json", utc: boolean): string {
  if (output === "json") {
    return `{"event":"pane_event","kind":${stringifyForTerminal(e.kind)},"time":${stringifyForTerminal(msToUtcRfc3339(e.at) ?? null)},"level":"${eventLevel(e)}","text":${stringifyForTerminal(e.text)},"fields":${stringifyForTerminal(e.fields)}}`;
  }
  return `${EVENT_GLYPHS[e.kind]} ${formatMsRfc3339(e.at, utc)} ${safe(e.text)}`;
}

export interface TailEventOptions {
  client: TurnkeyClient;
  deploymentId: string;
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  intervalMs: number;
  /** The follow's one limit on requests in flight. */
  limit: RequestLimit;
  /** The window of lines (epoch ms): events outside it are not printed. */
  fromMs: number;
  untilMs: number | undefined;
  /** The filters the lines go through. */
  filter: LineFilter;
  /** Lines, in order, to where tail prints them. */
  handOn: (batch: LogEvent[]) => void;
  /** One event's printed line. */
  print: (line: string) => void;
  output: "text" | "json";
  utc: boolean;
  /** This machine's clock (epoch ms). */
  now?: () => number;
}

/** The sources polled for `tail --events` and the stage that lets lines and events out in order. */
export class TailEvents {
  private readonly feeds: Feeds;
  private readonly health: DeploymentHealthFeed;
  private readonly stores: FeedStore<unknown>[];
  private readonly feed: PaneEventFeed;
  private readonly now: () => number;
  private held: LogEvent[] = [];
  private events: PaneEvent[] = [];
  private appId: string | undefined;
  private stopFeeds: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  private readonly detach: (() => void)[] = [];
  /** When the sources were first asked (this machine's clock). */
  private readonly startedAt: number;
  /** A window without -f: everything is held until every source has answered once. */
  private holding = false;
  /**
   * Up to where the follow has handed lines on (it hands them in order): a newer event waits for
   * the lines before it, at most MAX_HOLD_MS.
   */
  private linesUpTo = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: TailEventOptions) {
    this.now = o.now ?? Date.now;
    this.startedAt = this.now();
    this.feeds = createFeeds(o.client, {
      intervalMs: o.intervalMs,
      emails: o.emails,
      solanaAddresses: o.solanaAddresses,
      caip2: o.caip2,
    });
    this.health = new DeploymentHealthFeed({
      client: o.client,
      apps: () => (this.appId ? [this.appId] : []),
      intervalMs: Math.max(1000, o.intervalMs) * 2,
      limit: o.limit,
    });
    this.stores = [
      this.feeds.activities.store,
      this.feeds.email?.store,
      this.feeds.solana?.store,
      this.health.store,
    ].filter((s): s is FeedStore<never> => s !== undefined);
    this.feed = new PaneEventFeed({
      activities: this.feeds.activities.store,
      email: this.feeds.email?.store,
      solana: this.feeds.solana?.store,
      health: this.health.store,
    });
  }

  /** Lines from the follower: held until the sources have answered past them. */
  readonly lines = (batch: LogEvent[]): void => {
    const last = batch.at(-1);
    if (last) this.linesUpTo = Math.max(this.linesUpTo, last.sortKey);
    this.held.push(...batch);
    this.release();
  };

  /** Starts polling the sources (the deployment's app read once, for its health). */
  start(): void {
    this.unwatch = this.feed.watch((batch) => this.take(batch));
    for (const s of this.stores) this.detach.push(s.subscribe(() => this.release()));
    this.stopFeeds = startFeeds(this.feeds);
    void this.readApp().then(() => this.health.start());
  }

  /** One poll of each source now (a window without -f), then everything held let out. */
  async once(): Promise<void> {
    this.holding = true;
    this.unwatch = this.feed.watch((batch) => this.take(batch));
    await this.readApp();
    await Promise.all([
      this.feeds.activities.pollOnce(),
      this.feeds.email?.pollOnce(),
      this.feeds.solana?.pollOnce(),
      this.appId ? this.health.pollOnce() : undefined,
    ]);
  }

  /** Stops polling and lets out everything held, in order. */
  finish(): void {
    this.holding = false;
    this.stopFeeds?.();
    this.health.stop();
    this.unwatch?.();
    for (const d of this.detach.splice(0)) d();
    this.out(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  }

  private async readApp(): Promise<void> {
    try {
      const { tvcDeployment } = await this.o.client.call("get_tvc_deployment", {
        deploymentId: this.o.deploymentId,
      });
      this.appId = tvcDeployment.appId || undefined;
    } catch {
      // The log follow says what is wrong with the deployment; its health is then not printed.
    }
  }

  private take(batch: readonly PaneEvent[]): void {
    const { fromMs, untilMs, filter } = this.o;
    const kept = batch.filter(
      (e) =>
        e.at >= fromMs &&
        (untilMs === undefined || e.at <= untilMs) &&
        filter.keepsRecord(e.text, { ...e.fields, kind: e.kind }, eventLevel(e)),
    );
    if (kept.length === 0) return;
    this.events.push(...kept);
    this.events.sort((a, b) => a.at - b.at);
    this.release();
  }

  /**
   * Up to where every source has answered: the oldest of their last answers (this machine's
   * clock), no further back than MAX_HOLD_MS; a source that never answered holds lines that long.
   */
  private watermark(): number {
    const now = this.now();
    let upTo = now;
    for (const s of this.stores) {
      const at = s.getSnapshot().lastUpdated;
      upTo = Math.min(upTo, at ?? Number.NEGATIVE_INFINITY);
    }
    // Waited for MAX_HOLD_MS since the start, or since the source last answered.
    return now - this.startedAt >= MAX_HOLD_MS ? Math.max(upTo, now - MAX_HOLD_MS) : upTo;
  }

  private release(): void {
    if (this.holding) return;
    let upTo = this.watermark();
    // Bounded: past MAX_HELD lines, the oldest go out whatever the sources say.
    if (this.held.length > MAX_HELD) {
      const at = this.held[this.held.length - MAX_HELD - 1]?.sortKey ?? upTo;
      upTo = Math.max(upTo, at);
    }
    if (this.events.length > MAX_HELD) {
      const at = this.events[this.events.length - MAX_HELD - 1]?.at ?? upTo;
      upTo = Math.max(upTo, at);
    }
    this.out(upTo, Math.max(this.linesUpTo, this.now() - MAX_HOLD_MS));
  }

  /**
   * Lines up to `upTo` and events up to `upTo` and `eventsUpTo`, merged in time order (an event
   * before a line of its time).
   */
  private out(upTo: number, eventsUpTo: number): void {
    let l = 0;
    let e = 0;
    let run: LogEvent[] = [];
    const flush = () => {
      if (run.length > 0) this.o.handOn(run);
      run = [];
    };
    for (;;) {
      const line = this.held[l];
      const event = this.events[e];
      const lineDue = line !== undefined && line.sortKey <= upTo;
      const eventDue = event !== undefined && event.at <= upTo && event.at <= eventsUpTo;
      if (eventDue && (!lineDue || event.at <= (line as LogEvent).sortKey)) {
        flush();
        this.o.print(formatPaneEvent(event, this.o.output, this.o.utc));
        e++;
      } else if (lineDue) {
        run.push(line);
        l++;
      } else break;
    }
    flush();
    if (l > 0) this.held = this.held.slice(l);
    if (e > 0) this.events = this.events.slice(e);
  }
}
