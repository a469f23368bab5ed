/**
 * The exactly-once log follower over a poll-only API. Each poll: plan a window
 * (./window-plan.ts), ask, keep only what was not seen before (./deduplicator.ts), measure how late
 * lines come (./arrival-meter.ts, which sizes the next window's overlap), and hand the new lines
 * on, through the merge hold-back when a stream needs one (./merge-buffer.ts). When to poll next
 * is ./poll-loop.ts's.
 *
 * Gaps: an outage longer than the server keeps logs, or a full `tailLines` response, is reported as
 * a gap marker. Faults: a failed poll never ends a follow (only a failure no retry can help does:
 * see endsFollow), and the next success covers the whole gap. The server's clock, estimated from
 * Date headers only (./server-clock.ts), places lines for the hold-back, measures lateness and
 * labels gaps; nothing depends on the client's clock being right.
 */
import type { CallOptions, ResponseMeta } from "../api/client.js";
import type { Clock } from "../api/clock.js";
import { systemClock } from "../api/clock.js";
import { TurnkeyApiError } from "../api/errors.js";
import type { DebugLogEntry } from "../api/schemas.js";
import { type LogEvent, type LogLine, packNanos } from "../logs/model/log-line.js";
import type { ArrivalReport } from "./arrival-meter.js";
import { ArrivalMeter } from "./arrival-meter.js";
import type { Accepted } from "./deduplicator.js";
import { Deduplicator } from "./deduplicator.js";
import { entryKey, lineKey } from "./line-identity.js";
import { MergeBuffer } from "./merge-buffer.js";
import { endsFollow, failedPollDelayMs, nextPollDelayMs, sleep } from "./poll-loop.js";
import type { RecordClock, ResumePoint, ResumeRefusal, TimeBounds } from "./resume-point.js";
import { ServerClockEstimate } from "./server-clock.js";
import { TailFloor } from "./tail-floor.js";
import type { LogRequest, WindowPlan } from "./window-plan.js";
import { WindowPlanner } from "./window-plan.js";

export type { LogRequest } from "./window-plan.js";

export type FetchLogs = (
  request: LogRequest,
  options: CallOptions,
) => Promise<{ data: { entries: DebugLogEntry[] }; meta: ResponseMeta }>;

export type FollowerPhase = "starting" | "live" | "retrying" | "stopped" | "failed";

export interface FollowerState {
  phase: FollowerPhase;
  /** Failed polls in a row (or, without -f, failed attempts of the one poll). */
  retries: number;
  lastError?: string | undefined;
  /** Monotonic ms of the next poll; while retrying, of the next try. */
  nextPollAt?: number | undefined;
  /** Whether the wait before the next try is the server's Retry-After. */
  retryAfter?: boolean | undefined;
  /** Monotonic ms of the last successful poll: the figures below are from it. */
  lastSuccessAt?: number | undefined;
  linesPerSecond: number;
  lastPollLatencyMs?: number | undefined;
  /** Server clock minus client clock, estimated, in ms. */
  clockOffsetMs?: number | undefined;
  /** The sinceSeconds of the last request. */
  lastWindowSeconds?: number | undefined;
  linesEmitted: number;
  gaps: number;
  /** Entries the server sent, re-sent ones included (per line emitted: the follow's cost). */
  entriesServed: number;
  /** How late lines come, and the overlap that calls for. */
  arrival: ArrivalReport;
}

