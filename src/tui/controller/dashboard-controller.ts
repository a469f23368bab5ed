/**
 * The dashboard without React: it owns the UI state (the reducer's, the vote's, the selection by
 * identity), runs the key step on each key, and carries out what a key asks through its ports
 * (voting, the clipboard, the file `S` writes, the follow's retry, the picker, quitting); it
 * rings the bell for activities newly awaiting votes. What it shows is one snapshot, rebuilt
 * (part by part, ./dashboard-views.ts) when the state, the store, the follow, a feed, the clock's
 * tick or the terminal's size changed; a component renders it with useSyncExternalStore
 * (`subscribe`, `getSnapshot`). Tested without a terminal.
 *
 * Its log is a port too (./ports.ts): a live follow (store, follower, replicas) or saved lines
 * with nothing followed, no side panes and no voting (`tvcwatch open FILE`). A live log gets the
 * side panes' events among its lines (../../feeds/pane-event-feed.ts), shown while `I` is on.
 */

import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { PaneEventFeed } from "../../feeds/pane-event-feed.js";
import type { StoredRow } from "../../logs/model/log-store.js";
import type { SavedVote } from "../../logs/saved/saved-header.js";
import type { GroupMember } from "../../tail/follower-group.js";
import { grouped } from "../../text/grouped-number.js";
import type { KeyInfo } from "../keys/key-bindings.js";
import { findTarget, type KeyEffect, keyStep, READING_NOTICE } from "../keys/key-step.js";
import { riseSteps } from "../keys/rise-key.js";
import { copyLines } from "../log-view/copy-text.js";
import type { Target } from "../log-view/log-navigator.js";
import { riseNotice } from "../rows/heatmap-rows.js";
import { OutageRecord } from "../saving/outage-record.js";
import {
  countRows,
  defaultSaveName,
  rangeWords,
  rowsInRange,
  type SaveChoice,
} from "../saving/save-range.js";
import { savedFormat, savedView } from "../saving/saved-view.js";
import { SeenEvents } from "../saving/seen-events.js";
import type { IncidentSource } from "../saving/ticket-bundle.js";
import { initialUiState, type UiAction, type UiState, uiReducer } from "../state/ui-state.js";
import { AwaitingBell } from "./awaiting-bell.js";
import type { Heading } from "./dashboard-title.js";
import {
  type Built,
  type DashboardSnapshot,
  DashboardViews,
  type TerminalSize,
} from "./dashboard-views.js";
import { EventMarkers } from "./event-markers.js";
import { type DashboardPorts, newFiles, systemTicker, type Ticker } from "./ports.js";
import { sameData } from "./same-data.js";
import { VoteFlow } from "./vote-flow.js";

export interface DashboardOptions {
  /** What the title names. */
  heading: Heading;
  /** The terminal's size until `resize` says otherwise. */
  size?: TerminalSize | undefined;
  initialState?: Partial<UiState> | undefined;
}

const titleName = (h: Heading) => (h.kind === "named" ? h.name : h.deploymentId);

const NO_MEMBERS: readonly GroupMember[] = [];
/** The most votes kept for a bundle (the oldest go first). */
const MAX_VOTES_KEPT = 1000;
/** How often what moves with the clock (ages, countdowns) is redrawn. */
const TICK_MS = 1000;
/** How often a log view waiting for its filters' slices is built again with what they judged. */
const REDRAW_MS = 150;
/** How long a notice (saved, copied, the answer to a key) stays when no key is pressed. */
export const NOTICE_MS = 5000;

export class DashboardController {
  private ui: UiState;
  private size: TerminalSize;
  private heading: Heading;
  private now: number;
  private built: Built | undefined;
  /** The last snapshot built (kept while what is built again is the same data). */
  private drawn: DashboardSnapshot | undefined;
  private readonly views = new DashboardViews();
  private readonly listeners = new Set<() => void>();
  private readonly detach: (() => void)[] = [];
  private readonly clock: Ticker;
  private readonly bell: AwaitingBell;
  private readonly votes: VoteFlow;
  /** The votes this dashboard cast and the server answered, oldest first (a bundle lists them). */
  private readonly cast: SavedVote[] = [];
  /** The lines `S` chose and counted, written as they were when the file prompt opened. */
  private saving: { choice: SaveChoice; rows: StoredRow[] } | undefined;
  private readonly outages = new OutageRecord();
  /** What the side panes saw happen (status changes, votes, deployment changes), for a bundle. */
  private readonly seen = new SeenEvents();
  /** When the notice shown was given (the clock's ms): it goes NOTICE_MS later. */
  private noticeAt = 0;
  /** The next slice of judging the log's rows against the filters, when one is due. */
  private judging: ReturnType<typeof setImmediate> | undefined;
  /** Pending log views built again so far (the view is memoized on it). */
  private round = 0;
  /** When a pending log view was last built again (performance.now). */
  private redrawnAt = 0;
  /**
   * The status line counts a search still reading, and what is drawn was let go for it without a
   * frame of its own (see judgeLater).
   */
  private counting = false;
  /** A find that ran out of its budget, done again once every row is judged (a key cancels). */
  private findLater: { target: Target; direction: 1 | -1 } | undefined;
  private stopped = false;
  /** The side panes' events waiting for the live log to reach their time. */
  private markers: EventMarkers | undefined;

