/**
 * Deployment health as Turnkey's records say it (get_app_status): each deployment's ready and
 * desired replicas, and the deployment its app targets (the one serving traffic).
 *
 * - `appHealth` reads one app's status into each deployment's health (the picker's rows, and
 *   every poll).
 * - `HealthRecord` keeps the latest status of each app and the record of how it changed over
 *   time: ready or desired replicas changing, a deployment appearing in or leaving the status,
 *   the targeted deployment changing. An app's first status is where its record starts, not a
 *   change. Each change carries when it was seen (this machine's clock), the server's Date of the
 *   answer, and for replicas the cluster's own lastUpdatedTime. Bounded: the oldest changes go
 *   first.
 * - `DeploymentHealthFeed` polls the apps of the deployments followed (one get_app_status per
 *   app, each within the follow's request limit) into the record and publishes what it holds
 *   for the dashboard. An answer about another app than asked is not used, and says so.
 */
import { timestampMs } from "../activity/activity-fields.js";
import type { TurnkeyClient } from "../api/client.js";
import { type Clock, systemClock } from "../api/clock.js";
import type { AppStatus } from "../api/schemas.js";
import type { RequestLimit } from "../tail/request-limit.js";
import { describeError, Poller } from "./poller.js";

/** Replicas as the cluster counts them. */
export interface Replicas {
  ready: number;
  desired: number;
}

/** One deployment's health, as its app's status said it. */
export interface DeploymentHealth extends Replicas {
  /** As received: what it is looked up by, never rendered from here. */
  deploymentId: string;
  appId: string;
  /** Its app targets it: it serves the app's traffic. */
  targeted: boolean;
  /** The cluster's lastUpdatedTime (server clock, epoch ms), when given and readable. */
  updatedAt: number | undefined;
}

/** When a change was seen: this machine's clock, and the server's Date of the answer. */
interface Seen {
  /** This machine's wall clock (epoch ms) when the answer came. */
  seenAt: number;
  /** The answer's Date header (epoch ms, whole seconds), when it had one. */
  serverDate: number | undefined;
}

export type HealthChange =
  /** A deployment's replicas changed; `from` undefined: it appeared, `to` undefined: it left. */
  | (Seen & {
      kind: "replicas";
      appId: string;
      deploymentId: string;
      from: Replicas | undefined;
      to: Replicas | undefined;
      /** The cluster's lastUpdatedTime for the deployment, when the status gave it. */
      updatedAt: number | undefined;
    })
  /** The app's targeted deployment changed (none: undefined). */
  | (Seen & {
      kind: "targeted";
      appId: string;
      from: string | undefined;
      to: string | undefined;
    });

/** The most changes a record keeps (the oldest go first). */
export const MAX_HEALTH_CHANGES = 1000;

/**
 * Each deployment of one app's status. A count left out is 0 (proto3 JSON leaves zeros out); a
 * deployment listed twice is taken once, as first listed.
 */
export function appHealth(status: AppStatus): Map<string, DeploymentHealth> {
  const out = new Map<string, DeploymentHealth>();
  const targeted = status.targetedDeploymentId || undefined;
  for (const d of status.deployments ?? []) {
    if (out.has(d.deploymentId)) continue;
    const updated = timestampMs(d.lastUpdatedTime);
    out.set(d.deploymentId, {
      deploymentId: d.deploymentId,
      appId: status.appId,
      ready: d.readyReplicas ?? 0,
      desired: d.desiredReplicas ?? 0,
      targeted: targeted !== undefined && d.deploymentId === targeted,
      updatedAt: updated !== undefined && Number.isFinite(updated) ? updated : undefined,
    });
  }
  return out;
}

/** One app's latest status as the record holds it. */
interface AppEntry {
  targeted: string | undefined;
  deployments: Map<string, DeploymentHealth>;
}

const sameReplicas = (a: Replicas | undefined, b: Replicas | undefined) =>
  a?.ready === b?.ready && a?.desired === b?.desired;

const replicasOf = (h: DeploymentHealth | undefined): Replicas | undefined =>
  h && { ready: h.ready, desired: h.desired };

export class HealthRecord {
  private readonly apps = new Map<string, AppEntry>();
  private readonly record: HealthChange[] = [];

  constructor(private readonly maxChanges = MAX_HEALTH_CHANGES) {}

