/**
 * The dashboard's log session (dashboard-sources.ts, LogSession) over a follow-set
 * (../tail/follow-set/): every deployment's lines in one store, with its replicas' lifecycle
 * markers among them and, when there are several deployments, each replica tagged with its
 * deployment's label; and what the set tells (a deployment appeared or is no longer listed, how
 * many `--max-deployments` leaves out) as markers in the log at the server's time.
 */

import type { LogEvent, StoreEvent } from "../logs/model/log-line.js";
import { LogStore } from "../logs/model/log-store.js";
import {
  ReplicaActivity,
  type ReplicaSnapshots,
  type ReplicaStats,
  relabelled,
} from "../logs/model/replica-activity.js";
import type { FollowSet } from "../tail/follow-set/follow-set.js";
import type { FollowMember, FollowSetListener } from "../tail/follow-set/follow-set-listener.js";
import type { FollowSource } from "../tail/follower-group.js";
import type { DeploymentHealthFeed } from "./deployment-health.js";

export class FollowSetSession implements FollowSetListener {
  readonly store: LogStore;
  /** The deployments' followers as one, each with its label and own follower in `members()`. */
  readonly follower: FollowSource;
  readonly replicas: ReplicaSnapshots;
  /** Each followed deployment's replicas. */
  private readonly activity = new Map<string, ReplicaActivity>();

  /**
   * `several`: the lines of more than one deployment (or of an app's, which may become several)
   * are in the store, each replica tagged with its deployment's label.
   */
  constructor(
    private readonly set: FollowSet,
    bufferLines: number,
    private readonly several: boolean,
    /** The deployments' health, polled while following. */
    readonly health?: DeploymentHealthFeed,
  ) {
    this.store = new LogStore({ maxLines: bufferLines });
    this.follower = set;
    this.replicas = { snapshot: (buckets) => this.snapshot(buckets) };
    set.listen(this);
  }

  /** Starts following (once). */
  start(): void {
    this.set.start();
    this.health?.start();
  }

  /** Stops following; resolves when every follower has stopped. */
  stop(): Promise<void> {
    this.health?.stop();
    return this.set.stop();
  }

  onAdded(m: FollowMember): void {
    this.activity.set(m.deploymentId, new ReplicaActivity());
  }

  onBatch(m: FollowMember, events: LogEvent[]): void {
    const markers = this.activity.get(m.deploymentId)?.observe(events) ?? [];
    const all = [...events, ...markers];
    const tagged: StoreEvent[] = this.several
      ? all.map((e) =>
          e.kind === "gap"
            ? e
            : { ...e, deploymentId: m.deploymentId, replicaLabel: `${m.label} ${e.replicaLabel}` },
        )
      : all;
    // One batch in time order: markers sit among the lines they are about.
    if (markers.length > 0) tagged.sort((x, y) => x.sortKey - y.sortKey);
    this.store.append(tagged);
  }

  onAppeared(m: FollowMember): void {
    this.mark(`deployment ${m.deploymentId} appeared: following it as ${m.label}`, m);
  }

  onGone(m: FollowMember): void {
    this.activity.delete(m.deploymentId);
    this.mark(
      `deployment ${m.deploymentId} is no longer listed (or left debug mode): no longer followed`,
      m,
    );
  }

  onLeftOut(line: string): void {
    this.mark(line);
  }

  /**
   * A marker in the log at the server's time now: about a deployment (under its label), or
   * about the follow as a whole (under `tvcwatch`).
   */
  private mark(text: string, about?: FollowMember): void {
    const offset = this.set.getState().clockOffsetMs ?? 0;
    this.store.append([
      {
        kind: "replica",
        replicaLabel: about?.label ?? "tvcwatch",
        text,
        sortKey: Date.now() + offset,
        ...(about ? { deploymentId: about.deploymentId } : {}),
      },
    ]);
  }

  private snapshot(buckets?: number): ReplicaStats[] {
    return this.set.members().flatMap((m) => {
      const stats = this.activity.get(m.deploymentId)?.snapshot(buckets) ?? [];
      return this.several ? stats.map((r) => relabelled(r, `${m.label} ${r.label}`)) : stats;
    });
  }
}