  constructor(
    private readonly ports: DashboardPorts,
    options: DashboardOptions,
  ) {
    this.ui = { ...initialUiState, ...options.initialState };
    this.size = options.size ?? { columns: 100, rows: 30 };
    this.heading = options.heading;
    this.clock = ports.clock ?? systemTicker;
    this.now = this.clock.now();
    this.bell = new AwaitingBell(ports.bell);
    this.votes = new VoteFlow({
      voting: ports.voting,
      decoder: ports.decoder,
      activities: ports.feeds?.activities.store,
      activityFor: (key) => this.current().activities.rows.find((r) => r.key === key)?.activity,
      contested: (id) =>
        this.current().activities.rows.some((r) => r.id === id && r.conflict !== undefined),
      state: () => this.ui,
      apply: (action) => this.apply(action),
      now: () => this.clock.now(),
      contextChanged: () => this.changed(),
      cast: (vote) => {
        this.cast.push(vote);
        if (this.cast.length > MAX_VOTES_KEPT) this.cast.shift();
      },
    });
  }

  /** Follows the store, the follow, the feeds and the clock; reads who is asking, for votes. */
  start(): void {
    const { logs, feeds } = this.ports;
    const changed = () => this.changed();
    this.detach.push(logs.store.subscribe(changed));
    if (logs.saved) this.detach.push(logs.store.subscribe(() => this.riseOnceIndexed()));
    const follow = logs.follow;
    if (follow) {
      this.detach.push(
        follow.subscribe(() => {
          // Polls that failed and then succeeded again leave a marker in the log saying when.
          const marker = this.outages.observe({
            state: follow.getState(),
            now: this.clock.now(),
            monoNow: follow.monotonicNow(),
          });
          if (marker) logs.store.append([marker]);
          this.changed();
        }),
      );
    }
    if (logs.health) this.detach.push(logs.health.store.subscribe(changed));
    // The side panes' events, read once (src/feeds/pane-event-feed.ts): kept for a ticket bundle
    // (S b), and with a live follow put among the log's lines as they come, shown while `I` is on
    // (the view hides them otherwise): the store's caps bound them with the lines.
    if (feeds || logs.health) {
      const events = new PaneEventFeed({
        activities: feeds?.activities.store,
        email: feeds?.email?.store,
        solana: feeds?.solana?.store,
        health: logs.health?.store,
      });
      const markers = follow ? new EventMarkers(logs.store, () => this.clock.now()) : undefined;
      this.markers = markers;
      if (markers) this.detach.push(logs.store.subscribe(() => markers.flush()));
      this.detach.push(
        events.watch((batch) => {
          this.seen.keep(batch);
          markers?.take(batch);
        }),
      );
    }
    if (feeds) {
      const activities = feeds.activities.store;
      this.bell.observe(activities.getSnapshot().data);
      this.detach.push(
        activities.subscribe(() => {
          this.bell.observe(activities.getSnapshot().data);
          this.changed();
        }),
      );
      if (feeds.email) this.detach.push(feeds.email.store.subscribe(changed));
      if (feeds.solana) this.detach.push(feeds.solana.store.subscribe(changed));
    }
    if (this.ports.decoder) this.detach.push(this.ports.decoder.subscribe(changed));
    this.detach.push(
      this.clock.every(TICK_MS, () => {
        this.now = this.clock.now();
        if (this.ui.notice !== undefined && this.now - this.noticeAt >= NOTICE_MS) {
          this.ui = uiReducer(this.ui, { type: "notice", text: undefined });
        }
        this.votes.tick();
        this.markers?.flush();
        this.changed();
      }),
    );
    this.votes.start();
  }

