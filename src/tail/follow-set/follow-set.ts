/**
 * A set of deployments followed together: `tail` over several (`--deployment` repeated, `--app`,
 * `--all`) and the dashboard's log session. Each deployment has its own exactly-once follower;
 * the set takes deployments on and lets them go, labels them by the shortest unique prefix of
 * their ids and what Turnkey's records say they are, their version and whether live or canary
 * (../deployment-labels.ts: a label may change as the set does; the records are read once per
 * deployment taken on, through `describe`, within the limit), holds every request to
 * one limit (../request-limit.ts, shared with the relists), starts the first polls together (the
 * later ones spread over the interval), lists the deployments again with `--app` / `--all`
 * (./relisting.ts), and knows when its first deployments have all answered (./first-answers.ts).
 * What happens is told to its listeners (./follow-set-listener.ts); the followers' states read
 * as one (../follower-group.ts).
 */
import type { Clock } from "../../api/clock.js";
import { systemClock } from "../../api/clock.js";
import {
  type DeploymentDescription,
  describedLabel,
  shortLabels,
} from "../../logs/model/deployment-labels.js";
import {
  type FollowerOptions,
  type FollowerState,
  FollowerStopError,
  LogFollower,
} from "../follower.js";
import { FollowerGroup, type FollowSource } from "../follower-group.js";
import { sleep } from "../poll-loop.js";
import type { RequestLimit } from "../request-limit.js";
import { FIRST_ANSWERS_WAIT_MS, FirstAnswers } from "./first-answers.js";
import type { FollowMember, FollowSetListener } from "./follow-set-listener.js";
import { Relister, type Relisting } from "./relisting.js";

export interface FollowSetOptions {
  /** A deployment's follower (its fetch, windows, clock); the set gives it its slots. */
  followerOptions(deploymentId: string): Omit<FollowerOptions, "acquireSlot">;
  /** The interval the later polls are spread over (the followers' own). */
  intervalMs: number;
  /** The one limit on requests in flight: every follower's polls and the relists. */
  limit: RequestLimit;
  /** Poll until stopped (the default), or read one window of each deployment. */
  follow?: boolean | undefined;
  /** `--app` / `--all`: the deployments listed again while following. */
  relisting?: Relisting | undefined;
  /**
   * Awaited before a deployment taken on after the start is first polled (its lines may need
   * something ready first: an OTLP resource).
   */
  prepare?: ((deploymentId: string) => Promise<void>) | undefined;
  /**
   * What the deployments taken on are (version, live or canary), read once for each batch taken
   * on, each request within `limit`; a deployment it says nothing of is labelled by its id
   * alone. The first lines wait for it as for the first answers.
   */
  describe?:
    | ((
        deploymentIds: readonly string[],
        signal: AbortSignal,
        limit: RequestLimit,
      ) => Promise<ReadonlyMap<string, DeploymentDescription>>)
    | undefined;
  /** For the wait for the first answers; default the system's. */
  clock?: Clock | undefined;
  /** The wait between relists; default the follower's sleep. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
}

/** A deployment followed: its member (as labelled now) and its run. */
interface Entry {
  member: FollowMember;
  /** Aborted when the deployment is let go. */
  controller: AbortController;
  running: Promise<void> | undefined;
}

export class FollowSet implements FollowSource {
  private readonly group = new FollowerGroup<FollowMember>();
  private readonly entries = new Map<string, Entry>();
  private readonly stopping = new AbortController();
  private readonly relister: Relister | undefined;
  private readonly follow: boolean;
  private started = false;
  private firstAnswers: FirstAnswers | undefined;
  private relisting: Promise<void> | undefined;
  private readonly listeners = new Set<FollowSetListener>();
  private readonly descriptions = new Map<string, DeploymentDescription>();
  /** The first deployments' descriptions, until read (or failed): the first lines wait for them. */
  private describing: Promise<void> | undefined;

  constructor(private readonly options: FollowSetOptions) {
    this.follow = options.follow ?? true;
    this.relister = options.relisting ? new Relister(options.relisting) : undefined;
  }

