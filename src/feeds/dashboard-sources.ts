/**
 * Everything the dashboard reads, built on the client by the CLI and handed to the TUI, which
 * never calls the API itself: the side-pane pollers, the deployment list, a deployment's name,
 * and a log session (store and follower) for a deployment.
 */

import type { VoteAction } from "../activity/activity-decision.js";
import type { LoadedContext } from "../activity/decision-context.js";
import { loadDecisionContext } from "../activity/decision-context.js";
import { contractInterfaceSource } from "../activity/decode/contract-interfaces.js";
import { IntentDecoder } from "../activity/decode/intent-decoder.js";
import { OrganizationDirectory, type OrganizationNames } from "../activity/organization-names.js";
import type { TurnkeyClient } from "../api/client.js";
import type { Activity } from "../api/schemas.js";
import type { LogStore } from "../logs/model/log-store.js";
import type { ReplicaSnapshots } from "../logs/model/replica-activity.js";
import type { ListingCount } from "../tail/follow-set/deployment-cap.js";
import { FollowSet } from "../tail/follow-set/follow-set.js";
import type { TimeRange } from "../tail/follower.js";
import type { FollowSource } from "../tail/follower-group.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../tail/request-limit.js";
import { debugLogFetch } from "../tail/wire/debug-log-fetch.js";
import { DeploymentHealthFeed } from "./deployment-health.js";
import type { DeploymentChoice } from "./deployment-list.js";
import { deploymentChoice, describeDeployments, listDeploymentChoices } from "./deployment-list.js";
import type { Feeds } from "./feeds.js";
import { createFeeds } from "./feeds.js";
import { FollowSetSession } from "./log-session.js";

export interface LogSession {
  store: LogStore;
  /**
   * The follow: the deployments' followers as one (their worst phase, summed rates), each
   * deployment with its label and own follower in `members()`.
   */
  follower: FollowSource;
  /** Each replica's counts, sparkline and lifecycle (markers go into the store with the lines). */
  replicas: ReplicaSnapshots;
  /**
   * The followed deployments' health as Turnkey records it (get_app_status of their apps),
   * polled with the follow, and its record of changes; absent: not polled.
   */
  health?: DeploymentHealthFeed | undefined;
  /** Starts following (once). */
  start(): void;
  /** Stops following; resolves when the follower has stopped. */
  stop(): Promise<void>;
}

/** Voting from the dashboard: who is asking and the quorum, and the vote itself. */
export interface ActivityVoting {
  /** Whoami, the root quorum and the organization's names (the last two optional, with notes). */
  loadContext(signal?: AbortSignal): Promise<LoadedContext>;
  /**
   * The organization's names read again when the last reading is old enough
   * (src/activity/organization-names.ts); undefined when it is not due. Absent: read once.
   */
  refreshNames?(signal?: AbortSignal): Promise<OrganizationNames> | undefined;
  /** approve_activity or reject_activity on the fingerprint; the activity as the API answers. */
  vote(action: VoteAction, fingerprint: string, signal?: AbortSignal): Promise<Activity>;
}

export interface DashboardSources {
  feeds: Feeds;
  voting: ActivityVoting;
  /** What the activities ask to sign, decoded (ABIs and IDLs read once, when one is needed). */
  decoder?: IntentDecoder | undefined;
  listDeployments(signal?: AbortSignal): Promise<DeploymentChoice[]>;
  /** The deployment's app and state, for the title; undefined when it cannot be told. */
  describeDeployment(id: string, signal?: AbortSignal): Promise<DeploymentChoice | undefined>;
  /**
   * A log session over one deployment or several (merged by timestamp in one store); with
   * `watch` (`--app`, `--all`) the deployments are listed again every 30 s: new ones followed,
   * gone ones no longer, each said in the log.
   */
  openLogs(deploymentIds: readonly string[], watch?: DeploymentWatch): LogSession;
}

/** What to list again while following an app's or the organization's deployments. */
export interface DeploymentWatch {
  /** The deployments listed now, in order; the listing takes slots of the session's `limit`. */
  relist(signal: AbortSignal, limit?: RequestLimit): Promise<string[]>;
  /** How the scope is named to a person (`--app payments-signer`, `--all`). */
  label?: string;
  /** Default 30 s. */
  everyMs?: number;
  /** The most deployments followed (`--max-deployments`); default 50. */
  maxDeployments?: number;
  /** What the first listing had and left out (said in the log when the session starts). */
  atStart?: ListingCount;
}

export interface SourceOptions {
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  intervalMs: number;
  sinceMs: number;
  /** Only lines stamped from a time on (`--since 20:33`): the follower's range. */
  range?: TimeRange | undefined;
  bufferLines: number;
  /** Requests in flight at once over several deployments (`--max-concurrent`); default 4. */
  maxConcurrent?: number | undefined;
}

export function createDashboardSources(
  client: TurnkeyClient,
  options: SourceOptions,
): DashboardSources {
  // One reading of the organization's names for the dashboard, refreshed as it ages.
  const directory = new OrganizationDirectory(client);
  return {
    feeds: createFeeds(client, options),
    decoder: new IntentDecoder(contractInterfaceSource(client)),
    voting: {
      loadContext: (signal) => loadDecisionContext(client, Date.now, { signal }, directory),
      refreshNames: (signal) => (directory.due() ? directory.load({ signal }) : undefined),
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
    listDeployments: (signal) =>
      listDeploymentChoices(client, signal, undefined, undefined, { health: true }),
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
    openLogs(deploymentIds, watch) {
      // One limit on requests in flight across the deployments, as `tail --max-concurrent`: their
      // polls, the relists and the health polls.
      const limit = new RequestLimit(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
      const set = new FollowSet({
        followerOptions: (deploymentId) => ({
          fetchLogs: debugLogFetch(client, deploymentId),
          intervalMs: options.intervalMs,
          sinceMs: options.sinceMs,
          range: options.range,
          // The buffer keeps bufferLines lines: the first window (--since of history) need not
          // bring more per replica, however busy the deployment. Older lines cut off are
          // reported as a gap.
          tailLines: options.bufferLines,
        }),
        intervalMs: options.intervalMs,
        // Each deployment's version and role, for its label (as `tail`).
        describe: (ids, signal, slots) => describeDeployments(client, ids, signal, slots),
        limit,
        relisting: watch && {
          list: (signal, limit) => watch.relist(signal, limit),
          everyMs: watch.everyMs,
          maxDeployments: watch.maxDeployments,
          atStart: watch.atStart,
        },
      });
      // Several deployments (or an app's, which may become several): each line says which.
      const several = deploymentIds.length > 1 || watch !== undefined;
      // The apps' status, polled as often as the email pane; an app is known once its
      // deployment's record was read (`describe`).
      const health = new DeploymentHealthFeed({
        client,
        apps: () =>
          set
            .members()
            .flatMap((m) => set.descriptionOf(m.deploymentId)?.appId ?? [])
            .filter((id) => id !== ""),
        intervalMs: Math.max(1000, options.intervalMs) * 2,
        limit,
      });
      const session = new FollowSetSession(set, options.bufferLines, several, health);
      set.add(deploymentIds);
      return session;
    },
  };
}
