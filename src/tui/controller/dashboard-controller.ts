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
 * with nothing followed, no side panes and no voting (`tvcwatch open FILE`).
 */

import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import type { GroupMember } from "../../tail/follower-group.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import type { KeyInfo } from "../key-bindings.js";
import { type KeyEffect, keyStep } from "../key-step.js";
import { savedFormat, savedView } from "../saved-view.js";
import { initialUiState, type UiAction, type UiState, uiReducer } from "../ui-state.js";
import { AwaitingBell } from "./awaiting-bell.js";
import type { Heading } from "./dashboard-title.js";
import {
  type Built,
  type DashboardSnapshot,
  DashboardViews,
  type TerminalSize,
} from "./dashboard-views.js";
import { OutageRecord } from "./outage-record.js";
import { type DashboardPorts, newFiles, systemTicker, type Ticker } from "./ports.js";
import { VoteFlow } from "./vote-flow.js";

export interface DashboardOptions {
  /** What the title names. */
  heading: Heading;
  /** The terminal's size until `resize` says otherwise. */
  size?: TerminalSize | undefined;
  initialState?: Partial<UiState> | undefined;
}

const NO_MEMBERS: readonly GroupMember[] = [];
/** How often what moves with the clock (ages, countdowns) is redrawn. */
const TICK_MS = 1000;
/** How long a notice (saved, copied, the answer to a key) stays when no key is pressed. */
export const NOTICE_MS = 5000;

export class DashboardController {
  private ui: UiState;
  private size: TerminalSize;
  private heading: Heading;
  private now: number;
  private built: Built | undefined;
  private readonly views = new DashboardViews();
  private readonly listeners = new Set<() => void>();
  private readonly detach: (() => void)[] = [];
  private readonly clock: Ticker;
  private readonly bell: AwaitingBell;
  private readonly votes: VoteFlow;
  private readonly outages = new OutageRecord();
  /** When the notice shown was given (the clock's ms): it goes NOTICE_MS later. */
  private noticeAt = 0;

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
      activities: ports.feeds?.activities.store,
      activityFor: (key) => this.current().activities.rows.find((r) => r.key === key)?.activity,
      state: () => this.ui,
      apply: (action) => this.apply(action),
      now: () => this.clock.now(),
      contextChanged: () => this.changed(),
    });
  }

  /** Follows the store, the follow, the feeds and the clock; reads who is asking, for votes. */
  start(): void {
    const { logs, feeds } = this.ports;
    const changed = () => this.changed();
    this.detach.push(logs.store.subscribe(changed));
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
    this.detach.push(
      this.clock.every(TICK_MS, () => {
        this.now = this.clock.now();
        if (this.ui.notice !== undefined && this.now - this.noticeAt >= NOTICE_MS) {
          this.ui = uiReducer(this.ui, { type: "notice", text: undefined });
        }
        this.changed();
      }),
    );
    this.votes.start();
  }

  stop(): void {
    for (const d of this.detach.splice(0)) d();
    this.votes.stop();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** What is drawn now: the same object until something it shows changed. */
  getSnapshot = (): DashboardSnapshot => this.current().snapshot;

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

  /** One key (or a chunk of typed text): the key step on what is shown, then its effects. */
  press(input: string, key: KeyInfo): void {
    const { keys } = this.current();
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
    this.built = this.views.build({
      ui: this.ui,
      size: this.size,
      heading: this.heading,
      logs,
      version: logs.store.getVersion(),
      follow: follow?.getState(),
      monoNow: follow?.monotonicNow(),
      members: follow?.members?.() ?? NO_MEMBERS,
      feeds: feeds && {
        activities: feeds.activities.store.getSnapshot(),
        email: feeds.email?.store.getSnapshot(),
        solana: feeds.solana?.store.getSnapshot(),
      },
      now: this.now,
      voteContext: this.votes.context,
    });
    return this.built;
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
      case "startVote":
        this.votes.begin(effect.action, effect.key);
        break;
      case "sendVote":
        this.votes.send();
        break;
      case "copy":
        this.copy(effect.id);
        break;
      case "save":
        void this.save(effect.path);
        break;
    }
  }

  /** r: the follow's next poll now, when it is waiting to retry; what it did, or why not. */
  private retryNow(): string {
    const follow = this.ports.logs.follow;
    if (!follow) return "nothing is followed here: these are saved lines";
    const phase = follow.getState().phase;
    if (phase === "retrying") {
      follow.retryNow();
      return "retrying the log poll now";
    }
    if (phase === "live") return "the log is live: nothing to retry";
    return `the log follow is ${phase === "failed" ? "stopped by an error" : phase}: nothing to retry`;
  }

  /** c: the line to the clipboard (OSC 52) with --clipboard, else shown alone to select. */
  private copy(id: number): void {
    const row = this.ports.logs.store.rowById(id);
    if (row?.event.kind !== "line") this.notice("that line left the buffer");
    else if (!this.ports.clipboard) this.apply({ type: "openCopy", id });
    else {
      this.ports.clipboard(sanitizeForTerminal(row.event.content));
      this.notice("line copied to the clipboard (OSC 52)");
    }
  }

  /** S: the view's lines (as filtered) written to a new file, never over one that exists. */
  private async save(path: string): Promise<void> {
    const { keys, several } = this.current();
    const rows = keys.log.shownRows(this.ui);
    const format = savedFormat(path);
    const h = this.heading;
    const text = savedView(rows, format, {
      deploymentId:
        several.length > 0
          ? several.map((d) => d.id).join(",")
          : h.kind === "deployments"
            ? h.deploymentId
            : (h.deploymentId ?? ""),
      filters: this.ui,
      savedAt: this.clock.now(),
    });
    try {
      await (this.ports.files ?? newFiles).writeNew(path, text);
      const count = rows.length.toLocaleString("en-US");
      this.notice(`saved ${count} lines to ${path} (${format === "ndjson" ? "NDJSON" : "text"})`);
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
