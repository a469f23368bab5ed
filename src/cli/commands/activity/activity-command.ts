/**
 * `tvcwatch activity list|get|approve|reject|wait`: the organization's activity queue from the
 * command line, as Turnkey's `tk activity` has it. Approving and rejecting show what is decided
 * (src/activity/activity-decision.ts) and ask on a terminal, or take `--yes`; `wait` exits 0 when
 * the activity completes, 1 when it fails or is rejected, 2 when the time runs out.
 */
import type { Command } from "commander";
import { InvalidArgumentError, Option } from "commander";
import {
  confirmation,
  type DecisionContext,
  decideActivity,
  detailLines,
  outcomeLine,
  statusLine,
  type VoteAction,
} from "../../../activity/activity-decision.js";
import {
  CONFLICT_TEXT,
  otherActivity,
  sameFingerprint,
  shownId,
} from "../../../activity/activity-identity.js";
import { loadDecisionContext } from "../../../activity/decision-context.js";
import { contractInterfaceSource } from "../../../activity/decode/contract-interfaces.js";
import { decodeActivity } from "../../../activity/decode/decode-activity.js";
import {
  type DecodedIntent,
  decodedJson,
  decodedLines,
  summaryLines,
} from "../../../activity/decode/decoded-intent.js";
import { summarizeIntent } from "../../../activity/intent-summary.js";
import type { CallOptions, TurnkeyClient } from "../../../api/client.js";
import { TurnkeyApiError } from "../../../api/errors.js";
import { GrpcCode } from "../../../api/grpc-codes.js";
import { sleep } from "../../../api/retry.js";
import type { Activity } from "../../../api/schemas.js";
import { redactSecrets } from "../../../api/secret-fields.js";
import { shouldColour } from "../../../text/colour.js";
import { formatDuration } from "../../../text/duration.js";
import { sanitizeForTerminal } from "../../../text/sanitize.js";
import {
  promptStream,
  sayOnStderr,
  stderrColumns,
  stderrIsTerminal,
  writeStderr,
} from "../../../text/stderr.js";
import { stringifyForTerminal } from "../../../text/terminal-json.js";
import { CliError } from "../../cli-error.js";
import { retryNotice, toCliError } from "../../client-errors.js";
import { commandSummary } from "../../command-summaries.js";
import { clientFor, configFromCommand } from "../../context.js";
import { boundedDurationFlag, integerFlag, intervalFlag, textFlag } from "../../flag-parsers.js";
import { MIN_PREFIX, resolveActivityRef } from "./activity-prefix.js";
import { activityTable } from "./activity-table.js";
import { askYesNo, canAsk } from "./confirm.js";
import { statusFlag, typeFlag } from "./filters.js";
import { findActivity, isFingerprint } from "./find-activity.js";
import { waitForActivity } from "./wait-for-activity.js";

type Output = "text" | "json";

interface ListFlags {
  status?: string[];
  type?: string[];
  limit: number;
  cursor?: string;
  output: Output;
  revealSecrets?: boolean;
}

interface GetFlags {
  output: Output;
  revealSecrets?: boolean;
}

interface VoteFlags {
  yes?: boolean;
  /** Vote only when the activity's fingerprint is this one (what a person reviewed). */
  fingerprint?: string;
  output: Output;
}

interface WaitFlags {
  timeout: number;
  interval: number;
  output: Output;
}

/** --timeout of wait: a second to a day. */
const waitTimeoutFlag = boundedDurationFlag(1000, 86_400_000);

const outputOption = () =>
  new Option("-o, --output <format>", "text, or json for scripts")
    .choices(["text", "json"])
    .default("text");

/** Retry waits of a second or more, said on stderr as `call` says them. */
const callOptions: Pick<CallOptions, "onRetry"> = {
  onRetry: (info) => {
    const notice = retryNotice(info);
    if (notice) sayOnStderr(notice);
  },
};

/** What a person can do about an API error of these commands, appended to its line. */
function withAdvice(err: unknown): unknown {
  if (!(err instanceof TurnkeyApiError)) return err;
  if (/expired api key/i.test(err.message)) {
    return err.withAdvice(
      "the API key has expired: make a new one (tvcwatch keys generate --name NAME) and register its public key",
    );
  }
  if (/could not find public key/i.test(err.message)) {
    return err.withAdvice(
      "the organization does not know this API key (tvcwatch doctor checks the setup)",
    );
  }
  if (err.grpcCode === GrpcCode.NOT_FOUND && err.operation === "get_activity") {
    return err.withAdvice("tvcwatch activity list shows the organization's activities");
  }
  return err;
}