export interface FollowerOptions {
  fetchLogs: FetchLogs;
  clock?: Clock;
  /** Base poll interval. Default 2 s. */
  intervalMs?: number;
  /** The largest overlap a window uses, for late-arriving lines (`--overlap`). Default 5 s. */
  overlapMs?: number;
  /** The smallest, while no line comes late. Default 250 ms (or the largest, if smaller). */
  minOverlapMs?: number;
  /** Initial window: only lines newer than this. */
  sinceMs?: number | undefined;
  /** Initial window: the last N lines per replica. */
  tailLines?: number | undefined;
  /** How long the server keeps logs; an outage longer than this is a gap. Default 1 h. */
  serverRetentionMs?: number;
  /**
   * Merge hold-back for a stream (see ./merge-buffer.ts); 0 (the default) emits every new line at
   * once, in the response's order (a store that orders lines itself, like the dashboard's).
   */
  holdBackMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1), for the jitter of retries. Default Math.random. */
  random?: () => number;
  /**
   * A slot for the request, shared with other followers (`--max-concurrent`): awaited before the
   * window is planned, so time spent waiting for it neither widens the window nor shortens it.
   * Resolves to the slot's release.
   */
  acquireSlot?: (() => Promise<() => void>) | undefined;
  /**
   * Resumed from a checkpoint: the first window reaches back to this point, judged by the
   * answers' Date headers (./resume-point.ts); `sinceMs` and `tailLines` are not used.
   */
  resume?: ResumePoint | undefined;
  /** Only lines stamped within this range are handed on (see TimeRange). */
  range?: TimeRange | undefined;
}

/**
 * A range of the lines' own timestamps (`tail --since 20:33 --until 20:40`): lines stamped before
 * `fromMs` or after the end are not handed on (they are still seen, so never handed on later). The
 * end is an instant, or a duration back from the server's time when it first answers. A follow
 * stops polling once every line up to the end has been handed on (see reachedEnd).
 */
export interface TimeRange {
  fromMs?: number | undefined;
  until?: { atMs: number } | { agoMs: number } | undefined;
}

/**
 * What one response held, for a record of the lines handed on (./handled-lines.ts): a line
 * recorded there that a response re-sent is still in the windows.
 */
export interface ResponseSighting {
  /** The response's number (responses are numbered from 0). */
  response: number;
  entries: readonly DebugLogEntry[];
  /** Positions in `entries` of the lines new to this follow, ascending. */
  fresh: readonly number[];
  /**
   * An upper bound of the window's front (the oldest time it asked for) on `clock`; undefined
   * for a window of `tailLines`, whose front is not a time.
   */
  front?: { ms: number; clock: RecordClock } | undefined;
}

/**
 * How far a follow has got, measured (never read from a line's timestamp): what a checkpoint
 * records after each batch (see ./resume-point.ts).
 */
export interface FollowProgress {
  /**
   * Epoch ms on `clock`: every line the server's window places before it was handed on, or
   * comes later than this follow would wait for (the last window known to have covered
   * everything, less its overlap and the way to the server; no later than what the merge
   * hold-back still holds). It never moves back.
   */
  resumeFromMs: number;
  clock: RecordClock;
  /** How far before resumeFromMs a later follow's first window may have to reach, ms. */
  slackMs: number;
  /** The server's clock minus this machine's, ms (to plan a later first window with). */
  serverMinusWallMs?: number | undefined;
  /** Whether the first window of a resumed follow is yet to reach back to its point. */
  resuming: boolean;
  /** The number of the last response. */
  response: number;
}

/** A failure that ends a follow; `cause` is the client's error. */
export class FollowerStopError extends Error {
  /** True when the server could not be reached (rather than refused the request). */
  readonly unreachable: boolean;
  constructor(message: string, unreachable = false, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.unreachable = unreachable;
  }
}

/**
 * A follow resumed from a point that cannot be resumed from (./resume-point.ts): ahead of the
 * record's clock at the first answer, or further back than the server keeps logs. Nothing of
 * the answer was taken.
 */
export class ResumeRefusedError extends FollowerStopError {
  constructor(
    readonly refusal: ResumeRefusal,
    /** The point, epoch ms on the record's clock. */
    readonly fromMs: number,
    /** That clock when the answer was made. */
    readonly answeredAt: TimeBounds,
    /** Whether that clock is the server's by its Date header (else the record's stand-in). */
    readonly byDateHeader: boolean,
    readonly retentionMs: number,
  ) {
    super(
      refusal === "ahead"
        ? "the checkpoint's point is ahead of the server's clock"
        : "the checkpoint's point is older than the server keeps logs",
    );
  }
}

