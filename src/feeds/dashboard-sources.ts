/**
 * Everything the dashboard reads, built on the client by the CLI and handed to the TUI, which
 * never calls the API itself: the side-pane pollers, the deployment list, a deployment's name,
 * and a log session (store and follower) for a deployment.
 */

import type { VoteAction } from "../activity/activity-decision.js";
import type { LoadedContext } from "../activity/decision-context.js";
import { loadDecisionContext } from "../activity/decision-context.js";
import type { TurnkeyClient } from "../api/client.js";
import type { Activity } from "../api/schemas.js";
import { shortLabels } from "../tail/deployment-labels.js";
import { FollowerStopError, LogFollower } from "../tail/follower.js";
import { FollowerGroup, type FollowSource, type GroupMember } from "../tail/follower-group.js";
import type { StoreEvent } from "../tail/log-line.js";
import { LogStore } from "../tail/log-store.js";
import { ReplicaActivity, type ReplicaSnapshots } from "../tail/replica-activity.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../tail/request-limit.js";
import { debugLogFetch } from "../tail/wire/debug-log-fetch.js";
import {
  DEFAULT_MAX_DEPLOYMENTS,
  type ListingCount,
  leftOutLine,
  relistChange,
} from "./deployment-cap.js";
import type { DeploymentChoice } from "./deployment-list.js";
import { deploymentChoice, listDeploymentChoices, RELIST_MS } from "./deployment-list.js";
import type { Feeds } from "./feeds.js";
import { createFeeds } from "./feeds.js";

