/**
 * Restart-safe following (`tail -f --checkpoint FILE`): what a follow records after each batch it
 * has written, and how a new follow resumes from it without printing a line twice or missing one.
 *
 * The record: the newest line handled (its sort key, on the server's clock, as lines are stamped)
 * and the identities (replica, timestamp, content) of every line handled within `marginMs` before
 * it. A resumed follow asks for everything from that floor on (its first window reaches back past
 * it), drops what is older than the floor, and drops once each line whose identity was recorded:
 * what was printed before is not printed again, and what came after (or late, but within the
 * margin) is printed once. A line that comes later than the margin is as lost as it would be to a
 * follow that never stopped (the overlap bounds both).
 *
 * One deployment's record is format 1; a follow of several writes format 2, a record per
 * deployment (`{"format":2,"deployments":[...]}`), and reads format 1 as one of them.
 */
import { type LogEvent, type LogLine, lineTimestamp } from "./log-line.js";

/** The newest format this tvcwatch reads: 1, one deployment; 2, several. */
export const CHECKPOINT_FORMAT = 2;

export interface CheckpointLine {
  replicaLabel: string;
  ts: { seconds: string; nanos: string } | null;
  content: string;
}

export interface Checkpoint {
  format: number;
  deploymentId: string;
  /** Sort key (epoch ms, server clock) of the newest line handled. */
  newest: number;
  /** Lines handled at or after newest - margin. */
  lines: CheckpointLine[];
}

const identity = (l: CheckpointLine) =>
  `${l.replicaLabel}\u0000${l.ts ? `${l.ts.seconds}.${l.ts.nanos}` : "-"}\u0000${l.content}`;

/** The lines a follow has handled within the margin of its newest: what a checkpoint records. */
export class HandledLines {
  private lines: LogLine[] = [];
  private newest = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deploymentId: string,
    private readonly marginMs: number,
  ) {}

  add(events: readonly LogEvent[]): void {
    for (const e of events) {
      if (e.kind !== "line") continue;
      this.lines.push(e);
      if (e.sortKey > this.newest) this.newest = e.sortKey;
    }
    const floor = this.newest - this.marginMs;
    if (this.lines.length > 0 && (this.lines[0] as LogLine).sortKey < floor) {
      this.lines = this.lines.filter((l) => l.sortKey >= floor);
    }
  }

  /** The record as of now (undefined before any line). */
  snapshot(): Checkpoint | undefined {
    if (this.newest === Number.NEGATIVE_INFINITY) return undefined;
    return {
      format: 1,
      deploymentId: this.deploymentId,
      newest: this.newest,
      lines: this.lines.map((l) => ({
        replicaLabel: l.replicaLabel,
        ts: lineTimestamp(l) ?? null,
        content: l.content,
      })),
    };
  }
}

/** Several deployments' records, as a follow of several writes them (format 2). */
export interface CheckpointSet {
  format: 2;
  deployments: Checkpoint[];
}

const FIX = "delete it to start over, or name another file";

/** Why one deployment's record is malformed; undefined when it is whole. */
function recordProblem(c: Partial<Checkpoint>): string | undefined {
  if (typeof c.deploymentId !== "string" || typeof c.newest !== "number" || !Array.isArray(c.lines))
    return `is not a tvcwatch checkpoint (fields missing): ${FIX}`;
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
  }
  return undefined;
}

/**
 * The records a checkpoint's text holds for the deployments followed, by id; or why it cannot be
 * used, in words naming the fix. A record for a deployment no longer followed is left out; a file
 * with none of them was written for other deployments.
 */
export function parseCheckpoints(
  text: string,
  deploymentIds: readonly string[],
): { checkpoints: Map<string, Checkpoint> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: `is not a tvcwatch checkpoint (not JSON): ${FIX}` };
  }
  const c = value as (Partial<Checkpoint> & { deployments?: unknown }) | null;
  if (!c || typeof c !== "object" || typeof c.format !== "number") {
    return { error: `is not a tvcwatch checkpoint (no format): ${FIX}` };
  }
  if (c.format > CHECKPOINT_FORMAT) {
    return {
      error: `has format ${c.format}, newer than this tvcwatch reads (${CHECKPOINT_FORMAT}): upgrade tvcwatch, or name another file`,
    };
  }
  let records: Partial<Checkpoint>[];
  if (c.format === 2) {
    if (!Array.isArray(c.deployments))
      return { error: `is not a tvcwatch checkpoint (fields missing): ${FIX}` };
    records = c.deployments as Partial<Checkpoint>[];
  } else {
    records = [c];
  }
  for (const r of records) {
    const problem = r && typeof r === "object" ? recordProblem(r) : "is not a tvcwatch checkpoint";
    if (problem) return { error: problem };
  }
  const whole = records as Checkpoint[];
  const followed = whole.filter((r) => deploymentIds.includes(r.deploymentId));
  if (followed.length === 0 && whole.length > 0) {
    const written = whole.map((r) => r.deploymentId).join(", ");
    return {
      error: `was written for deployment${whole.length > 1 ? "s" : ""} ${written}, not ${deploymentIds.join(", ")}: name another file for ${deploymentIds.length > 1 ? "these" : "this one"}`,
    };
  }
  if (deploymentIds.length === 1 && whole.length > 1) {
    return {
      error: `was written for ${whole.length} deployments (${whole.map((r) => r.deploymentId).join(", ")}): follow them all with --deployment repeated, or name another file`,
    };
  }
  return {
    checkpoints: new Map(followed.map((r) => [r.deploymentId, { ...r, format: 1 }])),
  };
}

/** One deployment's record in a checkpoint's text; or why it cannot be used. */
export function parseCheckpoint(
  text: string,
  deploymentId: string,
): { checkpoint: Checkpoint } | { error: string } {
  const parsed = parseCheckpoints(text, [deploymentId]);
  if ("error" in parsed) return parsed;
  const checkpoint = parsed.checkpoints.get(deploymentId);
  // An empty format-2 file: nothing recorded yet.
  return checkpoint ? { checkpoint } : { error: `records nothing for ${deploymentId}: ${FIX}` };
}

/**
 * A resumed follow's filter: lines older than the floor were handled (or are as late as lost), and
 * each recorded line is dropped once when it comes again.
 */
export class ResumeFilter {
  readonly floorMs: number;
  private readonly seen = new Map<string, number>();

  constructor(checkpoint: Checkpoint, marginMs: number) {
    this.floorMs = checkpoint.newest - marginMs;
    for (const l of checkpoint.lines) {
      const key = identity(l);
      this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    }
  }

  /** True when the event is new to the output. */
  keep(e: LogEvent): boolean {
    if (e.kind !== "line") return true;
    if (e.sortKey < this.floorMs) return false;
    if (this.seen.size === 0) return true;
    const key = identity({
      replicaLabel: e.replicaLabel,
      ts: lineTimestamp(e) ?? null,
      content: e.content,
    });
    const n = this.seen.get(key);
    if (n === undefined) return true;
    if (n <= 1) this.seen.delete(key);
    else this.seen.set(key, n - 1);
    return false;
  }
}

/**
 * A follow's batches as a resumed follow prints them: what the checkpoint recorded dropped
 * (without one, as they come), and the gap its age left, if any, said before the first batch.
 */
export function resumedBatches(
  resume: ResumeFilter | undefined,
  gap: LogEvent | undefined,
): (batch: LogEvent[]) => LogEvent[] {
  let pending = gap;
  return (batch) => {
    const events = resume ? batch.filter((e) => resume.keep(e)) : batch;
    if (pending) events.unshift(pending);
    pending = undefined;
    return events;
  };
}
