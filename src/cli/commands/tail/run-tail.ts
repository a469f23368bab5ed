/**
 * What `tvcwatch tail` does once its flags are parsed: follow the deployment's logs, print each
 * line once, and say on stderr how the follow goes. Loaded only when `tail` runs (its flags are in
 * commands/tail.ts, which `tail --help` loads alone).
 */
import type { Command } from "commander";
import type { TurnkeyClient } from "../../../api/client.js";
import type { StreamFormat } from "../../../logs/formats/stream-format.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { CheckpointWriter, refusedCheckpoint } from "../../../ship/checkpoint-file.js";
import { checkOutputFlags } from "../../../ship/output-file.js";
import { TailBatches } from "../../../ship/tail-batches.js";
import { lockTailFiles } from "../../../ship/tail-locks.js";
import { FollowerStopError, LogFollower, ResumeRefusedError } from "../../../tail/follower.js";
import { StatusReporter } from "../../../tail/follower-status.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../../../tail/request-limit.js";
import { sayOnStderr } from "../../../text/stderr.js";
import { CliError } from "../../cli-error.js";
import { clientFor, configFromCommand } from "../../context.js";
import { governHeap } from "../../heap-governor.js";
import { DEFAULT_SINCE_MS, type TailWindow } from "../../time-range.js";
import { FirstDescription } from "./first-description.js";
import { TailFetch } from "./tail-fetch.js";
import { changesLines, lineFilterOf } from "./tail-filter.js";
import type { TailFlags } from "./tail-flags.js";
import {
  eventsProblem,
  firstWindow,
  firstWindowWords,
  resumeOf,
  streamFormatOf,
  TAIL_HOLD_BACK_MS,
} from "./tail-options.js";
import { resumeTail } from "./tail-resume.js";
import { TailStdout } from "./tail-stdout.js";

/**
 * Whether `tail` prints one window as plain `[replica] content` lines (timestamps or not), nothing
 * left out or added: no -f, text without colour, no filter, context or highlight, no --tail (its
 * gap), no checkpoint, no range of times (--since a time, --until).
 */
export function isPlainWindow(
  flags: TailFlags,
  format: StreamFormat,
  window: TailWindow,
  checkpointPath: string | undefined,
): boolean {
  const tailLines = window.tailLines;
  return (
    flags.follow !== true &&
    flags.events !== true &&
    window.range === undefined &&
    flags.output === "text" &&
    !format.colour &&
    tailLines === undefined &&
    checkpointPath === undefined &&
    !changesLines(flags)
  );
}

/**
 * Runs the follow until it ends, SIGINT or SIGTERM aborts it, or it stops for a failure (said as
 * every command says its last failure). A follow runs for hours: the heap is kept near what it
 * holds meanwhile.
 */
async function followUntilStopped(
  follower: LogFollower,
  controller: AbortController,
  follow: boolean,
  stopError: (err: FollowerStopError) => unknown,
): Promise<void> {
  const stopGoverning = follow ? governHeap() : () => {};
  const stop = () => controller.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await follower.run(controller.signal, follow);
  } catch (err) {
    throw err instanceof FollowerStopError ? stopError(err) : err;
  } finally {
    stopGoverning();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/**
 * The deployment's description, read once (one list_tvc_apps, one get_tvc_deployment). Its code
 * (and the terminal-width tables it loads) is loaded only for -o json, which prints it.
 */
function describeOne(
  client: TurnkeyClient,
  deploymentId: string,
  flags: TailFlags,
  signal: AbortSignal,
): FirstDescription {
  const limit = new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  return new FirstDescription(async (s) => {
    const { describeDeployments } = await import("../../../feeds/deployment-list.js");
    return (await describeDeployments(client, [deploymentId], s, limit)).get(deploymentId);
  }, signal);
}

/** Where the lines end (epoch ms), for the events; undefined: they do not. */
function untilOf(window: TailWindow, now: number): number | undefined {
  const until = window.range?.until;
  if (!until) return undefined;
  return "atMs" in until ? until.atMs : now - until.agoMs;
}

/** `--events`: the sources the config and flags name, polled at the follow's interval. */
async function openTailEvents(
  client: TurnkeyClient,
  config: { emails: string[]; solanaAddresses: string[]; caip2?: string | undefined },
  deploymentId: string,
  flags: TailFlags,
  window: TailWindow,
  handOn: (batch: LogEvent[]) => void,
  stdout: TailStdout,
) {
  const { TailEvents } = await import("./tail-events.js");
  const { checkCaip2 } = await import("../watch/watch-command.js");
  const now = Date.now();
  return new TailEvents({
    client,
    deploymentId,
    emails: config.emails,
    solanaAddresses: config.solanaAddresses,
    caip2: checkCaip2(config.caip2),
    intervalMs: flags.interval,
    limit: new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT),
    fromMs: window.range?.fromMs ?? now - (window.sinceMs ?? DEFAULT_SINCE_MS),
    untilMs: untilOf(window, now),
    filter: lineFilterOf(flags),
    handOn,
    print: (line) => stdout.writeLine(line),
    output: flags.output === "json" ? "json" : "text",
    utc: flags.utc === true,
  });
}

