/**
 * The exactly-once log follower over a poll-only API.
 *
 * Windows. `get_tvc_deployment_debug_logs` filters with `sinceSeconds` on the server's clock, so
 * the follower never needs to know that clock to size a window: it measures, on its own monotonic
 * clock, the time since it sent the last request whose window is known to have covered
 * everything, and asks for that plus the overlap (for late-arriving lines) plus an allowance for
 * the round trip. When a response comes back, it checks the window really covered the gap
 * (round trip included); if the response was too slow, the coverage mark does not move and the
 * next poll, at once, asks for a larger window. A client clock that is wrong by minutes does not
 * matter; the server's clock (estimated from `Date` headers only: see ./server-clock.ts) is used
 * only to label gaps and to place lines for the merge hold-back.
 *
 * Memory. What is forgotten is decided without any clock or line timestamp: a remembered line
 * that a response did not re-send lies before that response's window (a window loses lines only
 * at its front), so no later than (its arrival - its window) on the server's clock, measured on
 * ours; once the last covered poll is further past that than any later window reaches back
 * (MAX_REACH_BACK_MS beyond the overlap), nothing can re-send it. A line stamped an hour ahead is
 * thus remembered for as long as the server keeps sending it, and one stamped in 1970 too.
 *
 * Exactly once: see ./deduplicator.ts. Gaps: an outage longer than the server keeps logs, or a
 * full `tailLines` response, is reported as a gap marker. Faults: every poll goes through the
 * client's retries; a failed poll never ends a follow, and the next success covers the whole gap.
 */

import type { CallOptions, ResponseMeta } from "../api/client.js";
import type { Clock } from "../api/clock.js";
import { systemClock } from "../api/clock.js";
import { isPermanentFailure, TurnkeyApiError } from "../api/errors.js";
import type { DebugLogEntry } from "../api/schemas.js";
import { formatDuration } from "../text/duration.js";
import { Deduplicator } from "./deduplicator.js";
import type { GapMarker, LogEvent } from "./log-line.js";
import { ServerClockEstimate } from "./server-clock.js";

/** The most a window adds for its own round trip (see allowanceMs). */
const MAX_ALLOWANCE_MS = 15_000;
/**
 * How far a window reaches back behind the send time of the last covered poll, beyond the
 * overlap, at most: the largest allowance, a second of rounding to whole seconds, and a second for
 * the two clocks drifting apart.
 */
const MAX_REACH_BACK_MS = MAX_ALLOWANCE_MS + 2000;

export interface LogRequest {
  sinceSeconds?: string;
  tailLines?: number;
}

export type FetchLogs = (
  request: LogRequest,
  options: CallOptions,
) => Promise<{ data: { entries: DebugLogEntry[] }; meta: ResponseMeta }>;

export type FollowerPhase = "starting" | "live" | "retrying" | "stopped" | "failed";

export interface FollowerState {
  phase: FollowerPhase;
  /** Failed polls in a row (each after the client's own retries), or retries under way. */
  retries: number;
  lastError?: string | undefined;
  /** Monotonic ms of the next poll. */
  nextPollAt?: number | undefined;
  linesPerSecond: number;
  lastPollLatencyMs?: number | undefined;
  /** Server clock minus client clock, estimated, in ms. */
  clockOffsetMs?: number | undefined;
  /** The sinceSeconds of the last request. */
  lastWindowSeconds?: number | undefined;
  linesEmitted: number;
  gaps: number;
}