/** Runs a client call and turns its failure into the one line a person reads. */
async function api<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toCliError(withAdvice(err));
  }
}

function printJson(value: unknown, reveal = false): void {
  const shown = reveal ? { value, fields: [] } : redactSecrets(value);
  process.stdout.write(
    `${stringifyForTerminal(shown.value, process.stdout.isTTY ? 2 : undefined)}\n`,
  );
  if (shown.fields.length > 0) {
    sayOnStderr(
      `redacted ${shown.fields.join(", ")}; add --reveal-secrets to print ${shown.fields.length > 1 ? "them" : "it"}`,
    );
  }
}

function printNotes(notes: string[]): void {
  for (const note of notes) sayOnStderr(note);
}

async function clientOf(cmd: Command): Promise<TurnkeyClient> {
  return clientFor(await configFromCommand(cmd));
}

/** What the activity asks to sign, decoded; undefined when it asks for nothing to decode. */
function decoding(client: TurnkeyClient, activity: Activity): Promise<DecodedIntent | undefined> {
  return decodeActivity(activity, { interfaces: contractInterfaceSource(client) });
}

/**
 * `get`'s text: what it signs decoded, first; then the decision's lines, the result or failure,
 * and whether you can vote.
 */
function getText(
  activity: Activity,
  context: DecisionContext,
  decoded: DecodedIntent | undefined,
): string {
  const decision = decideActivity(activity, context);
  const lines = [
    ...(decoded ? decodedLines(decoded, "  ", context.names) : []),
    ...detailLines(decision, context),
  ];
  if (Object.keys(activity.result).length > 0) {
    lines.push("  result");
    const names = { names: context.names, userNames: context.userNames };
    for (const l of summarizeIntent(activity.result, names)) lines.push(`    ${l}`);
  }
  for (const action of ["approve", "reject"] as const) {
    const check = decision.can[action];
    lines.push(`  ${`can ${action}`.padEnd(13)}${check.allowed ? "yes" : `no: ${check.why}`}`);
  }
  return lines.join("\n");
}

/** get_activity for `id`, refused (exit 1) when the server answers about another activity. */
async function getActivity(
  client: TurnkeyClient,
  id: string,
  options: Pick<CallOptions, "onRetry" | "signal"> = callOptions,
) {
  const response = await client.call("get_activity", { activityId: id }, options);
  const other = otherActivity(id, response.activity);
  if (other) throw new CliError(other, 1);
  return response;
}

/**
 * The whole ID `ref` names: itself, or the one activity whose ID begins with it (a prefix of at
 * least MIN_PREFIX characters, as the dashboard shows IDs). Several: listed, and exit 1.
 */
async function activityIdOf(client: TurnkeyClient, ref: string): Promise<string> {
  const found = await api(() => resolveActivityRef(client, ref, callOptions));
  switch (found.kind) {
    case "id":
    case "prefix":
      return found.id;
    case "too-short":
      throw new CliError(
        `activity ${shownId(ref)}: give its whole ID, or at least ${MIN_PREFIX} of its first characters (as the dashboard shows it)`,
        2,
      );
    case "none":
      throw new CliError(
        `no activity ID begins with ${shownId(ref)} among the organization's ${found.complete ? "" : "newest "}${found.searched} activities (tvcwatch activity list shows them)`,
        1,
      );
    case "ambiguous":
      writeStderr(activityTable(found.candidates, Date.now(), false));
      throw new CliError(
        `${found.candidates.length} activities have an ID beginning ${shownId(ref)} (listed above): give more of the ID`,
        1,
      );
  }
}

/** `--fingerprint`: `sha256:` and 64 hex digits, as `activity get` shows it. */
function fingerprintFlag(value: string): string {
  if (!isFingerprint(value.trim())) {
    throw new InvalidArgumentError(
      "a fingerprint is sha256: and 64 hex digits, as tvcwatch activity get shows it",
    );
  }
  return value.trim();
}

