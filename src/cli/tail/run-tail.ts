/**
 * What `tvcwatch tail` does once its flags are parsed: follow the deployment's logs, print each
 * line once, and say on stderr how the follow goes. Loaded only when `tail` runs (its flags are in
 * commands/tail.ts, which `tail --help` loads alone).
 */
import type { Command } from "commander";
import { isPermanentFailure } from "../../api/retry-decision.js";
import type { CheckpointFile } from "../../tail/checkpoint.js";
import type { FetchLogs } from "../../tail/follower.js";
import { FollowerStopError, LogFollower } from "../../tail/follower.js";
import { StatusReporter } from "../../tail/follower-status.js";
import { HandledLines } from "../../tail/handled-lines.js";
import type { GapMarker, LogEvent } from "../../tail/log-line.js";
import { formatEvent, type StreamFormat } from "../../tail/stream-format.js";
import {
  debugLogFetch,
  decodeDebugLogs,
  fetchDebugLogBytes,
} from "../../tail/wire/debug-log-fetch.js";
import { renderPlainWindow } from "../../tail/wire/plain-window.js";
import { sayOnStderr, writeStderr } from "../../text/stderr.js";
import { CliError } from "../cli-error.js";
import { exitStatusOf, toCliError } from "../client-errors.js";
import { clientFor, configFromCommand } from "../context.js";
import { fatalAdvice } from "../follow-advice.js";
import { governHeap } from "../heap-governor.js";
import { CheckpointWriter, readCheckpoint } from "./checkpoint-file.js";
import { lineSinks } from "./line-sink.js";
import { checkOutputFlags, cutGap, openOutputFile } from "./output-file.js";
import {
  CONTEXT_SEPARATOR,
  changesLines,
  filterStreamOf,
  ReplicaCheck,
  sievedEvents,
} from "./tail-filter.js";
import type { TailFlags } from "./tail-flags.js";
import {
  checkpointMargin,
  firstWindow,
  resumeOf,
  streamFormatOf,
  TAIL_HOLD_BACK_MS,
} from "./tail-options.js";

/**
 * Whether `tail` prints one window as plain `[replica] content` lines (timestamps or not), nothing
 * left out or added: no -f, text without colour, no filter, context or highlight, no --tail (its
 * gap), no checkpoint.
 */
export function isPlainWindow(
  flags: TailFlags,
  format: StreamFormat,
  tailLines: number | undefined,
  checkpointPath: string | undefined,
): boolean {
  return (
    flags.follow !== true &&
    flags.output === "text" &&
    !format.colour &&
    tailLines === undefined &&
    checkpointPath === undefined &&
    !changesLines(flags)
  );
}

