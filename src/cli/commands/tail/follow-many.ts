/**
 * `tail` over several deployments (`--deployment` repeated, `--app APP_ID`, `--all`): a
 * follow-set (../../tail/follow-set/) follows them, each with its own exactly-once follower,
 * within one limit on requests in flight (`--max-concurrent`), and with `--app` or `--all` lists
 * them again every 30 s; what it tells (a deployment appeared, went away or failed, how many
 * `--max-deployments` leaves out, each one's status) is said here on stderr. Their lines are
 * merged by timestamp and printed by src/ship/merged-output.ts once every deployment has answered first
 * (10 s at most), with `--checkpoint` recording every deployment's progress and `-o otlp` giving
 * each its resource.
 */
import type { Command } from "commander";
import type { TurnkeyClient } from "../../../api/client.js";
import { debugDeployments, describeDeployments } from "../../../feeds/deployment-list.js";
import {
  CheckpointWriter,
  checkpointToResume,
  refusedCheckpoint,
} from "../../../ship/checkpoint-file.js";
import { MergedOutput } from "../../../ship/merged-output.js";
import type { OtlpOutput } from "../../../ship/otlp-output.js";
import { checkOutputFlags, openOutputFile } from "../../../ship/output-file.js";
import type { ShipError } from "../../../ship/ship-error.js";
import { lockTailFiles } from "../../../ship/tail-locks.js";
import type { ReadCheckpoint } from "../../../tail/checkpoint.js";
import {
  DEFAULT_MAX_DEPLOYMENTS,
  type ListingCount,
} from "../../../tail/follow-set/deployment-cap.js";
import { FollowSet } from "../../../tail/follow-set/follow-set.js";
import type { FollowSetListener } from "../../../tail/follow-set/follow-set-listener.js";
import { ResumeRefusedError } from "../../../tail/follower.js";
import { StatusReporter } from "../../../tail/follower-status.js";
import { DEFAULT_MAX_CONCURRENT, RequestLimit } from "../../../tail/request-limit.js";
import { debugLogFetch } from "../../../tail/wire/debug-log-fetch.js";
import { sayOnStderr } from "../../../text/stderr.js";
import { CliError } from "../../cli-error.js";
import { clientFor, configFromCommand } from "../../context.js";
import { deploymentsToFollow } from "../../deployment-scope.js";
import { fatalAdvice } from "../../follow-advice.js";
import type { TailWindow } from "../../time-range.js";
import { lineFilterOf } from "./tail-filter.js";
import type { TailFlags } from "./tail-flags.js";
import {
  checkpointMargin,
  firstWindow,
  firstWindowWords,
  resumeOf,
  streamFormatOf,
  TAIL_HOLD_BACK_MS,
} from "./tail-options.js";

/** How often merged lines are let out. */
const RELEASE_EVERY_MS = 250;

