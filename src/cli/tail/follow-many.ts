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
import { debugDeployments } from "../../feeds/deployment-list.js";
import type { CheckpointFile } from "../../tail/checkpoint.js";
import { CrossMerge } from "../../tail/cross-merge.js";
import { shortLabels } from "../../tail/deployment-labels.js";
import {
  DEFAULT_MAX_DEPLOYMENTS,
  leftOutLine,
  relistChange,
} from "../../tail/follow-set/deployment-cap.js";
import { RELIST_MS } from "../../tail/follow-set/relisting.js";
import { FollowerStopError, type FollowProgress, LogFollower } from "../../tail/follower.js";
import { StatusReporter } from "../../tail/follower-status.js";
import { HandledLines } from "../../tail/handled-lines.js";
import type { GapMarker, LogEvent } from "../../tail/log-line.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../../tail/request-limit.js";
import { formatEvent } from "../../tail/stream-format.js";
import { debugLogFetch } from "../../tail/wire/debug-log-fetch.js";
import { sayOnStderr } from "../../text/stderr.js";
import { stringifyForTerminal } from "../../text/terminal-json.js";
import { CliError } from "../cli-error.js";
import { clientFor, configFromCommand } from "../context.js";
import { deploymentsToFollow } from "../deployment-scope.js";
import { fatalAdvice } from "../follow-advice.js";
import { CheckpointWriter, readCheckpoint } from "./checkpoint-file.js";
import { lineSinks } from "./line-sink.js";
import { checkOutputFlags, cutGap, openOutputFile } from "./output-file.js";
import { CONTEXT_SEPARATOR, filterStreamOf, ReplicaCheck, sievedEvents } from "./tail-filter.js";
import type { TailFlags } from "./tail-flags.js";
import {
  checkpointMargin,
  firstWindow,
  resumeOf,
  streamFormatOf,
  TAIL_HOLD_BACK_MS,
} from "./tail-options.js";

/** How often merged lines are let out. */
const RELEASE_EVERY_MS = 250;
/** How long the first lines wait for every deployment's first answer, at most. */
const FIRST_ANSWERS_WAIT_MS = 10_000;

interface Followed {
  id: string;
  follower: LogFollower;
  controller: AbortController;
  running: Promise<void>;
}

type Tagged = LogEvent & { deploymentId: string };