async function vote(action: VoteAction, given: string, flags: VoteFlags, cmd: Command) {
  const client = await clientOf(cmd);
  const ref = isFingerprint(given) ? given : await activityIdOf(client, given);
  const [found, loaded] = await api(() =>
    Promise.all([
      findActivity(client, ref, callOptions),
      loadDecisionContext(client, Date.now, callOptions),
    ]),
  );
  printNotes(loaded.notes);
  const { context } = loaded;
  const done = action === "approve" ? "approved" : "rejected";
  // The activity asked for, never another one the server answered with.
  if (found.kind === "activity" && !isFingerprint(ref)) {
    const other = otherActivity(ref, found.activity);
    if (other) throw new CliError(`${other}; nothing was voted`, 1);
  }
  if (found.kind === "contested") {
    throw new CliError(
      `cannot ${action} activity ${shownId(found.activity.id)}: ${CONFLICT_TEXT} (activity list marks them); nothing was voted`,
      1,
    );
  }
  const pinned = flags.fingerprint;
  let fingerprint: string;
  let activityId: string | undefined;
  if (found.kind === "fingerprint-only") {
    if (pinned && !sameFingerprint(pinned, found.fingerprint)) {
      throw new CliError(
        `--fingerprint ${pinned} is not the fingerprint given (${found.fingerprint}); nothing was voted`,
        1,
      );
    }
    if (!flags.yes) {
      throw new CliError(
        `no activity with fingerprint ${found.fingerprint} among the organization's newest ${found.searched} activities, so nothing to show for confirmation; give its activity ID, or add --yes to vote on the fingerprint alone`,
        1,
      );
    }
    fingerprint = found.fingerprint;
  } else {
    const decision = decideActivity(found.activity, context);
    activityId = decision.id;
    if (pinned && !sameFingerprint(pinned, decision.fingerprint)) {
      throw new CliError(
        `activity ${shownId(decision.id)} has fingerprint ${sanitizeForTerminal(decision.fingerprint)}, not ${pinned}: it is not what was reviewed; nothing was voted`,
        1,
      );
    }
    const check = decision.can[action];
    if (!check.allowed) {
      throw new CliError(`cannot ${action} activity ${shownId(decision.id)}: ${check.why}`, 1);
    }
    fingerprint = decision.fingerprint;
    // Named by a prefix and voted on without the confirmation: the whole ID and fingerprint said.
    if (flags.yes && ref !== given) {
      writeStderr(
        `activity ${shownId(given)} is ${shownId(decision.id)}, fingerprint ${sanitizeForTerminal(fingerprint)}`,
      );
    }
    if (!flags.yes) {
      if (!canAsk(process.stdin, { isTTY: stderrIsTerminal() })) {
        throw new CliError(
          `not ${done}: confirming needs a terminal (standard input or error is not one); add --yes to ${action} activity ${shownId(decision.id)} without asking`,
          2,
        );
      }
      const { question, header, details } = confirmation(decision, action, context);
      const decoded = await decoding(client, found.activity);
      const width = stderrColumns();
      writeStderr(
        [
          ...header,
          ...(decoded ? summaryLines(decoded.summary, width) : []),
          ...(decoded ? decodedLines(decoded, "  ", context.names) : []),
          ...details,
        ].join("\n"),
      );
      const answer = await askYesNo(question, process.stdin, promptStream());
      if (answer === "interrupted") throw new CliError(`not ${done}: interrupted`, 130);
      if (answer === "no") throw new CliError(`not ${done}: cancelled, nothing was sent`, 1);
    }
  }
  // One body, built once: the client resends it byte for byte on a retry, so the API's
  // idempotency answers a retried vote with the same activity rather than a second vote.
  const answered = await api(() =>
    client.call(
      action === "approve" ? "approve_activity" : "reject_activity",
      { fingerprint },
      callOptions,
    ),
  );
  // The answer must be about the activity voted on: its result is not this vote's otherwise.
  const about = activityId ?? ref;
  const other =
    activityId !== undefined
      ? otherActivity(activityId, answered.activity)
      : sameFingerprint(answered.activity.fingerprint, fingerprint)
        ? undefined
        : `the server answered for activity ${shownId(answered.activity.id)}, whose fingerprint is not ${fingerprint}`;
  if (other) {
    throw new CliError(
      `${other}; what the vote did is not known: tvcwatch activity get ${shownId(about)} shows it`,
      1,
    );
  }
  const after = decideActivity(answered.activity, { ...context, now: Date.now() });
  if (flags.output === "json") printJson(answered);
  else process.stdout.write(`${outcomeLine(action, after, context)}\n`);
  // The vote was cast, but what it let run failed: a script should not go on as if it worked.
  if (answered.activity.status === "ACTIVITY_STATUS_FAILED") process.exitCode = 1;
}