export async function runTail(flags: TailFlags, cmd: Command): Promise<void> {
  const config = await configFromCommand(cmd);
  const deploymentId = config.deploymentId;
  if (!deploymentId) {
    throw new CliError(
      "no deployment: pass --deployment ID or put deploymentId in the config file",
      2,
    );
  }
  checkOutputFlags(flags);
  // --checkpoint: resume from what the file records, and record after each batch handed on.
  const checkpointPath = flags.checkpoint;
  const say = sayOnStderr;
  const read = checkpointPath
    ? readCheckpoint(checkpointPath, [deploymentId], checkpointMargin(flags))
    : undefined;
  const recorded = read?.records.get(deploymentId);
  // --output-file: cut back to what the checkpoint recorded of it, before anything else.
  const output = openOutputFile(flags, read?.outputFile, say, () => Date.now());
  const handled = checkpointPath
    ? new HandledLines(deploymentId, {
        resumedFrom: recorded,
        onOverflow: (text) => say(`checkpoint ${checkpointPath}: ${text}`),
      })
    : undefined;
  // Said before the first lines: what may be missing.
  let startGaps: LogEvent[] = [];
  const capGap = recorded ? HandledLines.gapMarker(recorded) : undefined;
  if (capGap) startGaps.push(capGap);
  if (output.gap) startGaps.push(output.gap);
  const { sinceMs, tailLines } = firstWindow(flags);
  const client = clientFor(config);
  // The client's last failure decides the exit status (client-errors.ts, as in every command).
  let lastFailure: unknown;
  const failing = (err: unknown): never => {
    lastFailure = err;
    throw err;
  };
  // One window as plain text: printed straight from the response's bytes when it is of the usual
  // shape (tail/wire/plain-window.ts renders what the follower would print); the follower is then
  // handed the window without its lines. Any other response goes through the follower as it came.
  let rendered: Buffer | undefined;
  const format = streamFormatOf(flags);
  const follow = debugLogFetch(client, deploymentId);
  const fetchLogs: FetchLogs = isPlainWindow(flags, format, tailLines, checkpointPath)
    ? async (request, options) => {
        try {
          const read = await fetchDebugLogBytes(client, deploymentId, request, options);
          rendered = renderPlainWindow(
            read.body,
            read.meta.serverDate,
            format.timestamps ? { utc: format.utc } : undefined,
          );
          if (rendered) return { data: { entries: [] }, meta: read.meta };
          const data = await decodeDebugLogs(read.body);
          return { data, meta: read.meta };
        } catch (err) {
          return failing(err);
        }
      }
    : (request, options) => follow(request, options).catch(failing);
  const follower = new LogFollower({
    fetchLogs,
    intervalMs: flags.interval,
    overlapMs: flags.overlap,
    sinceMs,
    tailLines,
    resume: resumeOf(recorded),
    // A stream cannot move a line once printed: hold the newest second back so a replica
    // whose lines reach the server a little late still prints in timestamp order.
    holdBackMs: TAIL_HOLD_BACK_MS,
  });
  if (handled) follower.onResponse((sighting) => handled.sighted(sighting));
  const otlp =
    flags.output === "otlp"
      ? await (await import("./otlp-output.js")).openOtlpOutput(
          flags.otlpEndpoint,
          config.organizationId,
          [deploymentId],
          client,
          checkpointPath,
          say,
        )
      : undefined;
  // What is printed, in the order it prints (context and continuation lines across batches).
  const sieve = filterStreamOf(flags);
  const replicas = new ReplicaCheck(flags.replica);
  let printedLines = 0;
  const controller = new AbortController();
  let pipeClosed = false;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") {
      pipeClosed = true;
      controller.abort();
    }
  });
  // A failure to write the checkpoint ends the follow (said once, at the end).
  const writer = checkpointPath
    ? new CheckpointWriter(checkpointPath, () => controller.abort())
    : undefined;
  const record = (c: CheckpointFile) => writer?.record(c);
  /** The record of what was handed on so far (taken when the batch is, written once it is out). */
  const snapshot = (): CheckpointFile["deployments"] | undefined => {
    const r = handled?.record(follower.progress());
    return r ? [r] : undefined;
  };
  const textGap = (gap: GapMarker) => formatEvent(gap, { ...format, colour: false });
  const sinks = lineSinks(output.opened?.file, say, (reason) => {
    const gap = cutGap(reason, Date.now() + (follower.getState().clockOffsetMs ?? 0));
    if (format.output === "json") return formatEvent(gap, format);
    writeStderr(textGap(gap));
    return undefined;
  });
  /** Hands a batch on: to the collector, or to stdout or FILE, then records it. */
  const handOn = (batch: LogEvent[]) => {
    if (pipeClosed) return;
    // Lines handed on before a restart are dropped; every other line is recorded, printed or
    // left out by the filters.
    let events = handled ? handled.add(batch) : batch;
    if (startGaps.length > 0) {
      events = startGaps.concat(events);
      startGaps = [];
    }
    replicas.see(events);
    // A follow says at its first lines that --replica names none of their replicas.
    if (flags.follow && replicas.sawLines) {
      const problem = replicas.problem();
      if (problem) say(problem);
    }
    const sieved = sieve.pushAll(events);
    if (otlp) {
      const kept = sievedEvents(sieved);
      for (const e of kept) if (e.kind === "line") printedLines++;
      otlp.write(kept, (gap) => say(textGap(gap)));
      otlp.afterBatch(snapshot(), (deployments) => record({ format: 3, deployments }));
      return;
    }
    const out = sinks();
    for (const s of sieved) {
      if (s.kind === "separator") {
        if (flags.output === "text") out.add(CONTEXT_SEPARATOR);
        continue;
      }
      const e = s.event;
      if (e.kind === "gap" && flags.output === "text") {
        writeStderr(textGap(e));
        continue;
      }
      if (e.kind === "line") printedLines++;
      out.add(formatEvent(e, format));
    }
    // Once what is written now (and before it) is out, the record of it is written.
    const deployments = snapshot();
    out.end(
      deployments ? (file) => record({ format: 3, deployments, outputFile: file }) : undefined,
    );
  };
  if (output.opened && !read?.outputFile) {
    // The output file's length before the first line: a follow killed before its first record
    // cuts FILE back to it.
    record({ format: 3, deployments: snapshot() ?? [], outputFile: output.opened.file.record() });
  }
  // What may be missing is said at once, before the first poll.
  if (startGaps.length > 0) handOn([]);
  follower.onEvents(handOn);
  const status = new StatusReporter(flags.verbose === true && flags.follow === true, say);
  follower.subscribe(() => status.see(follower.getState(), performance.now()));
  // A follow runs for hours: keep the heap near what it holds.
  const stopGoverning = flags.follow ? governHeap() : () => {};
  const stop = () => controller.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await follower.run(controller.signal, flags.follow === true);
  } catch (err) {
    if (err instanceof FollowerStopError) {
      // A failure no retry can help is said as every command says it.
      if (isPermanentFailure(lastFailure)) throw toCliError(lastFailure);
      const advice = fatalAdvice(err.cause ?? lastFailure) ?? err.message;
      throw new CliError(advice, exitStatusOf(lastFailure) ?? (err.unreachable ? 2 : 1));
    }
    throw err;
  } finally {
    stopGoverning();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  await otlp?.close();
  if (writer?.error !== undefined) throw writer.error;
  const state = follower.getState();
  if (!flags.follow && state.phase !== "stopped")
    throw new CliError(state.lastError ?? "could not read the logs", 2);
  if (rendered && output.opened) output.opened.file.write(rendered);
  else if (rendered && !pipeClosed) process.stdout.write(rendered);
  output.opened?.file.close();
  // --replica naming no replica there is: said; an error when nothing was printed for it.
  const problem = replicas.problem();
  if (problem && (printedLines > 0 || flags.follow)) say(problem);
  await new Promise<void>((resolve) =>
    pipeClosed ? resolve() : process.stdout.write("", () => resolve()),
  );
  if (problem && printedLines === 0 && !flags.follow) throw new CliError(problem, 1);
}
