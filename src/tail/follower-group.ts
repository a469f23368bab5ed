/**
 * Several deployments' followers seen as one follow (the dashboard over `--deployment` repeated,
 * `--app` or `--all`): one state that sums the rates and costs and takes the phase of the member
 * in the worst shape (its error said with its deployment's label), each member's own state for
 * the per-deployment status, and `r` waking every member that waits.
 */
import type { FollowerPhase, FollowerState } from "./follower.js";

/** What a view reads of a follow: one follower, or a group of them. */
export interface FollowSource {
  subscribe(listener: () => void): () => void;
  getState(): FollowerState;
  /** Ends the wait before the next poll: it goes out now. */
  retryNow(): void;
  /** Now on the clock `nextPollAt` and `lastSuccessAt` are on. */
  monotonicNow(): number;
  /** A group's deployments (a new array when one is added or removed); absent: one follower. */
  members?(): readonly GroupMember[];
}

/** One deployment of a group. */
export interface GroupMember {
  deploymentId: string;
  /** Its short label (./deployment-labels.ts), shown before its replicas. */
  label: string;
  follower: FollowSource;
}

/** Worst first: the phase a group shows is its worst member's. */
const SEVERITY: Record<FollowerPhase, number> = {
  failed: 4,
  retrying: 3,
  starting: 2,
  stopped: 1,
  live: 0,
};

/** A group with no deployment left (all went away): stopped, nothing measured. */
const EMPTY: FollowerState = {
  phase: "stopped",
  retries: 0,
  linesPerSecond: 0,
  linesEmitted: 0,
  gaps: 0,
  entriesServed: 0,
  arrival: { overlapMs: 0, lateLines: 0, recentLateMs: 0, measured: false },
};

function combine(members: readonly GroupMember[]): FollowerState {
  const states = members.map((m) => ({ m, s: m.follower.getState() }));
  const first = states[0];
  if (first === undefined) return EMPTY;
  let worst = first;
  for (const x of states) if (SEVERITY[x.s.phase] > SEVERITY[worst.s.phase]) worst = x;
  const sum = (f: (s: FollowerState) => number) => states.reduce((n, x) => n + f(x.s), 0);
  const defined = (f: (s: FollowerState) => number | undefined) =>
    states.map((x) => f(x.s)).filter((v): v is number => v !== undefined);
  const latencies = defined((s) => s.lastPollLatencyMs);
  const offsets = defined((s) => s.clockOffsetMs);
  const windows = defined((s) => s.lastWindowSeconds);
  const successes = defined((s) => s.lastSuccessAt);
  // The widest overlap any member asks for, and every member's late lines.
  let arrival = first.s.arrival;
  for (const x of states) if (x.s.arrival.overlapMs > arrival.overlapMs) arrival = x.s.arrival;
  const lagging = states.find((x) => x.s.arrival.lagging !== undefined);
  return {
    phase: worst.s.phase,
    retries: worst.s.retries,
    lastError:
      worst.s.lastError === undefined || states.length === 1
        ? worst.s.lastError
        : `${worst.m.label}: ${worst.s.lastError}`,
    nextPollAt: worst.s.nextPollAt,
    retryAfter: worst.s.retryAfter,
    // The oldest of the members' last good polls: the figures are no fresher than that.
    lastSuccessAt: successes.length === states.length ? Math.min(...successes) : undefined,
    linesPerSecond: sum((s) => s.linesPerSecond),
    lastPollLatencyMs: latencies.length > 0 ? Math.max(...latencies) : undefined,
    clockOffsetMs: offsets.length > 0 ? Math.min(...offsets) : undefined,
    lastWindowSeconds: windows.length > 0 ? Math.max(...windows) : undefined,
    linesEmitted: sum((s) => s.linesEmitted),
    gaps: sum((s) => s.gaps),
    entriesServed: sum((s) => s.entriesServed),
    arrival: {
      ...arrival,
      lateLines: sum((s) => s.arrival.lateLines),
      recentLateMs: Math.max(...states.map((x) => x.s.arrival.recentLateMs)),
      lagging: lagging?.s.arrival.lagging && {
        replicaLabel: `${lagging.m.label} ${lagging.s.arrival.lagging.replicaLabel}`,
        behindMs: lagging.s.arrival.lagging.behindMs,
      },
      measured: states.some((x) => x.s.arrival.measured),
    },
  };
}

export class FollowerGroup<M extends GroupMember = GroupMember> implements FollowSource {
  private state: FollowerState;
  private list: readonly M[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe = new Map<string, () => void>();

  constructor(members: readonly M[] = []) {
    for (const m of members) this.listen(m);
    this.list = [...members];
    this.state = combine(this.list);
  }

  private listen(m: M): void {
    this.unsubscribe.set(
      m.deploymentId,
      m.follower.subscribe(() => this.changed()),
    );
  }

  private changed(): void {
    this.state = combine(this.list);
    for (const l of this.listeners) l();
  }

  /** A deployment followed from now on. */
  add(m: M): void {
    if (this.unsubscribe.has(m.deploymentId)) return;
    this.listen(m);
    this.list = [...this.list, m];
    this.changed();
  }

  /** A deployment no longer followed. */
  remove(deploymentId: string): void {
    this.unsubscribe.get(deploymentId)?.();
    this.unsubscribe.delete(deploymentId);
    this.list = this.list.filter((m) => m.deploymentId !== deploymentId);
    this.changed();
  }

  /** Each member's label anew (those that changed are new objects; a new array if any did). */
  relabel(labelOf: (deploymentId: string) => string): void {
    let changed = false;
    const list = this.list.map((m) => {
      const label = labelOf(m.deploymentId);
      if (label === m.label) return m;
      changed = true;
      return { ...m, label };
    });
    if (!changed) return;
    this.list = list;
    this.changed();
  }

  members(): readonly M[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getState(): FollowerState {
    return this.state;
  }

  retryNow(): void {
    for (const m of this.list) {
      if (m.follower.getState().phase === "retrying") m.follower.retryNow();
    }
  }

  monotonicNow(): number {
    const m = this.list[0];
    return m ? m.follower.monotonicNow() : performance.now();
  }

  /** Stops listening to the members. */
  close(): void {
    for (const u of this.unsubscribe.values()) u();
    this.unsubscribe.clear();
  }
}
