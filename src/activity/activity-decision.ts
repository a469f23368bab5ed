/**
 * Deciding on an activity that awaits consensus: from the activity, who is asking (whoami) and
 * the organization's root quorum, whether that person can approve or reject it and if not why
 * (already decided, already voted, not a root user), where the votes stand (`1 of 2 root users
 * approved`, who is still awaited), who created it and who voted, by name, and the lines a
 * confirmation shows before the vote is cast. Pure: no I/O, no terminal; the command line's
 * `tvcwatch activity approve|reject|get|wait` and the dashboard's A / R keys both render it.
 *
 * Usage:
 *
 *   const decision = decideActivity(activity, { viewer, quorum, userNames, now });
 *   const check = decision.can.approve;           // { allowed: true } or { allowed: false, why }
 *   if (check.allowed) show(confirmation(decision, "approve", context));
 *   // ... after the vote, with the activity the API answered:
 *   outcomeLine("approve", decideActivity(answered, context));
 *
 * Structured fields (names, ids, intent values) are as the server sent them; every line and
 * `why` text is escaped for a terminal (src/text/sanitize.ts) and can be printed as it is.
 */
import { createHash } from "node:crypto";
import type { Activity, Vote } from "../api/schemas.js";
import { shortAge } from "../text/duration.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { shortStatus, shortType, timestampMs } from "./activity-fields.js";
import { exportSummary } from "./export-summary.js";
import { summarizeIntent } from "./intent-summary.js";
import type { OrganizationNames } from "./organization-names.js";

/** The person deciding: whoami's userId and username. */
export interface Viewer {
  userId: string;
  username: string;
}

/** The root quorum (get_organization_configs' `configs.quorum`). */
export interface RootQuorum {
  threshold: number;
  userIds: readonly string[];
}

export interface DecisionContext {
  /** Who is asking; unknown (undefined) until whoami answered. */
  viewer?: Viewer | undefined;
  /** The root quorum; unknown when get_organization_configs could not be read. */
  quorum?: RootQuorum | undefined;
  /** Names of users by ID (list_users); the voters' own records are used first. */
  userNames?: ReadonlyMap<string, string> | undefined;
  /** The organization's names (wallets, accounts, keys, tags, policies), shown beside IDs. */
  names?: OrganizationNames | undefined;
  /** Now, in epoch ms, for the ages shown ("7m ago"). */
  now: number;
}

export type VoteAction = "approve" | "reject";
export type Selection = "approved" | "rejected";

/** Why the viewer cannot cast a vote. */
export type CannotVote =
  /** COMPLETED, FAILED or REJECTED: nothing is left to decide. */
  | { kind: "decided"; status: string }
  /** Not (or not yet) awaiting votes: CREATED, PENDING, ... */
  | { kind: "not-awaiting-votes"; status: string }
  /** The viewer voted already. */
  | { kind: "already-voted"; selection: Selection | string }
  /** The viewer is not in the root quorum. */
  | { kind: "not-root-user"; viewerName: string; rootNames: string[] }
  /** The API says no (canApprove / canReject false) for a reason not visible here. */
  | { kind: "refused-by-api"; flag: "canApprove" | "canReject" };

export type VoteCheck = { allowed: true } | { allowed: false; reason: CannotVote; why: string };

export interface UserRef {
  userId: string;
  /** The user's name, or their ID when no name is known. */
  name: string;
  /** Whether a name was found for the ID. */
  named: boolean;
}

export interface VoteView extends UserRef {
  selection: Selection | string;
  atMs: number | undefined;
  /** Whether the voter is in the root quorum (undefined when the quorum is unknown). */
  rootUser: boolean | undefined;
  /** Whether this vote is the submitter's own stamp over the request (it created the activity). */
  submitter: boolean;
}

export interface QuorumProgress {
  /** Approvals that count: by root users, or every approval when the quorum is unknown. */
  approvals: number;
  rejections: number;
  /** Unknown when the quorum is. */
  threshold: number | undefined;
  /** The root users, by name; empty when the quorum is unknown. */
  rootUsers: UserRef[];
  /** Root users who have not voted yet. */
  awaited: UserRef[];
  /** Approvals still needed (0 once reached); undefined when the quorum is unknown. */
  needed: number | undefined;
  /** `1 of 2 root users approved`, or `1 approval so far (root quorum unknown)`. */
  text: string;
}

export interface ActivityDecision {
  activity: Activity;
  id: string;
  /** ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE */
  type: string;
  /** CONSENSUS_NEEDED */
  status: string;
  fingerprint: string;
  /** Who created it: the voter whose vote signs the submitted request itself; else unknown. */
  creator: UserRef | undefined;
  votes: VoteView[];
  progress: QuorumProgress;
  /** Whether the viewer may vote now, and if not why. */
  can: { approve: VoteCheck; reject: VoteCheck };
  /** The intent, a few `field  value` lines (terminal-safe). */
  intentLines: string[];
}