  /** Hears what the set does from now on, until the returned function is called. */
  listen(listener: FollowSetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Follows these deployments too (each once; those followed already are passed over) and
   * labels the set anew. After the start they are polled at once, once prepared.
   */
  add(deploymentIds: readonly string[]): FollowMember[] {
    const fresh = [...new Set(deploymentIds)].filter((id) => !this.entries.has(id));
    if (fresh.length === 0) return [];
    const labelOf = this.labeller([...this.entries.keys(), ...fresh]);
    this.group.relabel(labelOf);
    const added: Entry[] = [];
    for (const id of fresh) {
      const entry = this.entryFor(id, labelOf(id));
      this.entries.set(id, entry);
      this.group.add(entry.member);
      added.push(entry);
    }
    this.reindex();
    for (const e of added) this.tell((l) => l.onAdded?.(e.member));
    const described = this.describeNew(fresh);
    if (this.started) {
      // Polled once prepared and described (its first lines carry its label as described).
      for (const e of added) {
        const prepared = this.options.prepare?.(e.member.deploymentId);
        this.run(e, 0, Promise.all([prepared, this.describedWithin(described)]).then());
      }
    }
    if (!this.started)
      this.describing = this.describing
        ? Promise.all([this.describing, described]).then()
        : described;
    return added.map((e) => e.member);
  }

  /** What a followed deployment is, as Turnkey's records said it (nothing before they answer). */
  descriptionOf(deploymentId: string): DeploymentDescription | undefined {
    return this.descriptions.get(deploymentId);
  }

  /** Reads what new deployments are and labels the set anew once it knows; never rejects. */
  private async describeNew(ids: readonly string[]): Promise<void> {
    const describe = this.options.describe;
    if (!describe || ids.length === 0) return;
    const signal = this.stopping.signal;
    try {
      const found = await describe(ids, signal, this.options.limit);
      if (signal.aborted) return;
      for (const id of ids) {
        const d = found.get(id);
        if (d) this.descriptions.set(id, d);
      }
      this.relabel();
    } catch {
      // Labels stay the ids' prefixes: the follow itself says what is wrong with a deployment.
    }
  }

  /** Resolves when `described` has, or after FIRST_ANSWERS_WAIT_MS, or at stop. */
  private describedWithin(described: Promise<void>): Promise<void> {
    if (!this.options.describe) return described;
    const waited = new AbortController();
    const signal = AbortSignal.any([this.stopping.signal, waited.signal]);
    const timeout = (this.options.sleep ?? sleep)(FIRST_ANSWERS_WAIT_MS, signal);
    return Promise.race([described, timeout]).finally(() => waited.abort());
  }

  /** Each deployment's label among `ids`: its short id, and what it is when known. */
  private labeller(ids: readonly string[]): (id: string) => string {
    const labels = shortLabels(ids);
    return (id) => describedLabel(labels.get(id) ?? id, this.descriptions.get(id));
  }

  /** No longer follows the deployment (its follower stops), and labels the set anew. */
  remove(deploymentId: string): FollowMember | undefined {
    const member = this.drop(deploymentId);
    if (member) this.relabel();
    return member;
  }

  /** The deployments followed, in the order they were taken on, each labelled as now. */
  members(): readonly FollowMember[] {
    return this.group.members();
  }

  /** A followed deployment's label now (its id if it is not followed). */
  labelOf(deploymentId: string): string {
    return this.entries.get(deploymentId)?.member.label ?? deploymentId;
  }

  /**
   * Starts following (once): the first polls go out together (within the limit), so every
   * deployment's lines come at once; from the second on they are spread over the interval.
   * With a relisting, the deployments are listed again every `everyMs` while following.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    const entries = [...this.entries.values()];
    const waited = [...this.entries.keys()];
    const describing = this.describing;
    if (describing) waited.push(FollowSet.DESCRIBED);
    this.firstAnswers = new FirstAnswers(waited, this.options.clock ?? systemClock);
    void describing?.then(() => this.firstAnswers?.settled(FollowSet.DESCRIBED));
    const leftOut = this.relister?.atStart();
    if (leftOut) this.tell((l) => l.onLeftOut?.(leftOut.line, leftOut.count));
    const spread = this.follow ? this.options.intervalMs / entries.length : 0;
    // The first polls wait for the descriptions (FIRST_ANSWERS_WAIT_MS at most): every line is
    // labelled as described, the first ones too.
    const described = this.describing && this.describedWithin(this.describing);
    for (const [i, e] of entries.entries()) this.run(e, Math.round(i * spread), described);
    if (this.relister && this.follow) this.relisting = this.relistEvery(this.relister);
  }

  /**
   * Whether the deployments of the start have all answered (or failed, or gone away), or the
   * wait for them is over: a merged stream prints nothing before.
   */
  firstAnswersIn(): boolean {
    return this.firstAnswers?.over() ?? false;
  }

  /** A name the first deployments' descriptions wait under among the first answers. */
  private static readonly DESCRIBED = "\u0000described";

  /**
   * Lists the deployments again (now): follows those that appeared, within the cap, and lets go
   * those no longer listed, telling the listeners each.
   */
  async relist(): Promise<void> {
    const relister = this.relister;
    if (!relister) return;
    const signal = this.stopping.signal;
    let listed: string[];
    try {
      listed = await relister.list(signal, this.options.limit);
    } catch (err) {
      if (!signal.aborted) this.tell((l) => l.onRelistFailed?.(err));
      return;
    }
    if (signal.aborted) return;
    const { change, leftOut } = relister.relisted([...this.entries.keys()], listed);
    for (const id of change.gone) {
      const member = this.drop(id);
      if (member) this.tell((l) => l.onGone?.(member));
    }
    if (leftOut) this.tell((l) => l.onLeftOut?.(leftOut.line, leftOut.count));
    if (change.added.length === 0) {
      this.relabel();
      return;
    }
    for (const member of this.add(change.added)) this.tell((l) => l.onAppeared?.(member));
  }

  /**
   * Resolves when every deployment's follow has ended (those taken on meanwhile too), and the
   * first deployments' descriptions are in (or failed, or waited for as long as the first
   * answers): a follow without -f labels its lines.
   */
  async done(): Promise<void> {
    if (this.describing) await this.describedWithin(this.describing);
    for (;;) {
      const running = [...this.entries.values()].map((e) => e.running);
      await Promise.all(running);
      if ([...this.entries.values()].every((e) => running.includes(e.running))) return;
    }
  }

  /** Stops following every deployment and listing them; resolves when all have stopped. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.group.close();
    await Promise.allSettled([...this.entries.values()].map((e) => e.running));
    await this.relisting;
  }

  subscribe(listener: () => void): () => void {
    return this.group.subscribe(listener);
  }

  getState(): FollowerState {
    return this.group.getState();
  }

  retryNow(): void {
    this.group.retryNow();
  }

  monotonicNow(): number {
    return this.group.monotonicNow();
  }

  private entryFor(deploymentId: string, label: string): Entry {
    const limit = this.options.limit;
    const follower = new LogFollower({
      ...this.options.followerOptions(deploymentId),
      // The slot is taken before the window is planned: waiting for it costs nothing.
      acquireSlot: () => limit.acquire(),
    });
    const entry: Entry = {
      member: { deploymentId, label, follower },
      controller: new AbortController(),
      running: undefined,
    };
    // A deployment let go still hands on what its follower held when it stopped.
    follower.onEvents((events) => this.tell((l) => l.onBatch?.(entry.member, events)));
    follower.subscribe(() => {
      if (follower.getState().lastSuccessAt !== undefined) this.firstAnswers?.settled(deploymentId);
    });
    return entry;
  }

  private run(entry: Entry, delayMs: number, prepared?: Promise<void>): void {
    const signal = AbortSignal.any([this.stopping.signal, entry.controller.signal]);
    const { deploymentId, follower } = entry.member;
    entry.running = (async () => {
      try {
        await prepared;
        if (signal.aborted) return;
        await follower.run(signal, this.follow, delayMs);
      } catch (err) {
        if (!(err instanceof FollowerStopError)) throw err;
        this.tell((l) => l.onFailed?.(entry.member, err));
      } finally {
        this.firstAnswers?.settled(deploymentId);
      }
    })();
  }

  private async relistEvery(relister: Relister): Promise<void> {
    const signal = this.stopping.signal;
    const wait = this.options.sleep ?? sleep;
    while (!signal.aborted) {
      await wait(relister.everyMs, signal);
      if (signal.aborted) return;
      await this.relist();
    }
  }

  private tell(what: (listener: FollowSetListener) => void): void {
    for (const l of this.listeners) what(l);
  }

  /** Lets a deployment go, its label as it was. */
  private drop(deploymentId: string): FollowMember | undefined {
    const entry = this.entries.get(deploymentId);
    if (!entry) return undefined;
    entry.controller.abort();
    this.entries.delete(deploymentId);
    this.descriptions.delete(deploymentId);
    this.group.remove(deploymentId);
    this.firstAnswers?.settled(deploymentId);
    return entry.member;
  }

  private relabel(): void {
    this.group.relabel(this.labeller([...this.entries.keys()]));
    this.reindex();
  }

  /** Each entry's member as the group holds it now (a new object when relabelled). */
  private reindex(): void {
    for (const m of this.group.members()) {
      const entry = this.entries.get(m.deploymentId);
      if (entry) entry.member = m;
    }
  }
}
