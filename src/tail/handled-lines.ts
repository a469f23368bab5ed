/**
 * The lines a restart-safe follow (`tail -f --checkpoint`) has handed on that a later follow's
 * first window could send again, and where that follow starts: what the checkpoint records after
 * each batch (./checkpoint.ts writes it down). No line's timestamp decides anything here.
 *
 * Where to start is the follower's measured progress (FollowProgress, ./follower.ts): on the
 * server's clock, the last window known to have covered everything, less its overlap and the way
 * to the server. A later follow's first window reaches back to it and no further than `slackMs`
 * before it (./resume-point.ts), so the lines to keep are those such a window can send: every
 * line handed on stays until a response has left it out whose window's front was already at or
 * before that earliest reach (a window loses lines only at its front, whatever their timestamps
 * say). A line stamped a year ahead stays while windows send it, one stamped in 1970 too; a line
 * that came out of order goes when responses stop sending it, like every other.
 *
 * A follow resumed from a record carries that record's lines (known by digest only): each one
 * the follow would hand on again is dropped instead (`add` returns only what is new to the
 * output), and those no response sends again go as every kept line does.
 *
 * Bounded: at most `cap` lines are kept. Beyond it, those least recently sent are let go, and the
 * point a later follow starts from moves past the windows that last sent them (it would not read
 * them again); lines placed between the old and the new point that were not handed on yet would
 * be missed by a restart then. That is said once on stderr (`onOverflow`) and, on such a restart,
 * by a gap marker (the record's `gap`, kept until the follow's own progress passes it).
 */

import type { GapMarker, LogEvent, LogLine } from "../logs/model/log-line.js";
import { grouped } from "../text/grouped-number.js";
import type { FollowProgress, ResponseSighting } from "./follower.js";
import { DIGEST_CHARS, digestOf, entryKey, lineKey } from "./line-identity.js";
import type { RecordClock } from "./resume-point.js";

/** At most this many lines are kept (a checkpoint of about 2.2 MB). */
export const MAX_KEPT_LINES = 100_000;
/** Responses remembered for letting lines go, at most (more only let them go later). */
const MAX_MARKS = 1024;

/** One deployment's record, as a checkpoint of format 3 holds it. */
export interface HandledRecord {
  deploymentId: string;
  /** Epoch ms on `clock` (see FollowProgress.resumeFromMs). */
  resumeFromMs: number;
  /** A later first window may reach this far before resumeFromMs, and no further (ms). */
  slackMs: number;
  clock: RecordClock;
  serverMinusWallMs?: number | undefined;
  /** The lines kept: their digests (DIGEST_CHARS each) one after the other, a line twice twice. */
  lines: string;
  /** Lines a restart would not read again (the cap): a resumed follow says so with a gap marker. */
  gap?: { fromMs: number; toMs: number } | undefined;
}

/** One identity's copies: the last response that sent each (-1: only before the restart). */
interface Kept {
  digest: string;
  lastIn: number[];
  /** Copies [0, next) were matched in response `seenIn`. */
  seenIn: number;
  next: number;
}

export interface HandledLinesOptions {
  cap?: number;
  /** Said once each time the cap is reached. */
  onOverflow?: (text: string) => void;
  /** The record a resumed follow starts from. */
  resumedFrom?: HandledRecord | undefined;
}

export class HandledLines {
  /** By identity (./line-identity.ts), or, for lines carried from before the restart, by digest. */
  private readonly kept = new Map<string, Kept>();
  private readonly carried = new Map<string, Kept>();
  private copies = 0;
  private carriedCopies = 0;
  /** Responses that can let lines go: the upper bound of their window's front. */
  private marks: { response: number; frontMs: number; clock: RecordClock }[] = [];
  private response = -1;
  private resumeFromMs = Number.NEGATIVE_INFINITY;
  /** resumeFromMs less the slack: never moves back (what is let go cannot come back). */
  private earliestReach = Number.NEGATIVE_INFINITY;
  private clock: RecordClock | undefined;
  private gap: { fromMs: number; toMs: number } | undefined;
  private overflowing = false;
  private readonly cap: number;

