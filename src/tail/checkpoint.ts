/**
 * `tail -f --checkpoint FILE`: what FILE holds, and how a follow resumes from it.
 *
 * Format 3 (this one): `{"format":3,"deployments":[record, ...],"outputFile":{...}}`, one record
 * per deployment followed (./handled-lines.ts: where a later follow starts, measured on the
 * server's clock, and the digests of the lines it could be sent again), and with
 * `--output-file` that file's identity and the length it had when the record was written.
 *
 * Formats 1 and 2 (older tvcwatch) recorded the newest line's own timestamp as the point to
 * resume from, and each line's identity in full. They are read as the version that wrote them
 * would resume (from that timestamp less its margin, lines placed before it dropped), and
 * rewritten in format 3 with the first record; one whose newest line is stamped well ahead of
 * this machine's clock (a line from the future moved it) is refused, naming the fix.
 *
 * A checkpoint is untrusted input: each number must be a plausible one of its kind (a time
 * between 1970 and 9999, a slack no follow writes more of, a clock offset no larger than the
 * server keeps logs), or the file is refused naming the field. Whether its point is ahead of the
 * server's clock, or older than the server keeps, only an answer's `Date` header can tell: the
 * follower judges that (./resume-point.ts).
 */
import type { HandledRecord } from "./handled-lines.js";
import { DIGEST_CHARS, digestOf, recordedLineKey } from "./line-identity.js";
import { MAX_CLOCK_OFFSET_MS, type ResumePoint } from "./resume-point.js";
import { MAX_RESUME_SLACK_MS } from "./window-plan.js";

/** The format this tvcwatch writes, and the newest it reads. */
export const CHECKPOINT_FORMAT = 3;
/** An old record whose newest line is stamped further ahead of this machine's clock is refused. */
const LEGACY_AHEAD_MS = 5 * 60_000;

/** With `--output-file`: the file's identity and its length when the record was written. */
export interface OutputFileRecord {
  /** Device and inode numbers, in decimal. */
  dev: string;
  ino: string;
  length: number;
}

/** What a checkpoint holds: format 3, as written. */
export interface CheckpointFile {
  format: 3;
  deployments: HandledRecord[];
  outputFile?: OutputFileRecord | undefined;
}

/** One deployment's record as read; `legacy` when it was of format 1 or 2. */
export type ReadRecord = HandledRecord & { legacy?: boolean };

export interface ReadCheckpoint {
  records: Map<string, ReadRecord>;
  outputFile?: OutputFileRecord | undefined;
}

const FIX = "pass --start-over to set it aside and start from --since, or name another file";
const NOT_OURS = `is not a tvcwatch checkpoint (fields missing): ${FIX}`;

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
/** The first millisecond of the year 10000: RFC 3339's times end before it. */
const END_OF_TIMES = 253_402_300_800_000;
/** A time a checkpoint can hold: epoch ms from 1970 into the year 9999. */
const isTime = (v: number) => v >= 0 && v < END_OF_TIMES;

/** Why a record's numbers are not ones a follow writes, or undefined when they are. */
function implausible(r: HandledRecord): string | undefined {
  const bad = (field: string, value: number, is: string) =>
    `is not a tvcwatch checkpoint (its ${field}, ${value}, is ${is}): ${FIX}`;
  if (!isTime(r.resumeFromMs)) return bad("resumeFromMs", r.resumeFromMs, "no time");
  if (r.slackMs > MAX_RESUME_SLACK_MS)
    return bad("slackMs", r.slackMs, `more than a follow allows (${MAX_RESUME_SLACK_MS} ms)`);
  if (r.serverMinusWallMs !== undefined && Math.abs(r.serverMinusWallMs) > MAX_CLOCK_OFFSET_MS)
    return bad(
      "serverMinusWallMs",
      r.serverMinusWallMs,
      "no clock offset a server and this machine can have: more than the 7 days the server keeps logs",
    );
  if (r.gap && !(isTime(r.gap.fromMs) && isTime(r.gap.toMs) && r.gap.fromMs <= r.gap.toMs))
    return bad("gap", r.gap.fromMs, `no time before its end (${r.gap.toMs})`);
  return undefined;
}
const DIGESTS = /^[A-Za-z0-9_-]*$/;
const DECIMAL = /^\d{1,30}$/;

function outputFileOf(v: unknown): OutputFileRecord | undefined | "bad" {
  if (v === undefined) return undefined;
  const o = v as Partial<OutputFileRecord> | null;
  if (
    !o ||
    typeof o !== "object" ||
    typeof o.dev !== "string" ||
    !DECIMAL.test(o.dev) ||
    typeof o.ino !== "string" ||
    !DECIMAL.test(o.ino) ||
    !Number.isSafeInteger(o.length) ||
    (o.length as number) < 0
  )
    return "bad";
  return { dev: o.dev, ino: o.ino, length: o.length as number };
}

/** One record of format 3, or why it is not one. */
function recordOf(v: unknown): HandledRecord | string {
  const r = v as Partial<HandledRecord> | null;
  if (!r || typeof r !== "object") return NOT_OURS;
  if (
    typeof r.deploymentId !== "string" ||
    !isFiniteNumber(r.resumeFromMs) ||
    !isFiniteNumber(r.slackMs) ||
    r.slackMs < 0 ||
    (r.clock !== "server" && r.clock !== "client") ||
    (r.serverMinusWallMs !== undefined && !isFiniteNumber(r.serverMinusWallMs)) ||
    typeof r.lines !== "string"
  )
    return NOT_OURS;
  if (r.lines.length % DIGEST_CHARS !== 0 || !DIGESTS.test(r.lines))
    return `is not a tvcwatch checkpoint (its lines are malformed): ${FIX}`;
  const gap = r.gap as { fromMs?: unknown; toMs?: unknown } | undefined;
  if (gap !== undefined && (!gap || !isFiniteNumber(gap.fromMs) || !isFiniteNumber(gap.toMs)))
    return NOT_OURS;
  const record: HandledRecord = {
    deploymentId: r.deploymentId,
    resumeFromMs: r.resumeFromMs,
    slackMs: r.slackMs,
    clock: r.clock,
    ...(r.serverMinusWallMs !== undefined ? { serverMinusWallMs: r.serverMinusWallMs } : {}),
    lines: r.lines,
    ...(gap ? { gap: { fromMs: gap.fromMs as number, toMs: gap.toMs as number } } : {}),
  };
  return implausible(record) ?? record;
}

