/**
 * Everything the dashboard reads, built on the client by the CLI and handed to the TUI, which
 * never calls the API itself: the side-pane pollers, the deployment list, a deployment's name,
 * and a log session (store and follower) for a deployment.
 */
import type { TurnkeyClient } from "../api/client.js";
import type { Activity } from "../api/schemas.js";
import { FollowerStopError, LogFollower } from "../tail/follower.js";
import type { StoreEvent } from "../tail/log-line.js";
import { LogStore } from "../tail/log-store.js";
import { ReplicaActivity } from "../tail/replica-activity.js";
import type { VoteAction } from "./activity-decision.js";
import type { LoadedContext } from "./decision-context.js";
import { loadDecisionContext } from "./decision-context.js";
import type { DeploymentChoice } from "./deployment-list.js";
import { deploymentChoice, listDeploymentChoices } from "./deployment-list.js";
import type { Feeds } from "./feeds.js";
import { createFeeds } from "./feeds.js";

export interface LogSession {
  store: LogStore;
  follower: LogFollower;
  /** Each replica's counts, sparkline and lifecycle (markers go into the store with the lines). */
  replicas: ReplicaActivity;
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
  openLogs(deploymentId: string): LogSession;
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
    openLogs(deploymentId) {
      const store = new LogStore({ maxLines: options.bufferLines });
      const follower = new LogFollower({
        fetchLogs: (request, callOptions) =>
          client.callWithMeta(
            "get_tvc_deployment_debug_logs",
            { deploymentId, ...request },
            callOptions,
          ),
        intervalMs: options.intervalMs,
        sinceMs: options.sinceMs,
      });
      const replicas = new ReplicaActivity();
      follower.onEvents((events) => {
        const markers = replicas.observe(events);
        if (markers.length === 0) return store.append(events);
        // One batch in time order: markers sit among the lines they are about.
        const all: StoreEvent[] = [...events, ...markers];
        all.sort((a, b) => a.sortKey - b.sortKey);
        store.append(all);
      });
      const controller = new AbortController();
      let running: Promise<void> | undefined;
      return {
        store,
        follower,
        replicas,
        start() {
          running ??= follower.run(controller.signal, true).catch((err) => {
            // The dashboard shows a failure that ends the follow in its status line.
            if (!(err instanceof FollowerStopError)) throw err;
          });
        },
        async stop() {
          controller.abort();
          await running;
        },
      };
    },
  };
}
