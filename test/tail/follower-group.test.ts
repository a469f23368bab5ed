import { describe, expect, it, vi } from "vitest";
import type { FollowerState } from "../../src/tail/follower.js";
import { FollowerGroup, type FollowSource } from "../../src/tail/follower-group.js";

function state(patch: Partial<FollowerState>): FollowerState {
  return {
    phase: "live",
    retries: 0,
    linesPerSecond: 0,
    linesEmitted: 0,
    gaps: 0,
    entriesServed: 0,
    arrival: { overlapMs: 250, lateLines: 0, recentLateMs: 0, measured: true },
    ...patch,
  };
}

/** A follower whose state the test sets. */
function fake(initial: Partial<FollowerState>) {
  let s = state(initial);
  const listeners = new Set<() => void>();
  const source: FollowSource & { set(p: Partial<FollowerState>): void } = {
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getState: () => s,
    retryNow: vi.fn(),
    monotonicNow: () => 1000,
    set(p) {
      s = { ...s, ...p };
      for (const l of listeners) l();
    },
  };
  return source;
}

describe("several deployments' followers as one follow", () => {
  it("sums rates and costs, and takes the worst phase with its deployment's error", () => {
    const a = fake({ linesPerSecond: 10, linesEmitted: 100, entriesServed: 150, lastSuccessAt: 5 });
    const b = fake({ linesPerSecond: 5, linesEmitted: 50, entriesServed: 100, lastSuccessAt: 9 });
    const group = new FollowerGroup([
      { deploymentId: "dep-a", label: "dep-a", follower: a },
      { deploymentId: "dep-b", label: "dep-b", follower: b },
    ]);
    expect(group.getState()).toMatchObject({
      phase: "live",
      linesPerSecond: 15,
      linesEmitted: 150,
      entriesServed: 250,
      lastSuccessAt: 5,
    });
    const seen = vi.fn();
    group.subscribe(seen);
    b.set({ phase: "retrying", retries: 2, lastError: "HTTP 503", nextPollAt: 4000 });
    expect(seen).toHaveBeenCalledTimes(1);
    expect(group.getState()).toMatchObject({
      phase: "retrying",
      retries: 2,
      lastError: "dep-b: HTTP 503",
      nextPollAt: 4000,
    });
    a.set({ phase: "failed", lastError: "deployment not found" });
    expect(group.getState().lastError).toBe("dep-a: deployment not found");
  });

  it("r wakes only the members waiting to retry", () => {
    const a = fake({});
    const b = fake({ phase: "retrying" });
    const group = new FollowerGroup([
      { deploymentId: "a", label: "a", follower: a },
      { deploymentId: "b", label: "b", follower: b },
    ]);
    group.retryNow();
    expect(a.retryNow).not.toHaveBeenCalled();
    expect(b.retryNow).toHaveBeenCalledTimes(1);
  });

  it("reports the widest overlap, every late line, and a lagging replica with its deployment", () => {
    const a = fake({
      arrival: { overlapMs: 250, lateLines: 3, recentLateMs: 800, measured: true },
    });
    const b = fake({
      arrival: {
        overlapMs: 4000,
        lateLines: 7,
        recentLateMs: 300,
        measured: true,
        lagging: { replicaLabel: "replica 2/3", behindMs: 6000 },
      },
    });
    const group = new FollowerGroup([
      { deploymentId: "a", label: "a", follower: a },
      { deploymentId: "b", label: "b", follower: b },
    ]);
    expect(group.getState().arrival).toEqual({
      overlapMs: 4000,
      lateLines: 10,
      recentLateMs: 800,
      measured: true,
      lagging: { replicaLabel: "b replica 2/3", behindMs: 6000 },
    });
    group.close();
    a.set({ linesEmitted: 1 });
    expect(group.getState().linesEmitted).toBe(0);
  });

  it("takes deployments added and removed while it runs, and is stopped with none left", () => {
    const a = fake({ linesEmitted: 5 });
    const b = fake({ linesEmitted: 7 });
    const group = new FollowerGroup([{ deploymentId: "a", label: "a", follower: a }]);
    const seen = vi.fn();
    group.subscribe(seen);
    const before = group.members();
    group.add({ deploymentId: "b", label: "b", follower: b });
    expect(group.members()).not.toBe(before);
    expect(group.members().map((m) => m.deploymentId)).toEqual(["a", "b"]);
    expect(group.getState().linesEmitted).toBe(12);
    group.remove("a");
    expect(group.getState().linesEmitted).toBe(7);
    a.set({ linesEmitted: 100 });
    expect(group.getState().linesEmitted).toBe(7);
    group.remove("b");
    expect(group.getState()).toMatchObject({ phase: "stopped", linesEmitted: 0 });
    expect(seen).toHaveBeenCalledTimes(3);
  });
});