  constructor(
    private readonly deploymentId: string,
    private readonly options: HandledLinesOptions = {},
  ) {
    this.cap = options.cap ?? MAX_KEPT_LINES;
    const from = options.resumedFrom;
    if (from) {
      this.clock = from.clock;
      this.resumeFromMs = from.resumeFromMs;
      this.earliestReach = from.resumeFromMs - from.slackMs;
      this.gap = from.gap;
      for (let i = 0; i + DIGEST_CHARS <= from.lines.length; i += DIGEST_CHARS) {
        const digest = from.lines.slice(i, i + DIGEST_CHARS);
        const k = this.carried.get(digest);
        if (k) k.lastIn.push(-1);
        else this.carried.set(digest, { digest, lastIn: [-1], seenIn: -1, next: 0 });
        this.carriedCopies += 1;
      }
    }
  }

  /** Lines kept (carried ones included). */
  size(): number {
    return this.copies + this.carriedCopies;
  }

  /** A response's lines: those kept that it sent again are still in the windows. */
  sighted(s: ResponseSighting): void {
    this.response = s.response;
    if (s.front) {
      this.marks.push({ response: s.response, frontMs: s.front.ms, clock: s.front.clock });
      if (this.marks.length > MAX_MARKS) this.marks.shift();
    }
    const { entries, fresh } = s;
    let f = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as (typeof entries)[number];
      // Every line of a resumed follow's first windows is new to it: carried lines are known by
      // their digest only.
      if (this.carriedCopies > 0) {
        const c = this.carried.get(digestOf(entryKey(entry)));
        if (c) match(c, s.response);
      }
      if (f < fresh.length && fresh[f] === i) {
        f++;
        continue;
      }
      if (this.copies === 0) continue;
      const k = this.kept.get(entryKey(entry));
      if (k) match(k, s.response);
    }
  }

  /**
   * Lines handed on (printed, written, exported): kept from now on. Returns the events new to
   * the output: lines carried from before the restart are dropped (handed on then).
   */
  add<E extends LogEvent>(events: readonly E[]): E[] {
    const out: E[] = [];
    for (const e of events) if (e.kind !== "line" || this.handOn(e)) out.push(e);
    return out;
  }

  /** One line handed on: kept from now on. False when it was carried from before the restart. */
  handOn(line: LogLine): boolean {
    const key = lineKey(line);
    const k = this.kept.get(key);
    const digest = k ? k.digest : digestOf(key);
    const c = this.carriedCopies > 0 ? this.carried.get(digest) : undefined;
    if (c) {
      c.lastIn.pop();
      this.carriedCopies -= 1;
      if (c.lastIn.length === 0) this.carried.delete(digest);
    }
    if (k) k.lastIn.push(this.response);
    else this.kept.set(key, { digest, lastIn: [this.response], seenIn: -1, next: 0 });
    this.copies += 1;
    return c === undefined;
  }

  /**
   * The record as of the follow's progress: lines no later window can send are let go first
   * (and, past the cap, those least recently sent). Undefined while there is no progress.
   */
  record(progress: FollowProgress | undefined): HandledRecord | undefined {
    if (!progress) return undefined;
    if (progress.clock !== this.clock) {
      // Another clock (Date headers came or went): nothing recorded on the other compares.
      this.clock = progress.clock;
      this.resumeFromMs = Number.NEGATIVE_INFINITY;
      this.earliestReach = Number.NEGATIVE_INFINITY;
    }
    this.resumeFromMs = Math.max(this.resumeFromMs, progress.resumeFromMs);
    this.earliestReach = Math.max(this.earliestReach, progress.resumeFromMs - progress.slackMs);
    if (!Number.isFinite(this.resumeFromMs) || !Number.isFinite(this.earliestReach))
      return undefined;
    this.letGoBefore(this.lastResponseBefore(this.earliestReach));
    if (this.size() > this.cap) this.overflow(progress);
    else if (this.size() < this.cap * 0.9) this.overflowing = false;
    if (this.gap && progress.resumeFromMs >= this.gap.toMs) this.gap = undefined;
    return {
      deploymentId: this.deploymentId,
      resumeFromMs: this.resumeFromMs,
      slackMs: this.resumeFromMs - this.earliestReach,
      clock: progress.clock,
      serverMinusWallMs: progress.serverMinusWallMs,
      lines: this.digests(),
      ...(this.gap ? { gap: this.gap } : {}),
    };
  }

  /** The gap marker a follow resumed from a record with a gap starts with. */
  static gapMarker(record: HandledRecord): GapMarker | undefined {
    if (!record.gap) return undefined;
    return {
      kind: "gap",
      from: record.gap.fromMs,
      to: record.gap.toMs,
      reason:
        "lines placed here that were not handed on before the restart were not read again (the checkpoint keeps at most 100,000 lines)",
      sortKey: record.gap.toMs,
    };
  }

  /** The latest response whose window's front was at or before `ms`, on the record's clock. */
  private lastResponseBefore(ms: number): number | undefined {
    let before: number | undefined;
    let used = 0;
    // Fronts move forward with the responses, mostly; a wider window after a slow poll waits.
    for (const m of this.marks) {
      if (m.clock === this.clock && m.frontMs > ms) break;
      if (m.clock === this.clock) before = m.response;
      used++;
    }
    if (used > 0) this.marks.splice(0, used);
    return before;
  }

  /** Lets go the copies last sent before response `before`. */
  private letGoBefore(before: number | undefined): void {
    if (before === undefined) return;
    for (const map of [this.kept, this.carried]) {
      for (const [key, k] of map) {
        let gone = 0;
        for (const r of k.lastIn) if (r < before) gone++;
        if (gone === 0) continue;
        const kept = k.lastIn.filter((r) => r >= before);
        if (map === this.kept) this.copies -= gone;
        else this.carriedCopies -= gone;
        if (kept.length === 0) map.delete(key);
        else {
          k.lastIn = kept;
          k.next = Math.min(k.next, kept.length);
        }
      }
    }
  }

  /**
   * Past the cap: lets go the copies least recently sent, and moves the start of a later follow
   * past the windows that last sent them (see the header).
   */
  private overflow(progress: FollowProgress): void {
    const counts = new Map<number, number>();
    for (const map of [this.kept, this.carried])
      for (const k of map.values())
        for (const r of k.lastIn) counts.set(r, (counts.get(r) ?? 0) + 1);
    const responses = [...counts.keys()].sort((a, b) => b - a);
    // The oldest response a copy may last have been sent in and still be kept.
    let total = 0;
    let keepFrom = (responses[0] ?? 0) + 1;
    for (const r of responses) {
      total += counts.get(r) ?? 0;
      if (total > this.cap) break;
      keepFrom = r;
    }
    this.letGoBefore(keepFrom);
    if (this.size() > this.cap) this.trim(this.size() - this.cap);
    // A later window must not reach before the front of the first response that left them out.
    const mark = this.marks.find((m) => m.clock === this.clock && m.response >= keepFrom);
    const reach = mark ? mark.frontMs : progress.resumeFromMs;
    const from = this.resumeFromMs;
    if (reach > this.earliestReach) {
      const slack = this.resumeFromMs - this.earliestReach;
      this.earliestReach = reach;
      this.resumeFromMs = Math.max(this.resumeFromMs, reach + slack);
    }
    if (this.resumeFromMs > from)
      this.gap = { fromMs: this.gap?.fromMs ?? from, toMs: this.resumeFromMs };
    if (!this.overflowing) {
      this.overflowing = true;
      this.options.onOverflow?.(
        `the checkpoint keeps at most ${grouped(this.cap)} lines, and more are within a restart's reach: a restart now would not read the oldest of them again (a gap marker would say so)`,
      );
    }
  }

  /** Lets go `n` copies sent in the latest response (more than the cap were). */
  private trim(n: number): void {
    for (const map of [this.carried, this.kept]) {
      for (const [key, k] of map) {
        if (n === 0) return;
        const drop = Math.min(n, k.lastIn.length);
        k.lastIn.length -= drop;
        k.next = Math.min(k.next, k.lastIn.length);
        n -= drop;
        if (map === this.kept) this.copies -= drop;
        else this.carriedCopies -= drop;
        if (k.lastIn.length === 0) map.delete(key);
      }
    }
  }

  private digests(): string {
    const parts: string[] = [];
    for (const map of [this.kept, this.carried])
      for (const k of map.values()) for (let i = 0; i < k.lastIn.length; i++) parts.push(k.digest);
    return parts.join("");
  }
}

/** The k-th sighting of an identity in a response is its k-th copy. */
function match(k: Kept, response: number): void {
  if (k.seenIn !== response) {
    k.seenIn = response;
    k.next = 0;
  }
  if (k.next < k.lastIn.length) k.lastIn[k.next++] = response;
}
