/**
 * `tail` over several deployments (`--deployment` repeated, `--app APP_ID`, `--all`): each
 * deployment has its own exactly-once follower; one limit bounds the requests in flight
 * (`--max-concurrent`), the followers' first polls go out together (the first lines print as
 * soon as every deployment has answered) and the later ones are spread over the interval, and
 * their lines are merged by timestamp (./../../tail/cross-merge.ts) with a short
 * deployment label before the replica (`-o json` adds `deploymentId`). With `--app` or `--all`
 * the deployments are listed again every 30 s: new debug-mode ones are followed, and those that
 * go away are said on stderr. `--checkpoint` records every deployment's progress in one file
 * (format 2) after each merged batch reaches stdout; `-o otlp` gives each deployment its resource.
 */
import type { Command } from "commander";
import { debugDeployments, RELIST_MS } from "../../feeds/deployment-list.js";
import {
  type CheckpointSet,
  HandledLines,
  ResumeFilter,
  resumedBatches,
} from "../../tail/checkpoint.js";
import { CrossMerge } from "../../tail/cross-merge.js";
import { shortLabels } from "../../tail/deployment-labels.js";
import { FollowerStopError, LogFollower } from "../../tail/follower.js";
import type { LogEvent } from "../../tail/log-line.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../../tail/request-limit.js";
import { formatEvent } from "../../tail/stream-format.js";
import { debugLogFetch } from "../../tail/wire/debug-log-fetch.js";
import { stringifyForTerminal } from "../../text/terminal-json.js";
import { CliError } from "../cli-error.js";
import { clientFor, configFromCommand } from "../context.js";
import { deploymentsToFollow } from "../deployment-scope.js";
import { fatalAdvice } from "../follow-advice.js";
import { CheckpointWriter, readCheckpoints } from "./checkpoint-file.js";
import {
  checkpointMargin,
  firstWindow,
  lineFilter,
  sayOnStderr,
  statusReporter,
  streamFormatOf,
  TAIL_HOLD_BACK_MS,
} from "./run-tail.js";
import { StdoutBatch } from "./stdout-batch.js";
import type { TailFlags } from "./tail-flags.js";

/** How often merged lines are let out. */
const RELEASE_EVERY_MS = 250;
/** How long the first lines wait for every deployment's first answer, at most. */
const FIRST_ANSWERS_WAIT_MS = 10_000;

interface Followed {
  id: string;
  follower: LogFollower;
  controller: AbortController;
  running: Promise<void>;
  /** The deployment's own line filter (levels go with the lines before them, per replica). */
  keep: (e: LogEvent) => boolean;
}

type Tagged = LogEvent & { deploymentId: string };