interface LegacyRecord {
  deploymentId: string;
  newest: number;
  lines: { replicaLabel: string; ts: { seconds: string; nanos: string } | null; content: string }[];
}

/** A record of format 1 or 2, as the version that wrote it would resume; or why not. */
function legacyRecordOf(v: unknown, marginMs: number, wallNow: number): ReadRecord | string {
  const c = v as Partial<LegacyRecord> | null;
  if (!c || typeof c !== "object") return NOT_OURS;
  if (typeof c.deploymentId !== "string" || typeof c.newest !== "number" || !Array.isArray(c.lines))
    return NOT_OURS;
  if (!isTime(c.newest))
    return `is not a tvcwatch checkpoint (its newest, ${c.newest}, is no time): ${FIX}`;
  const digests: string[] = [];
  for (const l of c.lines) {
    const ok =
      l &&
      typeof l === "object" &&
      typeof l.replicaLabel === "string" &&
      typeof l.content === "string" &&
      (l.ts === null ||
        (typeof l.ts === "object" &&
          typeof l.ts.seconds === "string" &&
          typeof l.ts.nanos === "string"));
    if (!ok) return `is not a tvcwatch checkpoint (a line is malformed): ${FIX}`;
    digests.push(digestOf(recordedLineKey(l)));
  }
  if (c.newest > wallNow + LEGACY_AHEAD_MS) {
    return `was written by an older tvcwatch from a line stamped ${new Date(c.newest).toISOString()}, ahead of this machine's clock, so it would skip lines: ${FIX}`;
  }
  return {
    deploymentId: c.deploymentId,
    resumeFromMs: c.newest - marginMs,
    slackMs: 0,
    clock: "server",
    lines: digests.join(""),
    legacy: true,
  };
}

/**
 * The records a checkpoint's text holds for the deployments followed, by id, and the output
 * file's; or why it cannot be used, in words naming the fix. A record for a deployment no longer
 * followed is left out; a file with none of them was written for other deployments.
 * `legacyMarginMs` is the margin formats 1 and 2 resumed with; `wallNow` this machine's clock.
 */
export function parseCheckpoint(
  text: string,
  deploymentIds: readonly string[],
  legacyMarginMs: number,
  wallNow: number,
): ReadCheckpoint | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: `is not a tvcwatch checkpoint (not JSON): ${FIX}` };
  }
  const c = value as { format?: unknown; deployments?: unknown; outputFile?: unknown } | null;
  if (!c || typeof c !== "object" || typeof c.format !== "number") {
    return { error: `is not a tvcwatch checkpoint (no format): ${FIX}` };
  }
  if (c.format > CHECKPOINT_FORMAT) {
    return {
      error: `has format ${c.format}, newer than this tvcwatch reads (${CHECKPOINT_FORMAT}): upgrade tvcwatch, or name another file`,
    };
  }
  let raw: unknown[];
  if (c.format === 1) raw = [c];
  else if (Array.isArray(c.deployments)) raw = c.deployments;
  else return { error: NOT_OURS };
  const records: ReadRecord[] = [];
  for (const r of raw) {
    const read =
      c.format === CHECKPOINT_FORMAT ? recordOf(r) : legacyRecordOf(r, legacyMarginMs, wallNow);
    if (typeof read === "string") return { error: read };
    records.push(read);
  }
  const outputFile = c.format === CHECKPOINT_FORMAT ? outputFileOf(c.outputFile) : undefined;
  if (outputFile === "bad") return { error: NOT_OURS };
  const followed = records.filter((r) => deploymentIds.includes(r.deploymentId));
  if (followed.length === 0 && records.length > 0) {
    const written = records.map((r) => r.deploymentId).join(", ");
    return {
      error: `was written for deployment${records.length > 1 ? "s" : ""} ${written}, not ${deploymentIds.join(", ")}: name another file for ${deploymentIds.length > 1 ? "these" : "this one"}`,
    };
  }
  if (deploymentIds.length === 1 && records.length > 1) {
    return {
      error: `was written for ${records.length} deployments (${records.map((r) => r.deploymentId).join(", ")}): follow them all with --deployment repeated, or name another file`,
    };
  }
  return {
    records: new Map(followed.map((r) => [r.deploymentId, r])),
    ...(outputFile ? { outputFile } : {}),
  };
}

/** The text of a checkpoint. */
export function serializeCheckpoint(file: CheckpointFile): string {
  return JSON.stringify(file);
}

/** Where a follow resumed from `record` starts (./resume-point.ts). */
export function resumePointOf(record: ReadRecord): ResumePoint {
  return {
    fromMs: record.resumeFromMs,
    slackMs: record.slackMs,
    clock: record.clock,
    serverMinusWallMs: record.serverMinusWallMs,
    // Formats 1 and 2 kept no slack: a window past the point drops what lies before it.
    ...(record.legacy ? { maxSetAside: 0 } : {}),
  };
}