export interface PollResult {
  ok: boolean;
  /** Whether the window covered everything since the last covered poll (false: poll again now). */
  covered: boolean;
  newLines: number;
}

function describe(err: unknown): string {
  return err instanceof TurnkeyApiError ? err.describe() : (err as Error).message;
}

export class LogFollower {
  private readonly acquireSlot: (() => Promise<() => void>) | undefined;
  private readonly fetchLogs: FetchLogs;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly dedup = new Deduplicator();
  private readonly serverClock = new ServerClockEstimate();
  private readonly planner: WindowPlanner;
  private readonly meter: ArrivalMeter;
  private readonly merge: MergeBuffer;
  private readonly eventListeners = new Set<(events: LogEvent[]) => void>();
  private readonly responseListeners = new Set<(s: ResponseSighting) => void>();
  private readonly resume: ResumePoint | undefined;
  private readonly fromMs: number;
  /** The range's end, once placed (a duration back: at the first answer). */
  private untilMs: number | undefined;
  private readonly untilAgoMs: number | undefined;
  /** The last progress reported (it never moves back). */
  private lastProgress: FollowProgress | undefined;
  /**
   * New lines placed before this by their timestamps are held (an answer taken past a resume's
   * slack: see heldPastSlack).
   */
  private floorMs: number | undefined;
  /**
   * Lines of an answer taken past a resume's slack whose timestamps place them before it: lines
   * handed on before the restart whose identities the record no longer keeps, if the server placed
   * them there, or lines out of place that it sends whatever the window (stamped in 1970, say). The
   * first answer whose window surely began within the slack tells them apart: it holds the second
   * kind, which are handed on then, and not the first, which are dropped (see releaseHeld).
   */
  private heldPastSlack: LogLine[] = [];
  private readonly stateListeners = new Set<() => void>();
  private state: FollowerState;
  private readonly tailFloor = new TailFloor();
  private readonly labels: string[] = [];
  private readonly pendingInitial: { sinceMs?: number | undefined; tailLines?: number | undefined };
  private idlePolls = 0;
  private polls = 0;
  private failures = 0;
  /** The wait decided when the last poll failed. */
  private failedDelay = 0;
  private lastSentMono: number | undefined;
  /** Sent-time of the last successful poll (for the lateness of the next one's lines). */
  private lastGoodSentMono: number | undefined;
  /** The window of the last successful poll, ms (undefined: it asked for tailLines). */
  private lastGoodWindowMs: number | undefined;
  /** After the first window, the oldest timestamp it brought; else undefined. */
  private initialOldest: number | undefined;
  private lastGoodRecvMono: number | undefined;
  private wake: AbortController | undefined;

  constructor(options: FollowerOptions) {
    this.fetchLogs = options.fetchLogs;
    this.acquireSlot = options.acquireSlot;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 2000;
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
    const maxOverlap = Math.max(0, options.overlapMs ?? 5000);
    this.resume = options.resume;
    this.fromMs = options.range?.fromMs ?? Number.NEGATIVE_INFINITY;
    const until = options.range?.until;
    if (until && "atMs" in until) this.untilMs = until.atMs;
    else this.untilAgoMs = until?.agoMs;
    this.pendingInitial = this.resume
      ? {}
      : { sinceMs: options.sinceMs, tailLines: options.tailLines };
    this.planner = new WindowPlanner({
      clock: this.clock,
      serverClock: this.serverClock,
      maxOverlapMs: maxOverlap,
      retentionMs: options.serverRetentionMs ?? 3_600_000,
      sinceMs: this.pendingInitial.sinceMs,
      tailLines: this.pendingInitial.tailLines,
      resume: this.resume,
    });
    this.meter = new ArrivalMeter(Math.min(maxOverlap, options.minOverlapMs ?? 250), maxOverlap);
    this.merge = new MergeBuffer(options.holdBackMs ?? 0, maxOverlap);
    this.state = {
      phase: "starting",
      retries: 0,
      linesPerSecond: 0,
      linesEmitted: 0,
      gaps: 0,
      entriesServed: 0,
      arrival: this.meter.report(),
    };
  }

