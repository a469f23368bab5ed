/**
 * The picker and the dashboard as one app, without React: what is watched (one deployment, or
 * several merged) and its log session and dashboard controller; the deployment picker, at start
 * without a deployment or over the running dashboard after `D` (which keeps following): its
 * list, loaded each time it opens (`r` again after a failure), its selection by identity, and
 * what a pick means. Esc, or the scope shown now, returns to the dashboard unchanged (buffer,
 * filters, cursor, marks); another deployment gets a new session and a fresh dashboard, the old
 * session stopped. Keys go to the picker while it is shown, else to the dashboard.
 */
import type {
  DashboardSources,
  DeploymentWatch,
  LogSession,
} from "../../feeds/dashboard-sources.js";
import type { DeploymentChoice } from "../../feeds/deployment-list.js";
import { describeError } from "../../feeds/poller.js";
import { type KeyInfo, keyName, lookup } from "../keys/key-bindings.js";
import {
  initialPicker,
  type PickerLoad,
  type PickerRow,
  type PickerState,
  pickerRows,
  pickerStep,
  pickOutcome,
  type ShownScope,
} from "../state/picker-state.js";
import { DashboardController } from "./dashboard-controller.js";
import type { TerminalSize } from "./dashboard-views.js";
import { type FileSink, followedLogs, type Ticker } from "./ports.js";

/** Why the app ended: a quit, or a failure the CLI reports as its one-line error. */
export type AppExit = { error?: unknown };

export interface AppPorts {
  sources: DashboardSources;
  /** Rings the terminal bell (activities newly awaiting votes); absent: no bell. */
  bell?: (() => void) | undefined;
  /** Puts text on the terminal's clipboard (OSC 52, --clipboard); absent: `c` shows it. */
  clipboard?: ((text: string) => void) | undefined;
  files?: FileSink | undefined;
  clock?: Ticker | undefined;
  exit(exit: AppExit): void;
}

export interface AppOptions {
  /** The deployments to watch (several: merged); none: the picker. */
  deploymentIds?: readonly string[] | undefined;
  /** `--app` / `--all`: the deployments given are listed again while watched. */
  watch?: DeploymentWatch | undefined;
  /** Said in the title before the deployment ("demo (simulated) · "). */
  title?: string | undefined;
  size?: TerminalSize | undefined;
}

/** The picker as drawn: its list, its selection and what it is over. */
export interface PickerShown {
  load: PickerLoad;
  state: PickerState;
  /** Its rows: over a dashboard, the scope shown now first; then every deployment. */
  list: readonly PickerRow[];
  /** What the dashboard behind it shows; undefined at start. */
  over: ShownScope | undefined;
}

export interface AppSnapshot {
  /** The terminal's size (the picker alone fills it). */
  size: TerminalSize;
  /** The dashboard (behind the picker while it is shown); undefined before a pick. */
  dashboard: DashboardController | undefined;
  picker: PickerShown | undefined;
}

/** What is watched: its scope, its log session and its dashboard. */
interface Watched {
  scope: ShownScope;
  session: LogSession;
  dashboard: DashboardController;
  /** Reading the deployment's app name, for the title. */
  naming: AbortController;
}