export interface FollowerOptions {
  fetchLogs: FetchLogs;
  clock?: Clock;
  /** Base poll interval. Default 2 s. */
  intervalMs?: number;
  /** Extra window for late-arriving lines. Default 5 s. */
  overlapMs?: number;
  /** Initial window: only lines newer than this. */
  sinceMs?: number | undefined;
  /** Initial window: the last N lines per replica. */
  tailLines?: number | undefined;
  /** How long the server keeps logs; an outage longer than this is a gap. Default 1 h. */
  serverRetentionMs?: number;
  /**
   * Merge hold-back for a stream: lines newer than the server's time minus this wait for the next
   * poll, so a replica whose lines reach the server a little late still lands in timestamp order.
   * It grows (up to the overlap) when lines do arrive late and eases back while none do. 0 (the
   * default) emits every new line at once, in the response's order (a store that orders lines
   * itself, like the dashboard's, needs no hold-back).
   */
  holdBackMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A failure that ends a follow, with what to do about it. */
export class FollowerStopError extends Error {
  /** True when the server could not be reached (rather than refused the request). */
  readonly unreachable: boolean;
  constructor(message: string, unreachable = false) {
    super(message);
    this.unreachable = unreachable;
  }
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** The one line that tells a person what to do about a failure that ends a follow, or undefined. */
export function fatalAdvice(err: unknown): string | undefined {
  // A redirect (never followed), a port fetch refuses...: another poll would only repeat it.
  if (isPermanentFailure(err)) return err.message;
  if (!(err instanceof TurnkeyApiError)) return undefined;
  const what = err.describe();
  switch (err.grpcCode) {
    case 16:
      return `authentication failed (${what}); check the API key (TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY, --config or --key-name) and that it is registered in the organization`;
    case 7:
      return `permission denied (${what}); check --organization and that the API key may read this deployment`;
    case 5:
      return `not found (${what}); check --deployment (run tvcwatch without --deployment to pick one)`;
    case 9:
      return /debug/i.test(err.message)
        ? `${err.message}; its logs cannot be read. Pick a debug-mode deployment (run tvcwatch without --deployment to choose one)`
        : `failed precondition (${what})`;
    case 3:
      return `the server refused the request (${what})`;
    default:
      return undefined;
  }
}

export class LogFollower {
  private readonly fetchLogs: FetchLogs;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly overlapMs: number;
  private readonly retentionMs: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly dedup = new Deduplicator();
  private readonly eventListeners = new Set<(events: LogEvent[]) => void>();
  private readonly stateListeners = new Set<() => void>();
  private state: FollowerState = {
    phase: "starting",
    retries: 0,
    linesPerSecond: 0,
    linesEmitted: 0,
    gaps: 0,
  };

  /** Monotonic ms at which the last request whose window was verified to cover was sent. */
  private coveredFrom: number | undefined;
  /** Bounds of (server epoch ms - client monotonic ms). */
  private readonly serverClock = new ServerClockEstimate();
  /**
   * Complete responses (no tailLines) still too recent to forget by: a line the response `response`
   * did not re-send lies no later than server time at monotonic `frontBy` (see prune).
   */
  private readonly absenceMarks: { response: number; frontBy: number }[] = [];
  private latencyEma = 0;
  private maxEmittedKey = Number.NEGATIVE_INFINITY;
  /** Per replica: lines older than this were cut by a full tailLines response. */
  private readonly tailFloor = new Map<string, number>();
  private idlePolls = 0;
  private lastPollMono: number | undefined;
  private readonly baseHoldBackMs: number;
  private holdBackMs: number;
  private lateSeen = 0;
  private lastEaseMono: number | undefined;
  /** Events waiting for the merge watermark, in sort-key order (arrival order among equals). */
  private held: LogEvent[] = [];
  private heldStart = 0;
  private pendingInitial: { sinceMs?: number | undefined; tailLines?: number | undefined };

  constructor(options: FollowerOptions) {
    this.fetchLogs = options.fetchLogs;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 2000;
    this.overlapMs = options.overlapMs ?? 5000;
    this.retentionMs = options.serverRetentionMs ?? 3_600_000;
    this.sleep = options.sleep ?? realSleep;
    this.pendingInitial = { sinceMs: options.sinceMs, tailLines: options.tailLines };
    this.baseHoldBackMs = Math.max(0, options.holdBackMs ?? 0);
    this.holdBackMs = this.baseHoldBackMs;
  }