  stop(): void {
    this.stopped = true;
    if (this.judging) clearImmediate(this.judging);
    this.judging = undefined;
    for (const d of this.detach.splice(0)) d();
    this.votes.stop();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** What is drawn now: the same object until something it shows changed. */
  getSnapshot = (): DashboardSnapshot => this.current().snapshot;

  /** The votes this dashboard cast and the server answered, oldest first. */
  get votesCast(): readonly SavedVote[] {
    return this.cast;
  }

  /** The UI state now. */
  get state(): UiState {
    return this.ui;
  }

  resize(columns: number, rows: number): void {
    if (columns === this.size.columns && rows === this.size.rows) return;
    this.size = { columns, rows };
    this.changed();
  }

  /** The deployment shown, as the picker knows it (its app's name) once it is known. */
  named(deployment: DeploymentChoice): void {
    const h = this.heading;
    if (h.kind !== "deployments" || h.deploymentId !== deployment.deploymentId) return;
    this.heading = { ...h, deployment };
    this.changed();
  }

  /** A new title (saved lines: their count and time range grow as they are read). */
  retitle(heading: Heading): void {
    const h = this.heading;
    if (
      h.kind === heading.kind &&
      h.prefix === heading.prefix &&
      titleName(h) === titleName(heading)
    )
      return;
    this.heading = heading;
    this.changed();
  }

  /** Filters a saved view's header restores (read after the dashboard opened: a stream's). */
  restore(filters: Partial<UiState>): void {
    this.set({ ...this.ui, ...filters });
  }

  /** Says something in the status line (what reading saved lines came to know). */
  say(text: string): void {
    this.notice(text);
  }

  /** One key (or a chunk of typed text): the key step on what is shown, then its effects. */
  press(input: string, key: KeyInfo): void {
    const { keys } = this.current();
    // A key pressed while a find waits for the rows to be judged cancels it.
    this.findLater = undefined;
    const result = keyStep(this.ui, input, key, { ...keys, now: this.clock.now() });
    // Every key clears the notice; one it gave is new.
    if (result.state.notice !== undefined) this.noticeAt = this.clock.now();
    this.set(result.state);
    for (const effect of result.effects) this.run(effect);
  }

  private current(): Built {
    if (this.built) return this.built;
    const { logs, feeds } = this.ports;
    const follow = logs.follow;
    this.counting = false;
    this.built = this.views.build({
      ui: this.ui,
      size: this.size,
      heading: this.heading,
      logs,
      version: logs.store.getVersion(),
      follow: follow?.getState(),
      monoNow: follow?.monotonicNow(),
      members: follow?.members?.() ?? NO_MEMBERS,
      health: logs.health?.store.getSnapshot(),
      feeds: feeds && {
        activities: feeds.activities.store.getSnapshot(),
        email: feeds.email?.store.getSnapshot(),
        solana: feeds.solana?.store.getSnapshot(),
      },
      now: this.now,
      voteContext: this.votes.context,
      round: this.round,
      decoder: this.ports.decoder,
      decoded: this.ports.decoder?.version ?? 0,
      readOnly: this.ports.readOnly !== undefined,
    });
    // Built again to the same data (a tick that moved nothing shown): what was drawn is kept, and
    // nothing is drawn again.
    const drawn = this.drawn;
    if (drawn && drawn !== this.built.snapshot && sameData(drawn, this.built.snapshot))
      this.built = { ...this.built, snapshot: drawn };
    this.drawn = this.built.snapshot;
    this.judgeLater();
    return this.built;
  }

  /**
   * Buffer-wide work in slices, each its own turn of the event loop (keys, q, Ctrl-C and SIGTERM
   * are answered between them): the rows the filters and search have not judged yet, newest
   * first; a log view built from what was judged so far is built again after each slice.
   */
  private judgeLater(): void {
    if (this.judging || this.stopped) return;
    this.judging = setImmediate(() => {
      this.judging = undefined;
      if (this.stopped) return;
      const done = this.views.judgeSlice(this.ui, this.ports.logs);
      // A view waiting for rows is built again with what the slices judged, a few times a second
      // (each build walks from the pane's bottom again) and once they are all judged. The status
      // line counting a search's matches while it reads is drawn with the clock's tick (or a
      // key): what is drawn is let go, built again with the count when next drawn, not drawn
      // for it (a frame costs this thread as much as a slice of the search, or more).
      const now = performance.now();
      const pending = this.built?.logPending === true;
      const searching = this.built ? this.built.searching : this.counting;
      if ((pending || searching) && (done || now - this.redrawnAt >= REDRAW_MS)) {
        this.redrawnAt = now;
        if (pending || done) {
          this.counting = false;
          this.round += 1;
          this.changed();
        } else {
          this.counting = true;
          this.built = undefined;
        }
      }
      // The next slice without waiting for the frame to be drawn.
      if (!done) this.judgeLater();
      else if (this.findLater) {
        const { target, direction } = this.findLater;
        this.findLater = undefined;
        const { keys } = this.current();
        const steps = [
          findTarget(this.ui, { ...keys, now: this.clock.now() }, target, direction),
        ].flat();
        // What the key said while the rows were judged gives way to what it found.
        const again = steps.some((step) => step.type === "findWhenJudged");
        if (!again && this.ui.notice === READING_NOTICE)
          this.apply({ type: "notice", text: undefined });
        for (const step of steps) {
          if (step.type === "findWhenJudged") this.findLater = step;
          else if (step.type !== "notice" || this.findLater === undefined)
            this.apply(step as UiAction);
        }
        // Rows came meanwhile and the find ran out on them: judged in the next slices.
        if (this.findLater) this.judgeLater();
      }
    });
  }

  /** A `!` pressed while a saved file's start was indexed goes to the onset once every line is in. */
  private riseOnceIndexed(): void {
    if (!this.ui.riseWhenIndexed || this.ports.logs.saved?.summary().complete !== true) return;
    this.apply({ type: "riseWhenIndexed", on: false });
    const { keys } = this.current();
    for (const step of riseSteps(this.ui, keys)) this.apply(step);
  }

  private changed(): void {
    this.built = undefined;
    for (const l of this.listeners) l();
  }

  private set(ui: UiState): void {
    if (ui === this.ui) return;
    this.ui = ui;
    this.changed();
  }

  private apply(action: UiAction): void {
    if (action.type === "notice") this.noticeAt = this.clock.now();
    this.set(uiReducer(this.ui, action));
  }

  private notice(text: string): void {
    this.apply({ type: "notice", text });
  }

  private run(effect: KeyEffect): void {
    switch (effect.type) {
      case "quit":
        this.ports.quit();
        break;
      case "picker":
        if (this.ports.picker) this.ports.picker();
        else this.notice("no deployment picker here: tvcwatch without --deployment shows it");
        break;
      case "retryNow":
        this.notice(this.retryNow());
        break;
      case "findWhenJudged":
        this.findLater = { target: effect.target, direction: effect.direction };
        this.judgeLater();
        break;
      case "startVote":
        if (this.ports.readOnly) this.notice(`cannot ${effect.action}: ${this.ports.readOnly}`);
        else this.votes.begin(effect.action, effect.key);
        break;
      case "sendVote":
        this.votes.send();
        break;
      case "copy":
        this.copy(effect.id);
        break;
      case "saveRange":
        this.offerSave(effect.choice);
        break;
      case "save":
        void this.save(effect.path);
        break;
    }
  }

  /** r: the follow's next poll now, when it is waiting to retry; what it did, or why not. */
  private retryNow(): string {
    const follow = this.ports.logs.follow;
    if (!follow) {
      const reading = this.ports.logs.saved?.following?.();
      return reading === undefined
        ? "nothing is followed here: these are saved lines"
        : "nothing to retry: lines are read as they come, without polls";
    }
    const phase = follow.getState().phase;
    if (phase === "retrying") {
      follow.retryNow();
      return "retrying the log poll now";
    }
    if (phase === "live") return "the log is live: nothing to retry";
    return `the log follow is ${phase === "failed" ? "stopped by an error" : phase}: nothing to retry`;
  }

  /**
   * c: the line as `tail --timestamps` prints it, with its continuation lines, to the clipboard
   * (OSC 52) with --clipboard, else shown alone to select.
   */
  private copy(id: number): void {
    const lines = copyLines(this.ports.logs.store, id);
    if (!lines) this.notice("that line left the buffer");
    else if (!this.ports.clipboard) this.apply({ type: "openCopy", id });
    else {
      this.ports.clipboard(lines.join("\n"));
      // The count says the continuation lines went too (a stack trace's frames).
      const what = lines.length > 1 ? `${lines.length} lines` : "line";
      this.notice(`${what} copied to the clipboard (OSC 52)`);
    }
  }

  /** The deployment(s) the lines are of, as the header records them; undefined when none is known. */
  private deploymentIds(): string | undefined {
    const several = this.current().several;
    const h = this.heading;
    if (several.length > 0) return several.map((d) => d.id).join(",");
    return h.deploymentId || undefined;
  }

  /** What the default file name calls the lines' deployment: its label, or how many. */
  private deploymentLabel(): string {
    const several = this.current().several;
    const only = this.ui.onlyDeployment;
    if (only) return only.label;
    if (several.length > 1) return `${several.length}-deployments`;
    const h = this.heading;
    if (h.kind === "named") return h.deploymentId?.slice(0, 6) ?? "saved";
    const d = h.deployment;
    const parts = [h.deploymentId.slice(0, 6)];
    if (d?.qosVersion) parts.push(String(d.qosVersion));
    if (d?.live) parts.push("live");
    else if (d?.canary) parts.push("canary");
    return parts.join("-");
  }

  /** S, then Enter: the range's lines counted, and the file prompt offering a name for them. */
  private offerSave(choice: SaveChoice): void {
    const { keys } = this.current();
    const rows = rowsInRange(
      choice.range,
      this.ports.logs.store,
      () => keys.log.shownRows(this.ui),
      this.ui.marks,
    );
    const { lines, markers } = countRows(rows);
    const words = this.savedWords(choice);
    if (rows.length === 0) {
      this.notice(`nothing to save: no lines in ${words}`);
      return;
    }
    this.saving = { choice, rows };
    this.apply({
      type: "startInput",
      mode: "save",
      save: {
        words,
        bundle: choice.bundle,
        lines,
        markers,
        defaultName: defaultSaveName(this.deploymentLabel(), rows, choice.bundle),
      },
    });
  }

  /**
   * What a bundle records of the panes and the view: the panes' records and what they saw
   * happen, the marked lines, and where `!` goes with its rule (over the whole buffer, as `!`).
   */
  private incident(): IncidentSource {
    const { feeds, logs } = this.ports;
    const store = logs.store;
    const map = this.current().keys.errors?.();
    const rise = map?.rise;
    const row = rise && store.at(rise.onset?.index ?? rise.index);
    return {
      activities: feeds?.activities.store.getSnapshot().data ?? [],
      email: feeds?.email ? (feeds.email.store.getSnapshot().data ?? []) : undefined,
      solana: feeds?.solana ? (feeds.solana.store.getSnapshot().data ?? new Map()) : undefined,
      events: this.seen.events(),
      marks: this.ui.marks
        .map((id) => store.rowById(id))
        .filter((r): r is StoredRow => r !== undefined)
        .sort((a, b) => a.event.sortKey - b.event.sortKey),
      onset:
        map && rise && row
          ? {
              row,
              rule: rise.onset?.rule ?? "first error of the rise",
              said: riseNotice(map, rise),
            }
          : undefined,
    };
  }

  /**
   * The range chosen in words, with the time range `open --since / --until` read the file in when
   * the range is of the view (all buffered is every line, whatever the view shows).
   */
  private savedWords(choice: SaveChoice): string {
    const words = rangeWords(choice.range);
    const within = choice.range.kind === "all" ? undefined : this.ui.timeRange?.words;
    return within ? `${words}, ${within}` : words;
  }

  /** The lines chosen written to a new file, never over one that exists; the notice counts them. */
  private async save(path: string): Promise<void> {
    const saving = this.saving;
    if (!saving) return;
    const { choice, rows } = saving;
    const format = savedFormat(path);
    // All a file's header says is as of the key; a bundle's writer (which checks what it writes
    // with zod) is loaded only when a bundle is saved.
    const header = {
      deploymentId: this.deploymentIds(),
      filters: this.ui,
      savedAt: this.clock.now(),
      range: choice.range,
    };
    const bundle = choice.bundle
      ? {
          follow: this.ports.logs.follow?.getState(),
          cast: [...this.cast],
          spans: this.outages.spans(header.savedAt),
          incident: this.incident(),
        }
      : undefined;
    const writer = bundle && (await import("../saving/ticket-bundle.js"));
    const written = savedView(rows, format, {
      ...header,
      bundle:
        writer && bundle
          ? {
              ...writer.bundleFields(rows, bundle.follow, bundle.cast, bundle.spans),
              ...writer.incidentFields(rows, bundle.incident),
            }
          : undefined,
    });
    try {
      await (this.ports.files ?? newFiles).writeNew(path, written.text);
      this.saving = undefined;
      const count = (n: number) => grouped(n);
      const gaps =
        written.markers > 0
          ? ` and ${count(written.markers)} gap marker${written.markers === 1 ? "" : "s"}`
          : "";
      const what = choice.bundle ? "bundle" : format === "ndjson" ? "NDJSON" : "text";
      this.notice(
        `saved ${count(written.lines)} line${written.lines === 1 ? "" : "s"}${gaps} (${this.savedWords(choice)}) to ${path} (${what})`,
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      this.notice(
        code === "EEXIST"
          ? `not saved: ${path} exists (S again with another name)`
          : `not saved: ${(err as Error).message}`,
      );
    }
  }
}