function clockTime(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

async function waitCommand(ref: string, flags: WaitFlags, cmd: Command) {
  const client = await clientOf(cmd);
  const id = await activityIdOf(client, ref);
  const loaded = await api(() => loadDecisionContext(client, Date.now, callOptions));
  printNotes(loaded.notes);
  writeStderr(
    `waiting for activity ${shownId(id)} (up to ${formatDuration(flags.timeout)}, every ${formatDuration(flags.interval)})`,
  );
  const deadline = AbortSignal.timeout(flags.timeout);
  const outcome = await api(() =>
    waitForActivity(
      {
        getActivity: async (signal) =>
          (await getActivity(client, id, { ...callOptions, signal })).activity,
        sleep,
        describe: (a) => {
          const context = { ...loaded.context, now: Date.now() };
          return statusLine(decideActivity(a, context), context);
        },
        report: (line) => writeStderr(`${clockTime(Date.now())} ${line}`),
      },
      flags.interval,
      deadline,
    ),
  );
  if (outcome.activity && flags.output === "json") printJson({ activity: outcome.activity });
  switch (outcome.kind) {
    case "completed":
      return;
    case "failed":
    case "rejected":
      process.exitCode = 1;
      return;
    case "timeout": {
      const status = outcome.activity
        ? `still ${sanitizeForTerminal(outcome.activity.status.replace(/^ACTIVITY_STATUS_/, ""))}`
        : "not read once";
      const lastError = outcome.lastError ? ` (last poll: ${outcome.lastError})` : "";
      throw new CliError(
        `activity ${shownId(id)} is ${status} after ${formatDuration(flags.timeout)}${lastError}; run the command again to keep waiting`,
        2,
      );
    }
  }
}

async function listCommand(flags: ListFlags, cmd: Command): Promise<void> {
  const client = await clientOf(cmd);
  const response = await api(() =>
    client.call(
      "list_activities",
      {
        ...(flags.status?.length ? { filterByStatus: flags.status as never } : {}),
        ...(flags.type?.length ? { filterByType: flags.type as never } : {}),
        paginationOptions: {
          limit: String(flags.limit),
          ...(flags.cursor ? { after: flags.cursor } : {}),
        },
      },
      callOptions,
    ),
  );
  if (flags.output === "json") {
    printJson(response, flags.revealSecrets);
    return;
  }
  if (response.activities.length === 0) {
    sayOnStderr("no activities match");
    return;
  }
  const colour = shouldColour(process.stdout.isTTY);
  process.stdout.write(`${activityTable(response.activities, Date.now(), colour)}\n`);
}

async function getCommand(ref: string, flags: GetFlags, cmd: Command): Promise<void> {
  const client = await clientOf(cmd);
  const id = await activityIdOf(client, ref);
  if (flags.output === "json") {
    const response = await api(() => getActivity(client, id));
    // The decoding beside the API's answer, under a key of its own: the intent stays as sent.
    const decoded = await decoding(client, response.activity);
    printJson(
      decoded ? { ...response, decoded: decodedJson(decoded) } : response,
      flags.revealSecrets,
    );
    return;
  }
  const [response, loaded] = await api(() =>
    Promise.all([getActivity(client, id), loadDecisionContext(client, Date.now, callOptions)]),
  );
  printNotes(loaded.notes);
  const decoded = await decoding(client, response.activity);
  process.stdout.write(`${getText(response.activity, loaded.context, decoded)}\n`);
}

/** What the ID arguments take. */
const ID_ARGUMENT = `activity ID, or its first ${MIN_PREFIX} or more characters as the dashboard shows them`;

function registerList(activity: Command): void {
  activity
    .command("list")
    .summary("the organization's activities, newest first")
    .description(
      "The organization's activities, newest first: ID, status, type, votes, age, and whether it awaits your vote.",
    )
    .option(
      "--status <status>",
      "only these statuses (repeatable or comma-separated): consensus, pending, created, completed, failed, rejected, authenticators_needed, all",
      statusFlag,
    )
    .option(
      "--type <type>",
      "only these activity types (repeatable or comma-separated), e.g. set_organization_feature or ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      typeFlag,
    )
    .addOption(
      new Option("--limit <n>", "how many, 1 to 100").argParser(integerFlag(1, 100)).default(20),
    )
    .option("--cursor <id>", "the page after this activity ID (the last one listed)", textFlag)
    .addOption(outputOption())
    .option("--reveal-secrets", "print secrets in -o json (redacted otherwise)")
    .addHelpText(
      "after",
      "\nExamples:\n  tvcwatch activity list --status consensus\n  tvcwatch activity list --type set_organization_feature -o json | jq -r '.activities[].id'",
    )
    .action(listCommand);
}

function registerGet(activity: Command): void {
  activity
    .command("get")
    .summary("one activity: what it signs decoded, intent, votes by name, quorum, result")
    .description(
      "One activity: what it asks to sign decoded first (Ethereum and Solana transactions, raw payloads, EIP-712 typed data; calls named by the ABIs and IDLs the organization stores), then its intent, votes by name, quorum progress, and result or failure. With -o json the decoding is under `decoded`, beside the API's `activity`.",
    )
    .argument("<id>", ID_ARGUMENT)
    .addOption(outputOption())
    .option("--reveal-secrets", "print secrets in -o json (redacted otherwise)")
    .action(getCommand);
}

function registerVotes(activity: Command): void {
  for (const action of ["approve", "reject"] as const) {
    activity
      .command(action)
      .summary(
        action === "approve"
          ? "approve an activity awaiting consensus (asks first)"
          : "reject an activity awaiting consensus (asks first)",
      )
      .description(
        `${action === "approve" ? "Approve" : "Reject"} an activity awaiting the root quorum's consensus, by its ID or fingerprint. Shows what is decided (type, fingerprint, intent, creator, votes, quorum progress) and asks on the terminal; --yes skips the question (needed without a terminal).`,
      )
      .argument("<id-or-fingerprint>", `${ID_ARGUMENT}, or its fingerprint (sha256:...)`)
      .option("-y, --yes", `${action} without asking`)
      .option(
        "--fingerprint <fp>",
        `${action} only if the activity's fingerprint is this one (what was reviewed with activity get); else nothing is voted`,
        fingerprintFlag,
      )
      .addOption(outputOption())
      .addHelpText(
        "after",
        `\nExit status: 0 the vote was cast; 1 it cannot be cast (already decided, already voted,\nnot a root user), the server answered about another activity or with another fingerprint\nthan --fingerprint, the API refused it, it was cancelled, or what it let run failed;\n2 usage (no terminal to ask on and no --yes) or network failure.\n\nExamples:\n  tvcwatch activity ${action} ACTIVITY_ID --yes\n  tvcwatch activity ${action} ACTIVITY_ID --fingerprint sha256:... --yes   # only what was reviewed`,
      )
      .action((ref: string, flags: VoteFlags, cmd: Command) => vote(action, ref, flags, cmd));
  }
}

function registerWait(activity: Command): void {
  activity
    .command("wait")
    .summary("wait until an activity completes (0), fails or is rejected (1), or time runs out (2)")
    .description(
      "Poll an activity until it completes (exit 0), fails or is rejected (exit 1), or --timeout passes (exit 2), printing each change of its status and votes on stderr. Running it again resumes the wait.",
    )
    .argument("<id>", ID_ARGUMENT)
    .addOption(
      new Option("--timeout <duration>", "how long to wait, 1s to 24h")
        .argParser(waitTimeoutFlag)
        .default(5 * 60_000, "5m"),
    )
    .addOption(
      new Option("--interval <duration>", "time between polls, 250ms to 10m")
        .argParser(intervalFlag)
        .default(2000, "2s"),
    )
    .addOption(outputOption())
    .action((id: string, flags: WaitFlags, cmd: Command) => waitCommand(id, flags, cmd));
}

export function registerActivityCommand(program: Command): void {
  const activity = program
    .command("activity")
    .summary(commandSummary("activity"))
    .description(
      "The organization's activity queue: list and inspect activities, approve or reject one awaiting the root quorum's consensus (showing what is decided, and asking first), and wait for one to finish.",
    );
  registerList(activity);
  registerGet(activity);
  registerVotes(activity);
  registerWait(activity);
}