  onEvents(listener: (events: LogEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  subscribe(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  getState(): FollowerState {
    return this.state;
  }

  /** Identities held for de-duplication (bounded by the overlap). */
  memorySize(): number {
    return this.dedup.size();
  }

  private setState(patch: Partial<FollowerState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.stateListeners) l();
  }

  private emit(events: LogEvent[]): void {
    if (events.length === 0) return;
    for (const l of this.eventListeners) l(events);
  }

  private serverNowEstimate(): number {
    const mono = this.clock.monotonic();
    const low = this.serverClock.lowOffset();
    return Number.isFinite(low) ? mono + low : this.clock.now();
  }

  /** Room in a window for its own round trip: twice the usual latency, within bounds. */
  private allowanceMs(): number {
    return Math.min(MAX_ALLOWANCE_MS, Math.max(1000, 2 * this.latencyEma));
  }

  /** The request the next poll sends, and any gap it must report first. */
  planRequest(): { request: LogRequest; windowMs?: number; gap?: GapMarker } {
    if (this.coveredFrom === undefined) {
      const request: LogRequest = {};
      if (this.pendingInitial.sinceMs !== undefined && this.pendingInitial.sinceMs > 0) {
        request.sinceSeconds = String(Math.max(1, Math.ceil(this.pendingInitial.sinceMs / 1000)));
      }
      if (this.pendingInitial.tailLines !== undefined && this.pendingInitial.tailLines > 0) {
        request.tailLines = this.pendingInitial.tailLines;
      }
      return request.sinceSeconds !== undefined && request.tailLines === undefined
        ? { request, windowMs: Number(request.sinceSeconds) * 1000 }
        : { request };
    }
    let windowMs = this.clock.monotonic() - this.coveredFrom + this.overlapMs + this.allowanceMs();
    let gap: GapMarker | undefined;
    if (windowMs > this.retentionMs) {
      const now = this.serverNowEstimate();
      const from =
        this.coveredFrom +
        (Number.isFinite(this.serverClock.lowOffset())
          ? this.serverClock.lowOffset()
          : this.clock.now() - this.clock.monotonic());
      const to = now - this.retentionMs;
      gap = {
        kind: "gap",
        from,
        to,
        reason: `no successful poll for ${formatDuration(now - from)}, longer than the server keeps logs (${formatDuration(this.retentionMs)})`,
        sortKey: to,
      };
      windowMs = this.retentionMs;
    }
    const seconds = Math.max(1, Math.ceil(windowMs / 1000));
    return {
      request: { sinceSeconds: String(seconds) },
      windowMs: seconds * 1000,
      ...(gap ? { gap } : {}),
    };
  }

  /**
   * One poll: request, de-duplicate, emit. Returns whether the window was verified to cover the
   * time since the last covered poll (false asks for an immediate re-poll). Throws
   * FollowerStopError when the failure cannot be retried away.
   */
  async pollOnce(
    signal?: AbortSignal,
  ): Promise<{ ok: boolean; covered: boolean; newLines: number }> {
    const plan = this.planRequest();
    const sentMono = this.clock.monotonic();
    let response: Awaited<ReturnType<FetchLogs>>;
    try {
      response = await this.fetchLogs(plan.request, {
        signal,
        onRetry: (info) =>
          this.setState({
            phase: "retrying",
            retries: this.state.retries + 1,
            lastError: info.error.message,
          }),
      });
    } catch (err) {
      if (signal?.aborted) return { ok: false, covered: false, newLines: 0 };
      const advice = fatalAdvice(err);
      if (advice) {
        this.flush();
        this.setState({ phase: "failed", lastError: advice });
        throw new FollowerStopError(advice);
      }
      const message = err instanceof TurnkeyApiError ? err.describe() : (err as Error).message;
      this.setState({ phase: "retrying", retries: this.state.retries + 1, lastError: message });
      // The next poll may be a while: show what the hold-back was keeping.
      this.flush();
      return { ok: false, covered: false, newLines: 0 };
    }
    const { entries } = response.data;
    const meta = response.meta;
    const recvMono = this.clock.monotonic();
    const latency = recvMono - sentMono;
    this.latencyEma = this.latencyEma === 0 ? latency : 0.7 * this.latencyEma + 0.3 * latency;

    const clockOffsetMs =
      meta.serverDate !== undefined
        ? meta.serverDate + 500 - (meta.sentAtWall + meta.receivedAtWall) / 2
        : this.state.clockOffsetMs;

    const events: LogEvent[] = [];
    if (plan.gap) events.push(plan.gap);
    const initial = this.coveredFrom === undefined;
    const responseNumber = this.dedup.nextResponse();
    const accepted = this.dedup.accept(
      entries,
      this.serverNowEstimate(),
      recvMono + this.serverClock.highOffset(),
    );
    this.serverClock.observe(sentMono, recvMono, meta.serverDate);
    if (plan.windowMs !== undefined && plan.request.tailLines === undefined) {
      this.absenceMarks.push({ response: responseNumber, frontBy: recvMono - plan.windowMs });
    }

    const newIndexes = accepted.indexes;
    const keys = accepted.keys;
    if (initial && plan.request.tailLines !== undefined) {
      const perReplica = new Map<string, { count: number; oldest: number }>();
      for (const i of newIndexes) {
        const label = (entries[i] as DebugLogEntry).replicaLabel;
        const r = perReplica.get(label) ?? { count: 0, oldest: Number.POSITIVE_INFINITY };
        r.count += 1;
        r.oldest = Math.min(r.oldest, keys[i] as number);
        perReplica.set(label, r);
      }
      let earliestCut = Number.POSITIVE_INFINITY;
      for (const [label, r] of perReplica) {
        if (r.count >= plan.request.tailLines) {
          this.tailFloor.set(label, r.oldest);
          earliestCut = Math.min(earliestCut, r.oldest);
        }
      }
      if (Number.isFinite(earliestCut)) {
        const now = this.serverNowEstimate();
        const from = this.pendingInitial.sinceMs
          ? now - this.pendingInitial.sinceMs
          : now - this.retentionMs;
        events.push({
          kind: "gap",
          from: Math.min(from, earliestCut),
          to: earliestCut,
          reason: `earlier lines not shown: the last ${plan.request.tailLines} lines of each replica were asked for`,
          sortKey: earliestCut - 1e-6,
        });
      }
    }

    let newLines = 0;
    const floors = this.tailFloor.size > 0 && !initial;
    for (const i of newIndexes) {
      const entry = entries[i] as DebugLogEntry;
      const sortKey = keys[i] as number;
      if (floors) {
        const floor = this.tailFloor.get(entry.replicaLabel);
        if (floor !== undefined && sortKey < floor) continue;
      }
      events.push({
        kind: "line",
        replicaLabel: entry.replicaLabel,
        ts: entry.line.ts,
        sortKey,
        content: entry.line.content,
        late: false,
      });
      newLines += 1;
    }

    // Did this window cover everything since the last covered poll, round trip included?
    let covered = true;
    if (initial || plan.gap) {
      // The first window, and a window cut to the server's retention, cover all there is.
      this.coveredFrom = sentMono;
    } else if (plan.windowMs !== undefined && this.coveredFrom !== undefined) {
      covered = recvMono - this.coveredFrom + this.overlapMs <= plan.windowMs;
      if (covered) this.coveredFrom = sentMono;
    }
    this.prune();
    const offsetLow = this.serverClock.lowOffset();

    const elapsed = this.lastPollMono === undefined ? 0 : recvMono - this.lastPollMono;
    this.lastPollMono = recvMono;
    const instantRate = elapsed > 0 ? (newLines * 1000) / elapsed : this.state.linesPerSecond;
    this.idlePolls = newLines > 0 ? 0 : this.idlePolls + 1;
    const gaps = events.length - newLines;
    // Server time when it answered, at least: the watermark below which every line has arrived
    // (as far as the hold-back allows for late ones). Without Date headers there is no server
    // clock to hold lines against: they go out as they come.
    const watermark = Number.isFinite(offsetLow)
      ? sentMono + offsetLow - this.holdBackMs
      : Number.POSITIVE_INFINITY;
    // The server's time when it answered, at most: a line stamped later than that is ahead of
    // the server's own clock, and waiting for a watermark to reach it could take hours.
    const serverNowUpper = recvMono + this.serverClock.highOffset();
    this.setState({
      phase: "live",
      retries: 0,
      lastError: undefined,
      lastPollLatencyMs: latency,
      clockOffsetMs,
      lastWindowSeconds:
        plan.request.sinceSeconds === undefined ? undefined : Number(plan.request.sinceSeconds),
      linesPerSecond:
        this.state.linesPerSecond === 0
          ? instantRate
          : 0.6 * this.state.linesPerSecond + 0.4 * instantRate,
      linesEmitted: this.state.linesEmitted + newLines,
      gaps: this.state.gaps + gaps,
    });
    this.deliver(events, watermark, serverNowUpper);
    return { ok: true, covered, newLines };
  }

  /**
   * Forgets the lines no later window can re-send: those a complete response did not re-send,
   * once the last covered poll is further past that response's window than any window reaches
   * back (the overlap plus MAX_REACH_BACK_MS). A later window sent at S asks for at most the time
   * since the last covered poll plus the overlap, allowance and rounding, so its front is no
   * earlier than that poll's send time minus those, on the server's clock.
   */
  private prune(): void {
    if (this.coveredFrom === undefined) return;
    const cutoff = this.coveredFrom - this.overlapMs - MAX_REACH_BACK_MS;
    let before: number | undefined;
    let used = 0;
    for (const mark of this.absenceMarks) {
      if (mark.frontBy >= cutoff) continue;
      if (before === undefined || mark.response > before) before = mark.response;
    }
    if (before === undefined) return;
    while (used < this.absenceMarks.length && (this.absenceMarks[used]?.response ?? 0) <= before)
      used++;
    this.absenceMarks.splice(0, used);
    this.dedup.prune(before);
  }

  /**
   * Emits new events: at once in their order without a hold-back; with one, through the held
   * buffer, releasing in sort-key order what the watermark has passed.
   */
  private deliver(events: LogEvent[], watermark: number, serverNowUpper: number): void {
    if (this.baseHoldBackMs === 0 || watermark === Number.POSITIVE_INFINITY) {
      this.emitMarked(events, serverNowUpper);
      return;
    }
    const ahead: LogEvent[] = [];
    for (const e of events) {
      // Stamped ahead of the server's clock: out at once rather than held for hours.
      if (e.sortKey > serverNowUpper) ahead.push(e);
      else this.hold(e);
    }
    let end = this.heldStart;
    while (end < this.held.length && (this.held[end] as LogEvent).sortKey <= watermark) end++;
    const released = this.held.slice(this.heldStart, end);
    this.heldStart = end;
    if (this.heldStart === this.held.length) {
      this.held = [];
      this.heldStart = 0;
    } else if (this.heldStart > 1024 && this.heldStart * 2 > this.held.length) {
      this.held = this.held.slice(this.heldStart);
      this.heldStart = 0;
    }
    const lateBefore = this.lateSeen;
    this.emitMarked(ahead.length === 0 ? released : released.concat(ahead), serverNowUpper);
    // Ease back towards the base while nothing arrives late: half the excess a minute.
    const now = this.clock.monotonic();
    if (this.lateSeen === lateBefore && this.lastEaseMono !== undefined) {
      const excess = this.holdBackMs - this.baseHoldBackMs;
      this.holdBackMs = this.baseHoldBackMs + excess * 0.5 ** ((now - this.lastEaseMono) / 60_000);
    }
    this.lastEaseMono = now;
  }

  /** Inserts into the held buffer after every event whose key is <= its own. */
  private hold(e: LogEvent): void {
    const held = this.held;
    const last = held[held.length - 1];
    if (held.length === this.heldStart || (last && last.sortKey <= e.sortKey)) {
      held.push(e);
      return;
    }
    let lo = this.heldStart;
    let hi = held.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((held[mid] as LogEvent).sortKey <= e.sortKey) lo = mid + 1;
      else hi = mid;
    }
    held.splice(lo, 0, e);
  }

  /** Lines the hold-back is waiting on. */
  heldCount(): number {
    return this.held.length - this.heldStart;
  }

  /** Emits everything held (a stream's end, or a poll that failed: show what there is). */
  flush(): void {
    if (this.heldCount() === 0) return;
    const released = this.held.slice(this.heldStart);
    this.held = [];
    this.heldStart = 0;
    this.emitMarked(released, this.clock.monotonic() + this.serverClock.highOffset());
  }

  /**
   * Marks late lines (older than a line already emitted) and emits. Only a timestamped line can be
   * known to be late; an untimestamped one is placed by its neighbours. A late line grows the
   * hold-back to how late it was, up to the overlap. Lateness is measured against the server's
   * clock: a line stamped ahead of it (`serverNowUpper`) counts as stamped at that time, so it
   * cannot make every line after it late; without Date headers nothing is marked late.
   */
  private emitMarked(events: LogEvent[], serverNowUpper: number): void {
    let lateness = 0;
    const clocked = serverNowUpper !== Number.POSITIVE_INFINITY;
    for (const e of events) {
      if (!clocked || e.kind !== "line" || e.ts === undefined) continue;
      if (e.sortKey < this.maxEmittedKey) {
        e.late = true;
        this.lateSeen += 1;
        lateness = Math.max(lateness, this.maxEmittedKey - e.sortKey);
      } else {
        this.maxEmittedKey = Math.min(e.sortKey, serverNowUpper);
      }
    }
    if (lateness > 0 && this.baseHoldBackMs > 0) {
      // The watermark passed this line by `lateness` before it arrived: hold back that much more.
      this.holdBackMs = Math.min(
        Math.max(this.overlapMs, this.baseHoldBackMs),
        this.holdBackMs + lateness + 250,
      );
    }
    this.emit(events);
  }

  /** How long to wait before the next poll: faster while lines flow, slower when idle. */
  nextDelayMs(last: { ok: boolean; covered: boolean; newLines: number }): number {
    if (last.ok && !last.covered) return 0;
    if (!last.ok)
      return Math.min(30_000, this.intervalMs * 2 ** Math.min(4, this.state.retries - 1));
    if (last.newLines > 0) return Math.max(250, this.intervalMs / 2);
    return Math.min(this.intervalMs * 4, this.intervalMs * (1 + Math.floor(this.idlePolls / 3)));
  }

  /**
   * Polls until the signal aborts (follow) or once (no follow). Resolves when done; rejects with
   * FollowerStopError when the failure cannot be retried away.
   */
  async run(signal: AbortSignal, follow: boolean): Promise<void> {
    if (!follow) {
      const result = await this.pollOnce(signal);
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
    while (!signal.aborted) {
      const result = await this.pollOnce(signal);
      if (signal.aborted) break;
      const delay = this.nextDelayMs(result);
      this.setState({ nextPollAt: this.clock.monotonic() + delay });
      await this.sleep(delay, signal);
    }
    this.flush();
    this.setState({ phase: "stopped", nextPollAt: undefined });
  }
}