export async function runManyTail(flags: TailFlags, cmd: Command): Promise<void> {
  const config = await configFromCommand(cmd);
  const client = clientFor(config);
  const say = sayOnStderr;
  const ids = await deploymentsToFollow(client, flags, undefined);
  // --checkpoint: each deployment resumes from its record; the merge holds lines an interval more.
  const checkpointPath = flags.checkpoint;
  const marginMs = checkpointMargin(flags, flags.interval);
  const recorded = checkpointPath ? readCheckpoints(checkpointPath, ids) : undefined;
  const handled = new Map<string, HandledLines>();
  const otlp =
    flags.output === "otlp"
      ? await (await import("./otlp-output.js")).openOtlpOutput(
          flags.otlpEndpoint,
          config.organizationId,
          ids,
          client,
          checkpointPath,
          say,
        )
      : undefined;
  const limit = new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const merge = new CrossMerge<Tagged>();
  const format = streamFormatOf(flags);
  let labels = shortLabels(ids);
  const followed = new Map<string, Followed>();
  const failures: string[] = [];
  // The deployments of the start that have not answered yet: their first windows reach back
  // further than the merge's hold, so nothing is printed before they have (or have failed, or
  // gone away), for FIRST_ANSWERS_WAIT_MS at most: one that keeps failing does not hold the
  // others' lines. One that appears later cannot be waited for: its first lines may be older
  // than some already printed.
  const unanswered = new Set(ids);
  const waitForFirstAnswersUntil = Date.now() + FIRST_ANSWERS_WAIT_MS;
  const follow = (id: string, delayMs: number) => {
    const record = recorded?.get(id);
    const resume = record ? new ResumeFilter(record, marginMs) : undefined;
    const { sinceMs, tailLines, gap } = firstWindow(flags, resume);
    const resumed = resumedBatches(resume, gap);
    if (checkpointPath) handled.set(id, new HandledLines(id, marginMs));
    const follower = new LogFollower({
      fetchLogs: debugLogFetch(client, id),
      // The slot is taken before the window is planned: waiting for it costs nothing.
      acquireSlot: () => limit.acquire(),
      intervalMs: flags.interval,
      overlapMs: flags.overlap,
      sinceMs,
      tailLines,
      holdBackMs: TAIL_HOLD_BACK_MS,
    });
    const entry: Followed = {
      id,
      follower,
      controller: new AbortController(),
      running: Promise.resolve(),
      keep: lineFilter(flags),
    };
    follower.onEvents((batch) => {
      const events = resumed(batch);
      merge.push(events.filter(entry.keep).map((e) => ({ ...e, deploymentId: id })));
    });
    const report = statusReporter(flags.verbose === true && flags.follow === true, (line) =>
      say(`${labels.get(id) ?? id}: ${line}`),
    );
    follower.subscribe(() => {
      const state = follower.getState();
      if (state.lastSuccessAt !== undefined) unanswered.delete(id);
      report(state, performance.now());
    });
    entry.running = (async () => {
      try {
        // The first polls go out together (within --max-concurrent): every deployment's lines
        // print as soon as all have answered. From the second on, spread over the interval.
        await follower.run(entry.controller.signal, flags.follow === true, delayMs);
      } catch (err) {
        if (!(err instanceof FollowerStopError)) throw err;
        const advice = fatalAdvice(err.cause) ?? err.message;
        failures.push(`${labels.get(id) ?? id}: ${advice}`);
        say(`${id}: ${advice}`);
      } finally {
        unanswered.delete(id);
      }
    })();
    followed.set(id, entry);
  };
  for (const [i, id] of ids.entries()) {
    follow(id, flags.follow ? Math.round((i * flags.interval) / ids.length) : 0);
  }

  /** Every deployment's record: what it handled since the start, else what FILE had for it. */
  const snapshot = (): CheckpointSet => ({
    format: 2,
    deployments: [...followed.keys()].flatMap((id) => {
      const c = handled.get(id)?.snapshot() ?? recorded?.get(id);
      return c ? [c] : [];
    }),
  });
  const writer = checkpointPath
    ? new CheckpointWriter<CheckpointSet>(checkpointPath, () => stop())
    : undefined;
  const record = (c: CheckpointSet) => writer?.record(c);
  /** Lines once printed (or exported) are handled: the checkpoint records them per deployment. */
  const noteHandled = (events: readonly Tagged[]) => {
    if (handled.size === 0) return;
    const byDeployment = new Map<string, Tagged[]>();
    for (const e of events) {
      if (e.kind !== "line") continue;
      const list = byDeployment.get(e.deploymentId);
      if (list) list.push(e);
      else byDeployment.set(e.deploymentId, [e]);
    }
    for (const [id, list] of byDeployment) handled.get(id)?.add(list);
  };
  const print = (events: Tagged[]) => {
    if (events.length === 0) return;
    noteHandled(events);
    if (otlp) {
      otlp.write(events, (gap) =>
        say(
          `${labels.get(gap.deploymentId) ?? gap.deploymentId}: ${formatEvent(gap, { ...format, colour: false })}`,
        ),
      );
      if (checkpointPath) otlp.afterBatch(snapshot(), record);
      return;
    }
    const out = new StdoutBatch();
    for (const e of events) {
      const label = labels.get(e.deploymentId) ?? e.deploymentId;
      if (e.kind === "gap") {
        const text = formatEvent(e, { ...format, colour: false });
        if (format.output === "text") say(`${label}: ${text}`);
        else out.add(`{"deploymentId":${stringifyForTerminal(e.deploymentId)},${text.slice(1)}`);
        continue;
      }
      out.add(
        format.output === "json"
          ? formatEvent(e, format)
          : formatEvent({ ...e, replicaLabel: `${label} ${e.replicaLabel}` }, format),
      );
    }
    // After what is written now reaches stdout, the record of it is written (in order).
    const c = checkpointPath ? snapshot() : undefined;
    out.end(c ? () => record(c) : undefined);
  };
  const serverNow = () => {
    const offsets = [...followed.values()].map((f) => f.follower.getState().clockOffsetMs ?? 0);
    return Date.now() + (offsets.length > 0 ? Math.min(...offsets) : 0);
  };
  const releaser = setInterval(() => {
    if (unanswered.size === 0 || Date.now() > waitForFirstAnswersUntil)
      print(merge.release(serverNow() - TAIL_HOLD_BACK_MS - flags.interval));
  }, RELEASE_EVERY_MS);
  const relister =
    flags.follow && (flags.app || flags.all)
      ? setInterval(() => {
          debugDeployments(client, flags).then(
            (now) => {
              const gone = [...followed.keys()].filter((id) => !now.includes(id));
              for (const id of gone) {
                say(
                  `deployment ${id} is no longer listed (or left debug mode): no longer followed`,
                );
                followed.get(id)?.controller.abort();
                followed.delete(id);
                unanswered.delete(id);
              }
              const added = now.filter((id) => !followed.has(id));
              labels = shortLabels([...followed.keys(), ...added]);
              for (const id of added) {
                say(`deployment ${id} appeared: following it as ${labels.get(id)}`);
                // Its lines need their resource before they come.
                void (otlp ? otlp.add(id) : Promise.resolve()).then(() => follow(id, 0));
              }
            },
            (err: unknown) =>
              say(`could not list the deployments again: ${(err as Error).message}`),
          );
        }, RELIST_MS)
      : undefined;
  const stop = () => {
    for (const f of followed.values()) f.controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    // Deployments added while running are awaited too.
    for (;;) {
      const running = [...followed.values()].map((f) => f.running);
      await Promise.all(running);
      if ([...followed.values()].every((f) => running.includes(f.running))) break;
    }
  } finally {
    clearInterval(releaser);
    if (relister) clearInterval(relister);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    print(merge.drain());
  }
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  await otlp?.close();
  if (writer?.error !== undefined) throw writer.error;
  if (failures.length === ids.length && failures.length > 0) {
    throw new CliError(failures[0] as string, 1);
  }
}