export class AppController {
  private watched: Watched | undefined;
  private picker: { load: PickerLoad; state: PickerState; loading: AbortController } | undefined;
  private lastError: unknown;
  private size: TerminalSize;
  private snapshot: AppSnapshot | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly ports: AppPorts,
    private readonly options: AppOptions,
  ) {
    this.size = options.size ?? { columns: 100, rows: 30 };
  }

  start(): void {
    const ids = this.options.deploymentIds ?? [];
    const watch = this.options.watch;
    if (ids.length > 0) this.watch({ ids, watchLabel: watch?.label }, watch);
    else this.openPicker();
  }

  /** Stops the picker's listing and the dashboard; resolves when the log session has stopped. */
  async stop(): Promise<void> {
    this.picker?.loading.abort();
    await this.unwatch();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): AppSnapshot => {
    this.snapshot ??= {
      size: this.size,
      dashboard: this.watched?.dashboard,
      picker: this.picker && {
        load: this.picker.load,
        state: this.picker.state,
        list: pickerRows(this.choices(), this.watched?.scope),
        over: this.watched?.scope,
      },
    };
    return this.snapshot;
  };

  resize(columns: number, rows: number): void {
    if (columns === this.size.columns && rows === this.size.rows) return;
    this.size = { columns, rows };
    this.watched?.dashboard.resize(columns, rows);
    this.changed();
  }

  press(input: string, key: KeyInfo): void {
    if (this.picker) this.pickerKey(input, key);
    else this.watched?.dashboard.press(input, key);
  }

  private changed(): void {
    this.snapshot = undefined;
    for (const l of this.listeners) l();
  }

  private choices(): DeploymentChoice[] {
    return this.picker?.load.state === "loaded" ? this.picker.load.choices : [];
  }

  /** The picker, its list loaded afresh (at start, after `D`, and on `r` after a failure). */
  private openPicker(): void {
    this.picker?.loading.abort();
    const loading = new AbortController();
    this.picker = {
      load: { state: "loading" },
      state: this.picker?.state ?? initialPicker(this.watched !== undefined),
      loading,
    };
    this.changed();
    this.ports.sources.listDeployments(loading.signal).then(
      (choices) => this.loaded(loading, { state: "loaded", choices }, undefined),
      (err: unknown) => this.loaded(loading, { state: "failed", error: describeError(err) }, err),
    );
  }

  private loaded(loading: AbortController, load: PickerLoad, error: unknown): void {
    if (loading.signal.aborted || this.picker?.loading !== loading) return;
    this.lastError = error;
    this.picker = { ...this.picker, load };
    this.changed();
  }

  private closePicker(): void {
    this.picker?.loading.abort();
    this.picker = undefined;
    this.changed();
  }

  private pickerKey(input: string, key: KeyInfo): void {
    const picker = this.picker;
    const binding = lookup(["picker"], keyName(input, key));
    if (!picker || !binding) return;
    const over = this.watched?.scope;
    const rows = pickerRows(this.choices(), over);
    const result = pickerStep(picker.state, binding.action, rows, {
      over: over !== undefined,
      failed: picker.load.state === "failed",
    });
    this.picker = { ...picker, state: result.state };
    this.changed();
    const effect = result.effect;
    if (effect?.type === "quit")
      this.ports.exit(this.lastError === undefined ? {} : { error: this.lastError });
    if (effect?.type === "back") this.closePicker();
    if (effect?.type === "retry") this.openPicker();
    if (effect?.type === "pick") this.pick(effect.row);
  }

  /** The scope shown now: back to the dashboard as it is; another: watched afresh. */
  private pick(row: PickerRow): void {
    const outcome = pickOutcome(this.watched?.scope, row);
    if (outcome.type === "watch") {
      const choice = outcome.choice;
      this.watch({ ids: [choice.deploymentId], deployment: choice }, undefined);
    }
    this.closePicker();
  }

  /** A log session and a dashboard for `scope`; the one before is stopped. */
  private watch(scope: ShownScope, watch: DeploymentWatch | undefined): void {
    void this.unwatch();
    const { sources } = this.ports;
    const session = sources.openLogs(scope.ids, watch);
    session.start();
    const dashboard = new DashboardController(
      {
        logs: followedLogs(session),
        feeds: sources.feeds,
        voting: sources.voting,
        decoder: sources.decoder,
        clipboard: this.ports.clipboard,
        files: this.ports.files,
        clock: this.ports.clock,
        bell: this.ports.bell,
        picker: () => this.openPicker(),
        quit: () => this.ports.exit({}),
      },
      {
        heading: {
          kind: "deployments",
          prefix: this.options.title,
          deploymentId: scope.ids[0] ?? "",
          deployment: scope.deployment,
        },
        size: this.size,
      },
    );
    dashboard.start();
    const watched: Watched = { scope, session, dashboard, naming: new AbortController() };
    this.watched = watched;
    this.changed();
    const [only] = scope.ids;
    if (scope.deployment === undefined && scope.ids.length === 1 && only !== undefined) {
      void this.name(watched, only);
    }
  }

  /** The deployment's app, for the title (and the picker's first row). */
  private async name(watched: Watched, id: string): Promise<void> {
    const d = await this.ports.sources.describeDeployment(id, watched.naming.signal);
    if (!d || watched.naming.signal.aborted || this.watched !== watched) return;
    if (d.deploymentId !== id) return;
    watched.scope = { ...watched.scope, deployment: d };
    watched.dashboard.named(d);
    this.changed();
  }

  private async unwatch(): Promise<void> {
    const w = this.watched;
    if (!w) return;
    this.watched = undefined;
    w.naming.abort();
    w.dashboard.stop();
    await w.session.stop();
  }
}
