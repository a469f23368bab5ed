/**
 * Everything the dashboard reads, built on the client by the CLI and handed to the TUI, which
 * never calls the API itself: the side-pane pollers, the deployment list, a deployment's name,
 * and a log session (store and follower) for a deployment.
 */
import type { TurnkeyClient } from "../api/client.js";
import type { Activity } from "../api/schemas.js";
import { shortLabels } from "../tail/deployment-labels.js";
import { FollowerStopError, LogFollower } from "../tail/follower.js";
import { FollowerGroup, type FollowSource, type GroupMember } from "../tail/follower-group.js";
import type { StoreEvent } from "../tail/log-line.js";
import { LogStore } from "../tail/log-store.js";
import { ReplicaActivity, type ReplicaSnapshots } from "../tail/replica-activity.js";
import { RequestLimit } from "../tail/request-limit.js";
import type { VoteAction } from "./activity-decision.js";
import type { LoadedContext } from "./decision-context.js";
import { loadDecisionContext } from "./decision-context.js";
import type { DeploymentChoice } from "./deployment-list.js";
import { deploymentChoice, listDeploymentChoices } from "./deployment-list.js";
import type { Feeds } from "./feeds.js";
import { createFeeds } from "./feeds.js";

export interface LogSession {
  store: LogStore;
  /** The follow: one deployment's follower, or several as one (their worst phase, summed rates). */
  follower: FollowSource;
  /** Each deployment followed, with its short label and own follower (one: the follower above). */
  members: readonly GroupMember[];
  /** Each replica's counts, sparkline and lifecycle (markers go into the store with the lines). */
  replicas: ReplicaSnapshots;
  /** Starts following (once). */
  start(): void;
  /** Stops following; resolves when the follower has stopped. */
  stop(): Promise<void>;
}

/** Voting from the dashboard: who is asking and the quorum, and the vote itself. */
export interface ActivityVoting {
  /** Whoami, the root quorum and users' names (the last two optional, with notes). */
  loadContext(signal?: AbortSignal): Promise<LoadedContext>;
  /** approve_activity or reject_activity on the fingerprint; the activity as the API answers. */
  vote(action: VoteAction, fingerprint: string, signal?: AbortSignal): Promise<Activity>;
}

export interface DashboardSources {
  feeds: Feeds;
  voting: ActivityVoting;
  listDeployments(signal?: AbortSignal): Promise<DeploymentChoice[]>;
  /** The deployment's app and state, for the title; undefined when it cannot be told. */
  describeDeployment(id: string, signal?: AbortSignal): Promise<DeploymentChoice | undefined>;
  /** A log session over one deployment or several (merged by timestamp in one store). */
  openLogs(deploymentIds: readonly string[]): LogSession;
}

/** Requests in flight at once when the dashboard follows several deployments. */
export const DASHBOARD_MAX_CONCURRENT = 4;

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export interface SourceOptions {
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  intervalMs: number;
  sinceMs: number;
  bufferLines: number;
}

export function createDashboardSources(
  client: TurnkeyClient,
  options: SourceOptions,
): DashboardSources {
  return {
    feeds: createFeeds(client, options),
    voting: {
      loadContext: (signal) => loadDecisionContext(client, Date.now, { signal }),
      async vote(action, fingerprint, signal) {
        // One body, built once: a retry resends it byte for byte, and the API's idempotency
        // answers it with the same activity rather than counting a second vote.
        const answer = await client.call(
          action === "approve" ? "approve_activity" : "reject_activity",
          { fingerprint },
          { signal },
        );
        return answer.activity;
      },
    },
    listDeployments: (signal) => listDeploymentChoices(client, signal),
    async describeDeployment(id, signal) {
      try {
        const { tvcDeployment } = await client.call(
          "get_tvc_deployment",
          { deploymentId: id },
          { signal },
        );
        const { tvcApps } = await client.call("list_tvc_apps", {}, { signal });
        const app = tvcApps.find((a) => a.id === tvcDeployment.appId);
        return app ? deploymentChoice(app, tvcDeployment) : undefined;
      } catch {
        // The title keeps the id; the log follower reports what is wrong with the deployment.
        return undefined;
      }
    },
    openLogs(deploymentIds) {
      const store = new LogStore({ maxLines: options.bufferLines });
      const labels = shortLabels(deploymentIds);
      const several = deploymentIds.length > 1;
      // One limit on requests in flight across the deployments, as `tail --max-concurrent`.
      const limit = several ? new RequestLimit(DASHBOARD_MAX_CONCURRENT) : undefined;
      const parts = deploymentIds.map((deploymentId) => {
        const label = labels.get(deploymentId) ?? deploymentId;
        const follower = new LogFollower({
          fetchLogs: (request, callOptions) =>
            client.callWithMeta(
              "get_tvc_deployment_debug_logs",
              { deploymentId, ...request },
              callOptions,
            ),
          acquireSlot: limit ? () => limit.acquire() : undefined,
          intervalMs: options.intervalMs,
          sinceMs: options.sinceMs,
        });
        const replicas = new ReplicaActivity();
        follower.onEvents((events) => {
          const markers = replicas.observe(events);
          // Several deployments: each line says which, by id and by label before its replica.
          const tagged: StoreEvent[] = several
            ? [...events, ...markers].map((e) =>
                e.kind === "gap"
                  ? e
                  : { ...e, deploymentId, replicaLabel: `${label} ${e.replicaLabel}` },
              )
            : [...events, ...markers];
          // One batch in time order: markers sit among the lines they are about.
          if (markers.length > 0) tagged.sort((a, b) => a.sortKey - b.sortKey);
          store.append(tagged);
        });
        return { deploymentId, label, follower, replicas };
      });
      const only = parts[0];
      if (only === undefined) throw new Error("openLogs needs a deployment");
      const group = several ? new FollowerGroup(parts) : undefined;
      const controller = new AbortController();
      let running: Promise<void> | undefined;
      return {
        store,
        follower: group ?? only.follower,
        members: parts.map(({ deploymentId, label, follower }) => ({
          deploymentId,
          label,
          follower,
        })),
        replicas: {
          snapshot: (buckets) =>
            parts.flatMap((p) =>
              p.replicas
                .snapshot(buckets)
                .map((r) => (several ? { ...r, label: `${p.label} ${r.label}` } : r)),
            ),
        },
        start() {
          running ??= Promise.all(
            parts.map(async (p, i) => {
              // Spread over the interval: the deployments' polls do not go out together.
              const delay = Math.round((i * options.intervalMs) / parts.length);
              if (delay > 0) await abortableDelay(delay, controller.signal);
              if (controller.signal.aborted) return;
              await p.follower.run(controller.signal, true).catch((err) => {
                // The dashboard shows a failure that ends the follow in its status line.
                if (!(err instanceof FollowerStopError)) throw err;
              });
            }),
          ).then(() => undefined);
        },
        async stop() {
          controller.abort();
          group?.close();
          await running;
        },
      };
    },
  };
}