export async function runManyTail(flags: TailFlags, cmd: Command): Promise<void> {
  const config = await configFromCommand(cmd);
  const client = clientFor(config);
  const say = sayOnStderr;
  checkOutputFlags(flags);
  // One limit on requests in flight: the followers' polls and the deployments' listings.
  const limit = new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const maxDeployments = flags.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS;
  const { ids, listing } = await deploymentsToFollow(client, flags, undefined, limit);
  const leftOutSaid = listing ? leftOutLine(listing, maxDeployments) : undefined;
  if (leftOutSaid) say(leftOutSaid);
  // --checkpoint: each deployment resumes from its record (one of an older tvcwatch with its
  // margin, the merge's interval included).
  const checkpointPath = flags.checkpoint;
  const read = checkpointPath
    ? readCheckpoint(checkpointPath, ids, checkpointMargin(flags, flags.interval))
    : undefined;
  const recorded = read?.records;
  // --output-file: cut back to what the checkpoint recorded of it, before anything else.
  const output = openOutputFile(flags, read?.outputFile, say, () => Date.now());
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
          limit,
        )
      : undefined;
  const merge = new CrossMerge<Tagged>();
  const format = streamFormatOf(flags);
  const sieve = filterStreamOf<Tagged>(flags);
  const replicas = new ReplicaCheck(flags.replica);
  let printedLines = 0;
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
    const { sinceMs, tailLines } = firstWindow(flags);
    const lines = checkpointPath
      ? new HandledLines(id, {
          resumedFrom: record,
          onOverflow: (text) => say(`checkpoint ${checkpointPath}: ${id}: ${text}`),
        })
      : undefined;
    if (lines) handled.set(id, lines);
    const capGap = record ? HandledLines.gapMarker(record) : undefined;
    if (capGap) merge.push([{ ...capGap, deploymentId: id }]);
    const follower = new LogFollower({
      fetchLogs: debugLogFetch(client, id),
      // The slot is taken before the window is planned: waiting for it costs nothing.
      acquireSlot: () => limit.acquire(),
      intervalMs: flags.interval,
      overlapMs: flags.overlap,
      sinceMs,
      tailLines,
      resume: resumeOf(record),
      holdBackMs: TAIL_HOLD_BACK_MS,
    });
    if (lines) follower.onResponse((sighting) => lines.sighted(sighting));
    const entry: Followed = {
      id,
      follower,
      controller: new AbortController(),
      running: Promise.resolve(),
    };
    follower.onEvents((batch) => {
      replicas.see(batch);
      merge.push(batch.map((e) => ({ ...e, deploymentId: id })));
    });
    const status = new StatusReporter(flags.verbose === true && flags.follow === true, (line) =>
      say(`${labels.get(id) ?? id}: ${line}`),
    );
    follower.subscribe(() => {
      const state = follower.getState();
      if (state.lastSuccessAt !== undefined) unanswered.delete(id);
      status.see(state, performance.now());
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

  /** Where merged lines were let out up to last (server clock, estimated). */
  let releasedUpTo = Number.NEGATIVE_INFINITY;
  /** A deployment's progress, less what the merge still holds of its lines. */
  const progressOf = (f: LogFollower): FollowProgress | undefined => {
    const p = f.progress();
    if (!p || p.resuming) return p;
    // The merge's clock is an estimate (±0.5 s): a second of room.
    return { ...p, resumeFromMs: Math.min(p.resumeFromMs, releasedUpTo - 1000) };
  };
  /** Every deployment's record of what was handed on (taken when the batch is). */
  const snapshot = (): CheckpointFile["deployments"] =>
    [...followed.values()].flatMap((f) => {
      const r = handled.get(f.id)?.record(progressOf(f.follower));
      return r ? [r] : [];
    });
  const writer = checkpointPath ? new CheckpointWriter(checkpointPath, () => stop()) : undefined;
  const record = (c: CheckpointFile) => writer?.record(c);
  const gapText = (gap: Tagged & GapMarker) =>
    `${labels.get(gap.deploymentId) ?? gap.deploymentId}: ${formatEvent(gap, { ...format, colour: false })}`;
  const sinks = lineSinks(output.opened?.file, say, (reason) => {
    const gap = cutGap(reason, serverNow());
    if (format.output === "json") return formatEvent(gap, format);
    say(formatEvent(gap, { ...format, colour: false }));
    return undefined;
  });
  let startGap: GapMarker | undefined = output.gap;
  /** Lines handed on before a restart are dropped; the rest are recorded per deployment. */
  const handOn = (events: Tagged[]): Tagged[] =>
    handled.size === 0
      ? events
      : events.filter((e) => e.kind !== "line" || (handled.get(e.deploymentId)?.handOn(e) ?? true));
  const print = (merged: Tagged[]) => {
    // Every line let out of the merge is handled, printed or left out by the filters.
    const handed = handOn(merged);
    if (handed.length === 0 && startGap === undefined) return;
    if (flags.follow && replicas.sawLines) {
      const problem = replicas.problem();
      if (problem) say(problem);
    }
    // Filtered in the merged order (context counts over it), each replica of each deployment
    // grouped on its own.
    const sieved = sieve.pushAll(handed);
    const events = sievedEvents(sieved);
    printedLines += events.filter((e) => e.kind === "line").length;
    if (otlp) {
      otlp.write(events, (gap) => say(gapText(gap)));
      if (checkpointPath)
        otlp.afterBatch(snapshot(), (deployments) => record({ format: 3, deployments }));
      return;
    }
    const out = sinks();
    if (startGap) {
      if (format.output === "text") say(formatEvent(startGap, { ...format, colour: false }));
      else out.add(formatEvent(startGap, format));
      startGap = undefined;
    }
    for (const s of sieved) {
      if (s.kind === "separator") {
        if (format.output === "text") out.add(CONTEXT_SEPARATOR);
        continue;
      }
      const e = s.event;
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
    // Once what is written now is out, the record of it is written (in order).
    const deployments = checkpointPath ? snapshot() : undefined;
    out.end(
      deployments ? (file) => record({ format: 3, deployments, outputFile: file }) : undefined,
    );
  };
  // The output file's length before the first line: a follow killed before its first record cuts
  // FILE back to it.
  if (output.opened && !read?.outputFile)
    record({ format: 3, deployments: snapshot(), outputFile: output.opened.file.record() });
  const serverNow = () => {
    const offsets = [...followed.values()].map((f) => f.follower.getState().clockOffsetMs ?? 0);
    return Date.now() + (offsets.length > 0 ? Math.min(...offsets) : 0);
  };
  const releaser = setInterval(() => {
    if (unanswered.size === 0 || Date.now() > waitForFirstAnswersUntil) {
      const now = serverNow();
      releasedUpTo = now - TAIL_HOLD_BACK_MS - flags.interval;
      // A line stamped ahead of the server's clock goes out as it comes (as a single follow's).
      print(merge.release(releasedUpTo, now + 1000));
    }
  }, RELEASE_EVERY_MS);
  /** Deployments listed but not followed, over --max-deployments (as last said). */
  let leftOut = listing?.leftOut ?? 0;
  const relister =
    flags.follow && (flags.app || flags.all)
      ? setInterval(() => {
          debugDeployments(client, flags, undefined, limit).then(
            (now) => {
              const change = relistChange([...followed.keys()], now, maxDeployments);
              for (const id of change.gone) {
                say(
                  `deployment ${id} is no longer listed (or left debug mode): no longer followed`,
                );
                followed.get(id)?.controller.abort();
                followed.delete(id);
                unanswered.delete(id);
              }
              // Said again when the count left out changes, not at every relist.
              if (change.leftOut !== leftOut) {
                leftOut = change.leftOut;
                const line = leftOutLine(change, maxDeployments);
                if (line) say(line);
              }
              const added = change.added;
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
    releasedUpTo = Number.POSITIVE_INFINITY;
    print(merge.drain());
  }
  output.opened?.file.close();
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  await otlp?.close();
  if (writer?.error !== undefined) throw writer.error;
  if (failures.length === ids.length && failures.length > 0) {
    throw new CliError(failures[0] as string, 1);
  }
  // --replica naming no replica there is: said; an error when nothing was printed for it.
  const problem = replicas.problem();
  if (problem && printedLines === 0 && !flags.follow) throw new CliError(problem, 1);
  if (problem) say(problem);
}