export interface LogSession {
  store: LogStore;
  /**
   * The follow: the deployments' followers as one (their worst phase, summed rates), each
   * deployment with its label and own follower in `members()`.
   */
  follower: FollowSource;
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

/** One deployment of a log session. */
interface Part {
  /** In the group; its follower is the deployment's, run by the session. */
  member: GroupMember & { follower: LogFollower };
  replicas: ReplicaActivity;
  /** Aborted when the deployment is no longer followed. */
  controller: AbortController;
  running: Promise<void> | undefined;
}

export interface SourceOptions {
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
  intervalMs: number;
  sinceMs: number;
  bufferLines: number;
  /** Requests in flight at once over several deployments (`--max-concurrent`); default 4. */
  maxConcurrent?: number | undefined;
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
    openLogs(deploymentIds, watch) {
      const store = new LogStore({ maxLines: options.bufferLines });
      // Several deployments (or an app's, which may become several): each line says which.
      const several = deploymentIds.length > 1 || watch !== undefined;
      // One limit on requests in flight across the deployments, as `tail --max-concurrent`.
      const limit = several
        ? new RequestLimit(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT)
        : undefined;
      const group = new FollowerGroup();
      const parts = new Map<string, Part>();
      const controller = new AbortController();
      let started = false;
      const open = (deploymentId: string, label: string): Part => {
        const follower = new LogFollower({
          fetchLogs: debugLogFetch(client, deploymentId),
          acquireSlot: limit ? () => limit.acquire() : undefined,
          intervalMs: options.intervalMs,
          sinceMs: options.sinceMs,
          // The buffer keeps bufferLines lines: the first window (--since of history) need not
          // bring more per replica, however busy the deployment. Older lines cut off are
          // reported as a gap.
          tailLines: options.bufferLines,
        });
        const replicas = new ReplicaActivity();
        follower.onEvents((events) => {
          const markers = replicas.observe(events);
          const tagged: StoreEvent[] = several
            ? [...events, ...markers].map((e) =>
                e.kind === "gap"
                  ? e
                  : { ...e, deploymentId, replicaLabel: `${label} ${e.replicaLabel}` },
              )
            : [...events, ...markers];
          // One batch in time order: markers sit among the lines they are about.
          if (markers.length > 0) tagged.sort((x, y) => x.sortKey - y.sortKey);
          store.append(tagged);
        });
        return {
          member: { deploymentId, label, follower },
          replicas,
          controller: new AbortController(),
          running: undefined,
        };
      };
      const run = (p: Part, delayMs: number) => {
        const signal = AbortSignal.any([controller.signal, p.controller.signal]);
        p.running = (async () => {
          // The first polls go out together (within --max-concurrent), so every deployment's
          // lines show at once; from the second on, they are spread over the interval.
          await p.member.follower.run(signal, true, delayMs).catch((err: unknown) => {
            // The dashboard shows a failure that ends the follow in its status line.
            if (!(err instanceof FollowerStopError)) throw err;
          });
        })();
      };
      const labels = shortLabels(deploymentIds);
      for (const id of deploymentIds) {
        const p = open(id, labels.get(id) ?? id);
        parts.set(id, p);
        group.add(p.member);
      }
      /** A marker in the log about a deployment, at the server's time now. */
      const say = (deploymentId: string, label: string, text: string) => {
        const offset = group.getState().clockOffsetMs ?? 0;
        store.append([
          {
            kind: "replica",
            replicaLabel: label,
            text,
            sortKey: Date.now() + offset,
            deploymentId,
          },
        ]);
      };
      /** A note in the log about the follow as a whole, at the server's time now. */
      const note = (text: string) => {
        const offset = group.getState().clockOffsetMs ?? 0;
        store.append([
          { kind: "replica", replicaLabel: "tvcwatch", text, sortKey: Date.now() + offset },
        ]);
      };
      /** Deployments listed but not followed, over --max-deployments (as last said). */
      let leftOut = watch?.atStart?.leftOut ?? 0;
      /** `--app` / `--all`: follow what appeared, stop following what went away. */
      const relist = async () => {
        if (!watch) return;
        let now: string[];
        try {
          now = await watch.relist(controller.signal, limit);
        } catch {
          // Listed again at the next turn; the followers go on meanwhile.
          return;
        }
        if (controller.signal.aborted) return;
        const max = watch.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS;
        const change = relistChange([...parts.keys()], now, max);
        for (const id of change.gone) {
          const p = parts.get(id);
          if (!p) continue;
          p.controller.abort();
          parts.delete(id);
          group.remove(id);
          say(
            id,
            p.member.label,
            `deployment ${id} is no longer listed (or left debug mode): no longer followed`,
          );
        }
        // Said again when the count left out changes, not at every relist.
        if (change.leftOut !== leftOut) {
          leftOut = change.leftOut;
          const line = leftOutLine(change, max);
          if (line) note(line);
        }
        const added = change.added;
        if (added.length === 0) return;
        const all = shortLabels([...parts.keys(), ...added]);
        for (const id of added) {
          const label = all.get(id) ?? id;
          const p = open(id, label);
          parts.set(id, p);
          group.add(p.member);
          say(id, label, `deployment ${id} appeared: following it as ${label}`);
          if (started) run(p, 0);
        }
      };
      let timer: ReturnType<typeof setInterval> | undefined;
      return {
        store,
        follower: group,
        replicas: {
          snapshot: (buckets) =>
            [...parts.values()].flatMap((p) =>
              p.replicas
                .snapshot(buckets)
                .map((r) => (several ? { ...r, label: `${p.member.label} ${r.label}` } : r)),
            ),
        },
        start() {
          if (started) return;
          started = true;
          const line = watch?.atStart
            ? leftOutLine(watch.atStart, watch.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS)
            : undefined;
          if (line) note(line);
          for (const [i, p] of [...parts.values()].entries()) {
            run(p, Math.round((i * options.intervalMs) / parts.size));
          }
          if (watch) timer = setInterval(() => void relist(), watch.everyMs ?? RELIST_MS);
        },
        async stop() {
          controller.abort();
          if (timer) clearInterval(timer);
          group.close();
          await Promise.all([...parts.values()].map((p) => p.running));
        },
      };
    },
  };
}