/** The deployment followed, or the one line that says how to name it (exit 2). */
function deploymentOf(config: { deploymentId?: string | undefined }): string {
  if (config.deploymentId) return config.deploymentId;
  throw new CliError(
    "no deployment: pass --deployment ID or put deploymentId in the config file",
    2,
  );
}

export async function runTail(flags: TailFlags, cmd: Command): Promise<void> {
  // The flags are checked before the configuration is read.
  const window = firstWindow(flags, Date.now());
  const config = await configFromCommand(cmd);
  const deploymentId = deploymentOf(config);
  checkOutputFlags(flags);
  const eventsRefused = eventsProblem(flags);
  if (eventsRefused) throw new CliError(eventsRefused, 2);
  // One writer per file: held until the program exits.
  const locks = lockTailFiles(flags);
  // --checkpoint: resume from what the file records, and record after each batch handed on.
  const checkpointPath = flags.checkpoint;
  const say = sayOnStderr;
  const resume = resumeTail(flags, deploymentId, say, locks.output);
  const { handled, output } = resume;
  const { sinceMs, tailLines } = window;
  const client = clientFor(config);
  const format = await streamFormatOf(flags);
  const plain = isPlainWindow(flags, format, window, checkpointPath);
  const fetch = new TailFetch(
    client,
    deploymentId,
    plain ? { timestamps: format.timestamps ? { utc: format.utc } : undefined } : undefined,
  );
  const follower = new LogFollower({
    fetchLogs: fetch.fetchLogs,
    intervalMs: flags.interval,
    overlapMs: flags.overlap,
    sinceMs,
    tailLines,
    range: window.range,
    resume: resumeOf(resume.recorded),
    // A stream cannot move a line once printed: hold the newest second back so a replica
    // whose lines reach the server a little late still prints in timestamp order.
    holdBackMs: TAIL_HOLD_BACK_MS,
  });
  if (handled) follower.onResponse((sighting) => handled.sighted(sighting));
  const otlp =
    flags.output === "otlp"
      ? await (await import("../../../ship/otlp-output.js")).openOtlpOutput(
          flags.otlpEndpoint,
          config.organizationId,
          [deploymentId],
          client,
          checkpointPath,
          say,
        )
      : undefined;
  const controller = new AbortController();
  // -o json: what the deployment is, asked beside the first poll (./first-description.ts).
  const described =
    flags.output === "json"
      ? describeOne(client, deploymentId, flags, controller.signal)
      : undefined;
  const stdout = new TailStdout(() => controller.abort());
  // A failure to write the checkpoint ends the follow (said once, at the end).
  const checkpoint = checkpointPath
    ? new CheckpointWriter(checkpointPath, () => controller.abort(), locks.checkpoint)
    : undefined;
  const batches = new TailBatches({
    flags,
    filter: lineFilterOf(flags),
    format,
    follower,
    handled,
    startGaps: resume.startGaps,
    otlp,
    outputFile: output?.file,
    checkpoint,
    stdout,
    say,
    description: described && (() => described.description()),
  });
  batches.start(!resume.recordedOutputFile);
  // --events: the lines wait for the side panes' sources to answer past them (./tail-events.ts).
  const events = flags.events
    ? await openTailEvents(client, config, deploymentId, flags, window, batches.handOn, stdout)
    : undefined;
  const handOn = events ? events.lines : batches.handOn;
  follower.onEvents(described ? described.holding(handOn) : handOn);
  if (flags.follow) events?.start();
  const polled = flags.follow ? undefined : events?.once();
  const status = new StatusReporter(flags.verbose === true && flags.follow === true, say);
  follower.subscribe(() => status.see(follower.getState(), performance.now()));
  try {
    await followUntilStopped(follower, controller, flags.follow === true, (err) =>
      err instanceof ResumeRefusedError && checkpointPath !== undefined
        ? refusedCheckpoint(err, checkpointPath, firstWindowWords(flags))
        : fetch.stopError(err),
    );
    await described?.settled();
    await polled;
  } catch (err) {
    // A refused checkpoint, a lost lock: a new --output-file nothing was written to is not left.
    output?.file.abandon();
    throw err;
  } finally {
    described?.stop();
    events?.finish();
  }
  batches.finish();
  await otlp?.close();
  if (checkpoint?.error !== undefined) throw checkpoint.error;
  const state = follower.getState();
  if (!flags.follow && state.phase !== "stopped")
    throw new CliError(state.lastError ?? "could not read the logs", 2);
  const rendered = fetch.rendered;
  if (rendered && output) output.file.write(rendered);
  else if (rendered) stdout.writeWindow(rendered);
  output?.file.close();
  // --replica naming no replica there is: said; an error when nothing was printed for it.
  const problem = batches.replicas.problem();
  if (problem && (batches.printedLines > 0 || flags.follow)) say(problem);
  await stdout.drained();
  if (problem && batches.printedLines === 0 && !flags.follow) throw new CliError(problem, 1);
}