  /** Takes an app's status in; what changed since its last one (nothing at its first). */
  observe(status: AppStatus, seen: Seen): HealthChange[] {
    const deployments = appHealth(status);
    const targeted = status.targetedDeploymentId || undefined;
    const before = this.apps.get(status.appId);
    this.apps.set(status.appId, { targeted, deployments });
    if (!before) return [];
    const changes: HealthChange[] = [];
    const appId = status.appId;
    for (const [id, now] of deployments) {
      const was = before.deployments.get(id);
      if (!sameReplicas(was, now)) {
        changes.push({
          ...seen,
          kind: "replicas",
          appId,
          deploymentId: id,
          from: replicasOf(was),
          to: replicasOf(now),
          updatedAt: now.updatedAt,
        });
      }
    }
    for (const [id, was] of before.deployments) {
      if (deployments.has(id)) continue;
      changes.push({
        ...seen,
        kind: "replicas",
        appId,
        deploymentId: id,
        from: replicasOf(was),
        to: undefined,
        updatedAt: undefined,
      });
    }
    if (before.targeted !== targeted) {
      changes.push({ ...seen, kind: "targeted", appId, from: before.targeted, to: targeted });
    }
    this.record.push(...changes);
    if (this.record.length > this.maxChanges)
      this.record.splice(0, this.record.length - this.maxChanges);
    return changes;
  }

  /** Every deployment's health now, by deployment id (a new map each time). */
  current(): Map<string, DeploymentHealth> {
    const out = new Map<string, DeploymentHealth>();
    for (const app of this.apps.values()) {
      for (const [id, h] of app.deployments) if (!out.has(id)) out.set(id, h);
    }
    return out;
  }

  /** The changes seen, oldest first (at most the record's bound). */
  changes(): readonly HealthChange[] {
    return this.record.slice();
  }
}

/** What the health feed publishes after each poll. */
export interface HealthView {
  /** Each deployment's health now, by deployment id (every deployment of the apps polled). */
  deployments: ReadonlyMap<string, DeploymentHealth>;
  /** The record of changes, oldest first. */
  changes: readonly HealthChange[];
  /** One line for each app whose status could not be read at the last poll. */
  problems: readonly string[];
  /** Apps polled at the last poll (0: the deployments' apps are not known yet). */
  apps: number;
}

export interface HealthFeedOptions {
  client: Pick<TurnkeyClient, "callWithMeta">;
  /** The apps to poll now: those of the deployments followed, as far as known. */
  apps: () => readonly string[];
  intervalMs: number;
  /** The follow's one limit on requests in flight. */
  limit: RequestLimit;
  clock?: Clock | undefined;
}

/** The health of the deployments followed, polled with their follow. */
export class DeploymentHealthFeed {
  readonly record = new HealthRecord();
  readonly poller: Poller<HealthView>;
  private readonly clock: Clock;
  private started = false;

  constructor(private readonly options: HealthFeedOptions) {
    this.clock = options.clock ?? systemClock;
    this.poller = new Poller<HealthView>({
      intervalMs: options.intervalMs,
      fetch: (signal) => this.poll(signal),
      clock: this.clock,
    });
  }

  get store() {
    return this.poller.store;
  }

  /** Starts polling (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.poller.start();
  }

  stop(): void {
    this.poller.stop();
  }

  /** Polls once now; resolves when the store has the result. */
  pollOnce(): Promise<void> {
    return this.poller.pollOnce();
  }

  /**
   * One get_app_status per app, each within the limit; every answer is taken into the record.
   * Fails (the feed's error state, and its back-off) only when no app answered.
   */
  private async poll(signal: AbortSignal): Promise<HealthView> {
    const apps = [...new Set(this.options.apps())];
    const answers = await Promise.allSettled(
      apps.map((appId) =>
        this.options.limit.run(() =>
          this.options.client.callWithMeta("get_app_status", { appId }, { signal }),
        ),
      ),
    );
    const problems: string[] = [];
    let answered = 0;
    for (const [i, answer] of answers.entries()) {
      const appId = apps[i] as string;
      if (answer.status === "rejected") {
        problems.push(`app ${appId}: ${describeError(answer.reason)}`);
        continue;
      }
      const { data, meta } = answer.value;
      if (data.appStatus.appId !== appId) {
        problems.push(
          `app ${appId}: get_app_status answered about app ${data.appStatus.appId}, not used`,
        );
        continue;
      }
      answered++;
      this.record.observe(data.appStatus, {
        seenAt: this.clock.now(),
        serverDate: meta.serverDate,
      });
    }
    if (apps.length > 0 && answered === 0) throw new Error(problems.join("; "));
    return {
      deployments: this.record.current(),
      changes: this.record.changes(),
      problems,
      apps: apps.length,
    };
  }
}