export async function runManyTail(flags: TailFlags, cmd: Command): Promise<void> {
  // The flags are checked before the configuration is read.
  const window = firstWindow(flags, Date.now());
  const config = await configFromCommand(cmd);
  const client = clientFor(config);
  const say = sayOnStderr;
  checkOutputFlags(flags);
  // One writer per file: held until the program exits.
  const locks = lockTailFiles(flags);
  // One limit on requests in flight: the followers' polls and the deployments' listings.
  const limit = new RequestLimit(flags.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const { ids, listing } = await deploymentsToFollow(client, flags, undefined, limit);
  // --checkpoint: each deployment resumes from its record (one of an older tvcwatch with its
  // margin, the merge's interval included).
  const path = flags.checkpoint;
  const read = checkpointToResume(
    { ...flags, firstWindow: firstWindowWords(flags) },
    ids,
    checkpointMargin(flags, flags.interval),
    say,
  );
  // --output-file: cut back to what the checkpoint recorded of it before anything is written.
  const output = openOutputFile(flags, read?.outputFile, say, () => Date.now(), locks.output);
  const otlp =
    flags.output === "otlp"
      ? await (await import("../../../ship/otlp-output.js")).openOtlpOutput(
          flags.otlpEndpoint,
          config.organizationId,
          ids,
          client,
          path,
          say,
          limit,
        )
      : undefined;
  const set = followSetOf(flags, client, limit, { listing, read, otlp, window });
  const stop = () => void set.stop();
  // A failure to write the checkpoint ends the follow (said once, at the end).
  const writer = path ? new CheckpointWriter(path, stop, locks.checkpoint) : undefined;
  const printer = new MergedOutput({
    flags,
    format: await streamFormatOf(flags),
    filter: lineFilterOf(flags),
    holdBackMs: TAIL_HOLD_BACK_MS,
    say,
    output,
    otlp,
    checkpoint: path && writer ? { path, read, writer } : undefined,
    members: () => set.members(),
    labelOf: (id) => set.labelOf(id),
    descriptionOf: (id) => set.descriptionOf(id),
    serverNow: () => serverNow(set),
  });
  const failures: string[] = [];
  // A checkpoint's record refused by a deployment's first answer ends the whole follow, exit 2.
  let refused: ShipError | undefined;
  set.listen({
    onAdded(member) {
      printer.follow(member);
      const status = new StatusReporter(flags.verbose === true && flags.follow === true, (line) =>
        say(`${set.labelOf(member.deploymentId)}: ${line}`),
      );
      member.follower.subscribe(() => status.see(member.follower.getState(), performance.now()));
    },
    onBatch: (member, events) => printer.push(member.deploymentId, events),
    onFailed(member, err) {
      if (err instanceof ResumeRefusedError && path !== undefined) {
        refused ??= refusedCheckpoint(err, path, firstWindowWords(flags), member.deploymentId);
        stop();
        return;
      }
      const advice = fatalAdvice(err.cause) ?? err.message;
      failures.push(`${member.label}: ${advice}`);
      say(`${member.deploymentId}: ${advice}`);
    },
    ...listingNotes,
  });
  set.add(ids);
  printer.recordStart();
  set.start();
  const releaser = setInterval(() => {
    if (set.firstAnswersIn() && !refused) printer.release(flags.interval);
  }, RELEASE_EVERY_MS);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await set.done();
  } finally {
    clearInterval(releaser);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await set.stop();
    // A refused checkpoint: nothing is handed on (its record, and the file, stay as they were).
    if (!refused) printer.drain();
  }
  // Refused: a new --output-file nothing was written to is not left behind.
  if (refused) output.opened?.file.abandon();
  else output.opened?.file.close();
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  await otlp?.close();
  if (refused) throw refused;
  if (writer?.error !== undefined) throw writer.error;
  if (failures.length === ids.length && failures.length > 0) {
    throw new CliError(failures[0] as string, 1);
  }
  // --replica naming no replica there is: said; an error when nothing was printed for it.
  const problem = printer.replicas.problem();
  if (problem && printer.printedLines === 0 && !flags.follow) throw new CliError(problem, 1);
  if (problem) say(problem);
}

/** The deployments' follow-set: each one's follower as tail's flags say, and the relists. */
function followSetOf(
  flags: TailFlags,
  client: TurnkeyClient,
  limit: RequestLimit,
  from: {
    /** `--app` / `--all`: what the first listing had and left out. */
    listing: ListingCount | undefined;
    read: ReadCheckpoint | undefined;
    otlp: OtlpOutput | undefined;
    /** The first window and the range of lines handed on (--since, --until, --tail). */
    window: TailWindow;
  },
): FollowSet {
  const { listing, read, otlp, window } = from;
  return new FollowSet({
    followerOptions: (id) => ({
      fetchLogs: debugLogFetch(client, id),
      intervalMs: flags.interval,
      overlapMs: flags.overlap,
      ...window,
      // Resumed from its checkpoint record; a checkpoint older than Turnkey keeps logs, a gap.
      resume: resumeOf(read?.records.get(id)),
      holdBackMs: TAIL_HOLD_BACK_MS,
    }),
    intervalMs: flags.interval,
    limit,
    follow: flags.follow === true,
    relisting: listing && {
      list: (signal, slots) => debugDeployments(client, flags, signal, slots),
      maxDeployments: flags.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS,
      atStart: listing,
    },
    // Each deployment's version and role, for its label and -o json.
    describe: (ids, signal, slots) => describeDeployments(client, ids, signal, slots),
    // A deployment that appears needs its resource before its lines come.
    prepare: otlp ? (id) => otlp.add(id) : undefined,
  });
}

/** What the relists find, said on stderr. */
const listingNotes: FollowSetListener = {
  onGone: (m) =>
    sayOnStderr(
      `deployment ${m.deploymentId} is no longer listed (or left debug mode): no longer followed`,
    ),
  onAppeared: (m) =>
    sayOnStderr(`deployment ${m.deploymentId} appeared: following it as ${m.label}`),
  onLeftOut: (line) => sayOnStderr(line),
  onRelistFailed: (err) =>
    sayOnStderr(`could not list the deployments again: ${(err as Error).message}`),
};

/** The server's clock now, estimated from the followers' (one not measured yet counts as 0). */
function serverNow(set: FollowSet): number {
  const offsets = set.members().map((m) => m.follower.getState().clockOffsetMs ?? 0);
  return Date.now() + (offsets.length > 0 ? Math.min(...offsets) : 0);
}