const TERMINAL_STATUSES = new Set([
  "ACTIVITY_STATUS_COMPLETED",
  "ACTIVITY_STATUS_FAILED",
  "ACTIVITY_STATUS_REJECTED",
]);
/** The status of an activity that awaits its root users' votes. */
export const AWAITING_VOTES = "ACTIVITY_STATUS_CONSENSUS_NEEDED";

/** Whether an activity has reached its end (COMPLETED, FAILED or REJECTED). */
export function isDecided(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

function selectionOf(vote: Vote): Selection | string {
  if (vote.selection === "VOTE_SELECTION_APPROVED") return "approved";
  if (vote.selection === "VOTE_SELECTION_REJECTED") return "rejected";
  return vote.selection.replace(/^VOTE_SELECTION_/, "").toLowerCase();
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Whether a vote is the submitter's: its message is the submitted request itself (its SHA-256 is
 * the fingerprint), where a vote cast later signs an approve_activity request instead.
 */
function isSubmission(vote: Vote, activity: Activity): boolean {
  const message = vote.message;
  if (!message) return false;
  const hex = activity.fingerprint.replace(/^sha256:/i, "").toLowerCase();
  if (/^[0-9a-f]{64}$/.test(hex) && sha256Hex(message) === hex) return true;
  // A server that re-serialized the request: the same type and parameters, not a vote's body.
  try {
    const body = JSON.parse(message) as { type?: unknown; parameters?: unknown };
    const intent = Object.values(activity.intent)[0];
    return (
      body.type === activity.type &&
      JSON.stringify(body.parameters) === JSON.stringify(intent ?? body.parameters)
    );
  } catch {
    return false;
  }
}

function userRef(userId: string, context: DecisionContext, votes: readonly Vote[] = []): UserRef {
  const fromVote = votes.find((v) => v.userId === userId && v.user?.userName)?.user?.userName;
  const name =
    fromVote ??
    context.userNames?.get(userId) ??
    (context.viewer?.userId === userId ? context.viewer.username : undefined);
  return name ? { userId, name, named: true } : { userId, name: userId, named: false };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "a and b", "a, b and c". */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function progressOf(
  activity: Activity,
  votes: VoteView[],
  context: DecisionContext,
): QuorumProgress {
  const quorum = context.quorum;
  // One vote per user counts (the first).
  const firstByUser = new Map<string, VoteView>();
  for (const v of votes) if (!firstByUser.has(v.userId)) firstByUser.set(v.userId, v);
  const counted = [...firstByUser.values()].filter((v) => quorum === undefined || v.rootUser);
  const approvals = counted.filter((v) => v.selection === "approved").length;
  const rejections = counted.filter((v) => v.selection === "rejected").length;
  if (!quorum) {
    return {
      approvals,
      rejections,
      threshold: undefined,
      rootUsers: [],
      awaited: [],
      needed: undefined,
      text: `${plural(approvals, "approval")}${rejections ? `, ${plural(rejections, "rejection")}` : ""} so far (root quorum unknown)`,
    };
  }
  const rootUsers = quorum.userIds.map((id) => userRef(id, context, activity.votes));
  const awaited = rootUsers.filter((u) => !firstByUser.has(u.userId));
  const needed = Math.max(0, quorum.threshold - approvals);
  const of = `${approvals} of ${quorum.threshold} root ${quorum.threshold === 1 ? "user" : "users"} approved`;
  const size =
    quorum.threshold < quorum.userIds.length
      ? ` (quorum: any ${quorum.threshold} of ${quorum.userIds.length})`
      : "";
  const rejected = rejections ? `, ${rejections} rejected` : "";
  return {
    approvals,
    rejections,
    threshold: quorum.threshold,
    rootUsers,
    awaited,
    needed,
    text: `${of}${size}${rejected}`,
  };
}

function checkVote(
  action: VoteAction,
  activity: Activity,
  votes: VoteView[],
  context: DecisionContext,
  rootNames: string[],
): VoteCheck {
  const flag = action === "approve" ? "canApprove" : "canReject";
  const no = (reason: CannotVote): VoteCheck => ({
    allowed: false,
    reason,
    why: sanitizeForTerminal(whyNot(reason, action)),
  });
  if (isDecided(activity.status))
    return no({ kind: "decided", status: shortStatus(activity.status) });
  if (activity[flag]) return { allowed: true };
  const viewer = context.viewer;
  const own = viewer ? votes.find((v) => v.userId === viewer.userId) : undefined;
  if (own) return no({ kind: "already-voted", selection: own.selection });
  if (activity.status !== AWAITING_VOTES) {
    return no({ kind: "not-awaiting-votes", status: shortStatus(activity.status) });
  }
  if (viewer && context.quorum && !context.quorum.userIds.includes(viewer.userId)) {
    return no({ kind: "not-root-user", viewerName: viewer.username, rootNames });
  }
  return no({ kind: "refused-by-api", flag });
}

/** Why a vote cannot be cast, in a sentence. */
export function whyNot(reason: CannotVote, action: VoteAction): string {
  switch (reason.kind) {
    case "decided":
      return `it is already decided: ${reason.status}`;
    case "already-voted":
      return `you already ${reason.selection === "approved" || reason.selection === "rejected" ? reason.selection : `voted (${reason.selection} on)`} it`;
    case "not-awaiting-votes":
      return `it is not awaiting votes (status ${reason.status})`;
    case "not-root-user":
      return `you (${reason.viewerName}) are not a root user; the root quorum is ${reason.rootNames.length ? listOf(reason.rootNames) : "empty"}`;
    case "refused-by-api":
      return `the API does not let you ${action} it (${reason.flag} is false)`;
  }
}

/** Everything a decision on `activity` needs, from what the caller knows. */
export function decideActivity(activity: Activity, context: DecisionContext): ActivityDecision {
  const quorum = context.quorum;
  const votes: VoteView[] = activity.votes.map((v) => ({
    ...userRef(v.userId, context, activity.votes),
    selection: selectionOf(v),
    atMs: timestampMs(v.createdAt),
    rootUser: quorum ? quorum.userIds.includes(v.userId) : undefined,
    submitter: isSubmission(v, activity),
  }));
  const creatorVote = votes.find((v) => v.submitter);
  const progress = progressOf(activity, votes, context);
  const rootNames = progress.rootUsers.map((u) => u.name);
  return {
    activity,
    id: activity.id,
    type: activity.type,
    status: shortStatus(activity.status),
    fingerprint: activity.fingerprint,
    creator: creatorVote
      ? { userId: creatorVote.userId, name: creatorVote.name, named: creatorVote.named }
      : undefined,
    votes,
    progress,
    can: {
      approve: checkVote("approve", activity, votes, context, rootNames),
      reject: checkVote("reject", activity, votes, context, rootNames),
    },
    intentLines: summarizeIntent(activity.intent, {
      userNames: namesKnown(activity, context),
      names: context.names,
    }),
  };
}

/** Every name known: list_users', the voters', the viewer's. */
function namesKnown(activity: Activity, context: DecisionContext): Map<string, string> {
  const names = new Map(context.userNames ?? []);
  for (const v of activity.votes) if (v.user?.userName) names.set(v.userId, v.user.userName);
  if (context.viewer) names.set(context.viewer.userId, context.viewer.username);
  return names;
}

function created(atMs: number | undefined, now: number): string {
  return atMs === undefined ? "" : `${shortAge(now - atMs)} ago `;
}

function ago(atMs: number | undefined, now: number): string {
  return atMs === undefined ? "" : ` ${shortAge(now - atMs)} ago`;
}

/** `sre-lead` or `sre-lead (you)`, with the ID when no name is known. */
function who(user: UserRef, context: DecisionContext): string {
  const you = context.viewer?.userId === user.userId ? " (you)" : "";
  return `${user.name}${user.named ? "" : " (user ID; name unknown)"}${you}`;
}

/**
 * Where the vote stands in one line: `CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for
 * sre-lead`, `COMPLETED`, `FAILED: <failure message>`. Terminal-safe.
 */
export function statusLine(decision: ActivityDecision, context?: DecisionContext): string {
  const a = decision.activity;
  if (a.status === "ACTIVITY_STATUS_FAILED") {
    const message = a.failure?.message ? `: ${a.failure.message}` : "";
    return sanitizeForTerminal(`${decision.status}${message}`.replace(/[\r\n]+/g, " "));
  }
  if (a.status !== AWAITING_VOTES) return sanitizeForTerminal(decision.status);
  const awaited = decision.progress.awaited;
  const waiting =
    awaited.length > 0 && (decision.progress.needed ?? 0) > 0
      ? `; waiting for ${decision.progress.needed === awaited.length ? "" : `${decision.progress.needed} of `}${listOf(awaited.map((u) => (context ? who(u, context) : u.name)))}`
      : "";
  return sanitizeForTerminal(`${decision.status}: ${decision.progress.text}${waiting}`);
}

export interface Confirmation {
  /** `Approve this activity?` */
  question: string;
  /**
   * What is decided, which the dashboard's confirmation never scrolls away: the vote and the
   * activity's type, its id, the whole fingerprint, the quorum's progress (`1 of 2 root users
   * approved`), and for an export what leaves Turnkey and to which target public key. Each is a
   * line or two at 80 columns whatever the number of votes or root users. Terminal-safe.
   */
  header: string[];
  /**
   * The rest: the status with who is awaited, who created it, the votes by name, the root
   * users, the intent, what your vote does.
   */
  details: string[];
  /** The header, then the details: what the command line prints before asking. */
  lines: string[];
}

/**
 * The confirmation shown before a vote: what is decided (type, full fingerprint, quorum; for an
 * export, what leaves Turnkey), who created it and who voted, the intent, and what this vote
 * would do. Lines are terminal-safe; the fingerprint is whole (a caller that wraps must wrap it,
 * never cut it).
 */
export function confirmation(
  decision: ActivityDecision,
  action: VoteAction,
  context: DecisionContext,
): Confirmation {
  const effect = voteEffect(decision, action, context);
  const exported = exportSummary(decision.activity, context.names);
  const header = [
    `  you ${action === "approve" ? "approve" : "reject "}  ${shortType(decision.type)} (${decision.type})`,
    `  activity     ${decision.id}`,
    `  fingerprint  ${decision.fingerprint}`,
    `  quorum       ${decision.progress.text}`,
    ...(exported ? [`  exports      ${exported}`] : []),
  ].map(sanitizeForTerminal);
  const details = [
    sanitizeForTerminal(`  status       ${statusLine(decision, context)}`),
    ...aboutLines(decision, context),
    ...(effect ? [sanitizeForTerminal(`  your vote    ${effect}`)] : []),
  ];
  return {
    question: `${action === "approve" ? "Approve" : "Reject"} this activity?`,
    header,
    details,
    lines: [...header, ...details],
  };
}

/** What the viewer's vote would do, when the quorum says: reach it, or leave n more to go. */
function voteEffect(
  decision: ActivityDecision,
  action: VoteAction,
  context: DecisionContext,
): string | undefined {
  const { progress } = decision;
  const viewer = context.viewer;
  if (
    progress.threshold === undefined ||
    !viewer ||
    !progress.awaited.some((u) => u.userId === viewer.userId)
  ) {
    return undefined;
  }
  if (action === "approve") {
    const after = progress.approvals + 1;
    const of = `${after} of ${progress.threshold}`;
    return after >= progress.threshold
      ? `approving makes it ${of}: the quorum is reached and the activity runs`
      : `approving makes it ${of}; ${plural(progress.threshold - after, "more approval")} needed after yours`;
  }
  const stillPossible = progress.approvals + progress.awaited.length - 1;
  return stillPossible < progress.threshold
    ? "rejecting leaves too few root users to approve it: it is REJECTED"
    : `rejecting is counted; ${plural(progress.awaited.length - 1, "other root user")} can still approve it`;
}

/** The activity as a person reads it: type, id, fingerprint, status, then who and what. */
export function detailLines(decision: ActivityDecision, context: DecisionContext): string[] {
  return [
    ...[
      `  type         ${shortType(decision.type)} (${decision.type})`,
      `  activity     ${decision.id}`,
      `  fingerprint  ${decision.fingerprint}`,
      `  status       ${statusLine(decision, context)}`,
    ].map(sanitizeForTerminal),
    ...aboutLines(decision, context),
  ];
}

/** Who created it, the votes by name, the root users still to vote, and the intent. */
function aboutLines(decision: ActivityDecision, context: DecisionContext): string[] {
  const a = decision.activity;
  const lines = [
    `  created      ${created(timestampMs(a.createdAt), context.now)}${decision.creator ? `by ${who(decision.creator, context)}` : "(the API names no creator: no vote signs the request)"}`,
  ];
  const awaiting = a.status === AWAITING_VOTES;
  if (decision.votes.length === 0) lines.push(`  votes        ${awaiting ? "none yet" : "none"}`);
  decision.votes.forEach((v, i) => {
    const root = v.rootUser === false ? " (not a root user)" : "";
    const note = v.submitter ? " (by submitting it)" : "";
    lines.push(
      `  ${i === 0 ? "votes       " : "            "} ${v.selection} by ${who(v, context)}${root}${note}${ago(v.atMs, context.now)}`,
    );
  });
  if (awaiting && decision.progress.rootUsers.length > 0) {
    lines.push(
      `  root users   ${decision.progress.rootUsers.map((u) => who(u, context)).join(", ")}`,
    );
  }
  lines.push("  intent");
  for (const l of decision.intentLines) lines.push(`    ${l}`);
  return lines.map(sanitizeForTerminal);
}

/**
 * What a vote did, from the activity the API answered with: `approved: COMPLETED`, `approved:
 * CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for sre-lead`, `rejected: REJECTED`.
 */
export function outcomeLine(
  action: VoteAction,
  after: ActivityDecision,
  context?: DecisionContext,
): string {
  return `${action === "approve" ? "approved" : "rejected"} activity ${sanitizeForTerminal(after.id)}: ${statusLine(after, context)}`;
}