  onEvents(listener: (events: LogEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Every successful response, before its lines are handed on (see ResponseSighting). */
  onResponse(listener: (s: ResponseSighting) => void): () => void {
    this.responseListeners.add(listener);
    return () => this.responseListeners.delete(listener);
  }

  subscribe(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  getState(): FollowerState {
    return this.state;
  }

  /** Identities held for de-duplication (bounded by what recent windows can re-send). */
  memorySize(): number {
    return this.dedup.size();
  }

  /** Lines the merge hold-back is waiting on. */
  heldCount(): number {
    return this.merge.heldCount();
  }

  /** How far the follow has got (see FollowProgress); undefined before anything is known. */
  progress(): FollowProgress | undefined {
    const response = this.dedup.nextResponse() - 1;
    const covered = this.planner.coveredSince();
    if (covered === undefined) {
      if (!this.resume) return undefined;
      const p = this.resume;
      return {
        resumeFromMs: p.fromMs,
        clock: p.clock,
        slackMs: p.slackMs,
        serverMinusWallMs: p.serverMinusWallMs,
        resuming: true,
        response,
      };
    }
    const clock: RecordClock = this.serverClock.known() ? "server" : "client";
    const toRecord =
      clock === "server" ? this.serverClock.lowOffset() : this.clock.now() - this.clock.monotonic();
    // The next window reaches back the overlap and the way to the server before `covered`.
    let from = covered + toRecord - this.meter.overlapMs() - this.planner.allowance();
    const held = this.merge.watermark();
    if (held !== undefined && clock === "server") from = Math.min(from, held);
    const last = this.lastProgress ?? this.resumeProgress();
    if (last && last.clock === clock) from = Math.max(from, last.resumeFromMs);
    this.lastProgress = {
      resumeFromMs: from,
      clock,
      slackMs: this.planner.resumeSlackMs(),
      serverMinusWallMs: clock === "server" ? this.state.clockOffsetMs : undefined,
      resuming: false,
      response,
    };
    return this.lastProgress;
  }

  private resumeProgress(): { resumeFromMs: number; clock: RecordClock } | undefined {
    return this.resume ? { resumeFromMs: this.resume.fromMs, clock: this.resume.clock } : undefined;
  }

  /** Ends the wait before the next poll (the dashboard's `r`): it goes out now. */
  retryNow(): void {
    this.wake?.abort();
  }

  /** Now on the follower's monotonic clock, the clock `nextPollAt` and `lastSuccessAt` are on. */
  monotonicNow(): number {
    return this.clock.monotonic();
  }

  private setState(patch: Partial<FollowerState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.stateListeners) l();
  }

  private emit(events: LogEvent[]): void {
    if (events.length === 0) return;
    for (const l of this.eventListeners) l(events);
  }

  /** Upper bound of the server's time now (+Infinity without Date headers). */
  private serverNowUpper(): number {
    return this.clock.monotonic() + this.serverClock.highOffset();
  }

  /** Emits everything the hold-back holds (a stream's end, or a poll that failed). */
  flush(): void {
    this.emit(this.merge.flush(this.serverNowUpper()));
  }

  /** The request the next poll sends, and any gap it must report first. */
  planRequest(): WindowPlan {
    return this.planner.plan(this.meter.overlapMs());
  }

  /**
   * One poll: request, de-duplicate, emit. Throws FollowerStopError when the failure cannot be
   * retried away. `oneShot` (no follow): the client retries within the poll, as `call` does;
   * otherwise a failed poll is one attempt and the follower's backoff takes over.
   */
  async pollOnce(signal?: AbortSignal, oneShot = false): Promise<PollResult> {
    const release = this.acquireSlot ? await this.acquireSlot() : undefined;
    try {
      return await this.pollInSlot(signal, oneShot);
    } finally {
      release?.();
    }
  }

  private async pollInSlot(signal: AbortSignal | undefined, oneShot: boolean): Promise<PollResult> {
    const plan = this.planRequest();
    const sentMono = this.clock.monotonic();
    this.lastSentMono = sentMono;
    this.polls += 1;
    let response: Awaited<ReturnType<FetchLogs>>;
    try {
      response = await this.fetchLogs(plan.request, {
        signal,
        ...(oneShot
          ? {
              onRetry: (info) =>
                this.setState({
                  phase: "retrying",
                  retries: info.attempt,
                  lastError: info.error.message,
                  nextPollAt: this.clock.monotonic() + info.delayMs,
                  retryAfter: info.retryAfter,
                }),
            }
          : { retries: 0 }),
      });
    } catch (err) {
      if (signal?.aborted) return { ok: false, covered: false, newLines: 0 };
      return this.failed(err, oneShot);
    }
    const { entries } = response.data;
    const recvMono = this.clock.monotonic();
    this.serverClock.observe(sentMono, recvMono, response.meta.serverDate);
    if (this.untilMs === undefined && this.untilAgoMs !== undefined)
      this.untilMs = this.serverNowEstimate() - this.untilAgoMs;
    const judged = this.planner.judgeResume(plan, sentMono, recvMono);
    if (judged && "refused" in judged) throw this.refuse(judged);
    if (judged?.verdict === "set-aside") return this.setAside(sentMono, recvMono, entries.length);
    if (judged?.floorMs !== undefined) this.floorMs = judged.floorMs;
    const initial = !this.planner.started();
    const responseNumber = this.dedup.nextResponse();
    const accepted = this.dedup.accept(
      entries,
      this.serverNowEstimate(),
      recvMono + this.serverClock.highOffset(),
      plan.windowMs !== undefined && plan.request.tailLines === undefined
        ? {
            low: sentMono - plan.windowMs,
            high: recvMono - plan.windowMs,
            serverLow: sentMono + this.serverClock.lowOffset() - plan.windowMs,
          }
        : undefined,
    );
    const { covered, reachMs } = this.planner.settle(
      plan,
      sentMono,
      recvMono,
      responseNumber,
      judged?.verdict,
    );
    const before = this.planner.forgetBefore();
    if (before !== undefined) this.dedup.prune(before);
    this.sighted(plan, responseNumber, entries, accepted.indexes, recvMono);

    const released = this.releaseHeld(plan, sentMono, recvMono, entries);
    const { events, newKeys, newLines } = this.newEvents(
      plan,
      entries,
      accepted,
      initial,
      released,
    );
    const low = this.serverClock.lowOffset();
    const high = this.serverClock.highOffset();
    this.meter.observe({
      sentServerLow: sentMono + low,
      sentServerHigh: sentMono + high,
      previousServerLow:
        this.lastGoodSentMono === undefined
          ? Number.NEGATIVE_INFINITY
          : this.lastGoodSentMono + low,
      // The previous window reached back its length from when the server answered it (after
      // it was sent); a window of tailLines has no front known.
      previousFrontLow: this.previousFrontLow(low),
      reachMs,
      newKeys,
      replicas: accepted.replicas,
      nowMono: recvMono,
    });
    let oldest = Number.POSITIVE_INFINITY;
    if (initial) for (const k of newKeys) if (k < oldest) oldest = k;
    this.initialOldest = Number.isFinite(oldest) ? oldest : undefined;
    this.recordSuccess(
      plan,
      response.meta,
      sentMono,
      recvMono,
      newLines,
      events.length,
      entries.length,
    );
    this.floorMs = undefined;
    this.emit(this.merge.deliver(events, sentMono + low, recvMono + high, recvMono));
    return { ok: true, covered, newLines };
  }

  /** A resume point refused by an answer: the follow stops, nothing of the answer taken. */
  private refuse(judged: {
    refused: ResumeRefusal;
    answeredAt: TimeBounds;
    retentionMs: number;
  }): ResumeRefusedError {
    const error = new ResumeRefusedError(
      judged.refused,
      this.resume?.fromMs ?? Number.NaN,
      judged.answeredAt,
      this.resume?.clock === "server" && this.serverClock.known(),
      judged.retentionMs,
    );
    this.setState({ phase: "failed", lastError: error.message, nextPollAt: undefined });
    return error;
  }

  /**
   * An answer to a resumed first window that reached back past its slack: none of its lines is
   * taken (they cannot be told from lines handed on before the restart); the next poll, at once,
   * asks again with the server's clock as this answer's Date header showed it.
   */
  private setAside(sentMono: number, recvMono: number, entries: number): PollResult {
    // Asked again at once: with room for the way there and back.
    this.planner.noteLatency(sentMono, recvMono);
    this.failures = 0;
    this.setState({
      phase: "live",
      retries: 0,
      lastError: undefined,
      lastPollLatencyMs: recvMono - sentMono,
      entriesServed: this.state.entriesServed + entries,
    });
    return { ok: true, covered: false, newLines: 0 };
  }

  /** Tells the response listeners what the response held (see ResponseSighting). */
  private sighted(
    plan: WindowPlan,
    response: number,
    entries: readonly DebugLogEntry[],
    fresh: readonly number[],
    recvMono: number,
  ): void {
    if (this.responseListeners.size === 0) return;
    let front: ResponseSighting["front"];
    if (plan.windowMs !== undefined && plan.request.tailLines === undefined) {
      front = this.serverClock.known()
        ? { ms: recvMono + this.serverClock.highOffset() - plan.windowMs, clock: "server" }
        : {
            ms: recvMono + this.clock.now() - this.clock.monotonic() - plan.windowMs,
            clock: "client",
          };
    }
    const sighting: ResponseSighting = { response, entries, fresh, front };
    for (const l of this.responseListeners) l(sighting);
  }

  /**
   * Lines held from an answer taken past a resume's slack (see heldPastSlack), once an answer
   * whose window surely began within the slack has come: those it holds too, the server sends
   * whatever the window, and they are handed on; the rest it placed before the slack, and they
   * are dropped. Until then, none.
   */
  private releaseHeld(
    plan: WindowPlan,
    sentMono: number,
    recvMono: number,
    entries: readonly DebugLogEntry[],
  ): LogLine[] {
    if (this.heldPastSlack.length === 0) return [];
    if (!this.planner.beganWithinSlack(plan, sentMono, recvMono)) return [];
    const counts = new Map<string, number>();
    for (const e of entries) {
      const key = entryKey(e);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const released: LogLine[] = [];
    for (const line of this.heldPastSlack) {
      const key = lineKey(line);
      const n = counts.get(key) ?? 0;
      if (n === 0) continue;
      counts.set(key, n - 1);
      released.push(line);
    }
    this.heldPastSlack = [];
    return released;
  }

  /**
   * The events a response brings: the gap its window reports, lines held from an earlier one
   * that it released, then its new lines.
   */
  private newEvents(
    plan: WindowPlan,
    entries: readonly DebugLogEntry[],
    accepted: Accepted,
    initial: boolean,
    released: readonly LogLine[],
  ): { events: LogEvent[]; newKeys: number[]; newLines: number } {
    const events: LogEvent[] = [];
    if (plan.gap) events.push(plan.gap);
    for (const line of released) events.push(line);
    const keys = accepted.keys;
    if (initial && plan.request.tailLines !== undefined) {
      const since = this.pendingInitial.sinceMs;
      const gap = this.tailFloor.cut(
        entries,
        accepted.indexes,
        keys,
        plan.request.tailLines,
        this.serverNowEstimate(),
        since,
      );
      if (gap) events.push(gap);
    }
    const newKeys: number[] = [];
    let newLines = released.length;
    const floors = this.tailFloor.active() && !initial;
    const floorMs = this.floorMs;
    for (const i of accepted.indexes) {
      const entry = entries[i] as DebugLogEntry;
      const sortKey = keys[i] as number;
      if (floors && !this.tailFloor.keeps(entry.replicaLabel, sortKey)) continue;
      const ts = entry.line.ts;
      const line: LogLine = {
        kind: "line",
        replicaLabel: this.label(entry.replicaLabel),
        seconds: ts?.seconds,
        nanos: ts === undefined ? undefined : packNanos(ts.nanos),
        sortKey,
        content: entry.line.content,
        late: false,
      };
      if (floorMs !== undefined && sortKey < floorMs) {
        this.heldPastSlack.push(line);
        continue;
      }
      if (ts !== undefined) newKeys.push(sortKey);
      if (!this.inRange(sortKey)) continue;
      events.push(line);
      newLines += 1;
    }
    return { events, newKeys, newLines };
  }

  /** Whether a line of this sort key is within the range (see TimeRange). */
  private inRange(sortKey: number): boolean {
    return sortKey >= this.fromMs && (this.untilMs === undefined || sortKey <= this.untilMs);
  }

  /**
   * Whether the range has an end and every line stamped up to it has been handed on, or comes
   * later than this follow waits for (as FollowProgress measures it): no poll can bring more.
   */
  reachedEnd(): boolean {
    if (this.untilMs === undefined) return false;
    const covered = this.planner.coveredSince();
    if (covered === undefined) return false;
    const toServer = this.serverClock.known()
      ? this.serverClock.lowOffset()
      : this.clock.now() - this.clock.monotonic();
    // What the merge hold-back still holds goes out when the follow ends.
    return covered + toServer - this.meter.overlapMs() - this.planner.allowance() > this.untilMs;
  }

  /**
   * One string per replica label: every response brings fresh copies, and a buffered line need
   * not keep its own (a few replicas; past 64 labels, new ones are kept as they come).
   */
  private label(text: string): string {
    const labels = this.labels;
    for (let i = 0; i < labels.length; i++) if (labels[i] === text) return labels[i] as string;
    if (labels.length < 64) labels.push(text);
    return text;
  }

  /**
   * A lower bound of the last good window's front on the server's clock (see ArrivalSample). The
   * first window may be shorter than the next reaches back (`--since 1s`): what it held starts at
   * its oldest line, and a line older than that was not asked for before, so it is not late.
   */
  private previousFrontLow(low: number): number {
    if (this.lastGoodSentMono === undefined) return Number.NEGATIVE_INFINITY;
    // A first window of `--tail` lines (with or without --since) has no length: it held from
    // its oldest line on.
    if (this.lastGoodWindowMs === undefined) return this.initialOldest ?? Number.NEGATIVE_INFINITY;
    const front = this.lastGoodSentMono + low - this.lastGoodWindowMs;
    return this.initialOldest === undefined ? front : Math.max(front, this.initialOldest);
  }

  /** A successful poll's figures. */
  private recordSuccess(
    plan: WindowPlan,
    meta: ResponseMeta,
    sentMono: number,
    recvMono: number,
    newLines: number,
    events: number,
    entries: number,
  ): void {
    const elapsed = this.lastGoodRecvMono === undefined ? 0 : recvMono - this.lastGoodRecvMono;
    this.lastGoodSentMono = sentMono;
    this.lastGoodRecvMono = recvMono;
    this.lastGoodWindowMs = plan.request.tailLines === undefined ? plan.windowMs : undefined;
    this.failures = 0;
    const instantRate = elapsed > 0 ? (newLines * 1000) / elapsed : this.state.linesPerSecond;
    this.idlePolls = newLines > 0 ? 0 : this.idlePolls + 1;
    this.setState({
      phase: "live",
      retries: 0,
      lastError: undefined,
      retryAfter: undefined,
      lastSuccessAt: recvMono,
      lastPollLatencyMs: recvMono - sentMono,
      clockOffsetMs:
        meta.serverDate !== undefined
          ? meta.serverDate + 500 - (meta.sentAtWall + meta.receivedAtWall) / 2
          : this.state.clockOffsetMs,
      lastWindowSeconds:
        plan.request.sinceSeconds === undefined ? undefined : Number(plan.request.sinceSeconds),
      linesPerSecond:
        this.state.linesPerSecond === 0
          ? instantRate
          : 0.6 * this.state.linesPerSecond + 0.4 * instantRate,
      linesEmitted: this.state.linesEmitted + newLines,
      gaps: this.state.gaps + events - newLines,
      entriesServed: this.state.entriesServed + entries,
      arrival: this.meter.report(),
    });
  }

  /**
   * A failed poll: stop (FollowerStopError) when nothing can help, else wait and try again. A
   * one-shot poll has had the client's retries already: it fails.
   */
  private failed(err: unknown, oneShot: boolean): PollResult {
    if (oneShot && !endsFollow(err)) {
      this.setState({ phase: "failed", lastError: describe(err), nextPollAt: undefined });
      return { ok: false, covered: false, newLines: 0 };
    }
    if (endsFollow(err)) {
      this.flush();
      this.setState({ phase: "failed", lastError: describe(err), nextPollAt: undefined });
      throw new FollowerStopError(describe(err), false, err);
    }
    this.failures += 1;
    const retryAfterMs = err instanceof TurnkeyApiError ? err.retryAfterMs : undefined;
    this.failedDelay = failedPollDelayMs(this.failures, this.intervalMs, this.random, retryAfterMs);
    // The next poll may be a while: show what the hold-back was keeping.
    this.flush();
    this.setState({
      phase: "retrying",
      retries: this.failures,
      lastError: describe(err),
      nextPollAt: this.clock.monotonic() + this.failedDelay,
      retryAfter: retryAfterMs !== undefined,
    });
    return { ok: false, covered: false, newLines: 0 };
  }

  private serverNowEstimate(): number {
    const low = this.serverClock.lowOffset();
    return Number.isFinite(low) ? this.clock.monotonic() + low : this.clock.now();
  }

  /** How long to wait before the next poll (see ./poll-loop.ts). */
  nextDelayMs(last: PollResult): number {
    if (!last.ok) return this.failedDelay;
    return nextPollDelayMs({
      covered: last.covered,
      intervalMs: this.intervalMs,
      idlePolls: this.idlePolls,
      poll: this.polls,
      sinceSentMs: this.clock.monotonic() - (this.lastSentMono ?? this.clock.monotonic()),
    });
  }

  /**
   * Polls until the signal aborts (follow) or once (no follow). Resolves when done; rejects with
   * FollowerStopError when the failure cannot be retried away. `offsetMs` (follow): the second
   * poll comes this much later than it would, so that the followers of several deployments
   * answer together at the start, then poll spread over the interval.
   */
  async run(signal: AbortSignal, follow: boolean, offsetMs = 0): Promise<void> {
    if (!follow) {
      const result = await this.pollOnce(signal, true);
      if (!result.ok && !signal.aborted) {
        throw new FollowerStopError(
          `could not read the logs: ${this.state.lastError ?? "the poll failed"}`,
          true,
        );
      }
      this.flush();
      this.setState({ phase: "stopped", nextPollAt: undefined });
      return;
    }
    let offset = Math.max(0, offsetMs);
    while (!signal.aborted) {
      const result = await this.pollOnce(signal);
      if (signal.aborted || this.reachedEnd()) break;
      const delay = this.nextDelayMs(result) + offset;
      offset = 0;
      if (result.ok) this.setState({ nextPollAt: this.clock.monotonic() + delay });
      const wake = new AbortController();
      this.wake = wake;
      await this.sleep(delay, AbortSignal.any([signal, wake.signal]));
      this.wake = undefined;
    }
    this.flush();
    this.setState({ phase: "stopped", nextPollAt: undefined });
  }
}
