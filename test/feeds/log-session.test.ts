/**
 * The dashboard's log session over a follow-set (src/feeds/log-session.ts), on fake deployments
 * and time that moves only when the test moves it: lines tagged with their deployment's label
 * when there are several, and what the set tells as markers in the log.
 */
import { describe, expect, it } from "vitest";
import { FollowSetSession } from "../../src/feeds/log-session.js";
import type { StoreEvent } from "../../src/logs/model/log-line.js";
import { FollowSet } from "../../src/tail/follow-set/follow-set.js";
import type { FetchLogs } from "../../src/tail/follower.js";
import { RequestLimit } from "../../src/tail/request-limit.js";
import { ManualTime } from "../helpers/manual-time.js";
import { responseMeta } from "../helpers/response-meta.js";

function fakeFetch(time: ManualTime, id: string): FetchLogs {
  let n = 0;
  return async () => {
    const ms = time.clock.now();
    n += 1;
    return {
      data: {
        entries: [
          {
            replicaLabel: "replica 1/1",
            line: {
              content: `${id} ${n}`,
              ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
            },
          },
        ],
      },
      meta: responseMeta({ serverDate: Math.floor(ms / 1000) * 1000 }),
    };
  };
}

function session(ids: string[], listings?: string[][]) {
  const time = new ManualTime();
  let turn = 0;
  const set = new FollowSet({
    followerOptions: (id) => ({
      fetchLogs: fakeFetch(time, id),
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0.5,
      intervalMs: 2000,
      sinceMs: 60_000,
    }),
    intervalMs: 2000,
    limit: new RequestLimit(4),
    clock: time.clock,
    sleep: time.sleep,
    relisting: listings && {
      list: async () => listings[Math.min(turn++, listings.length - 1)] as string[],
      everyMs: 5000,
      maxDeployments: 2,
      atStart: { listed: 3, leftOut: 1 },
    },
  });
  const s = new FollowSetSession(set, 1000, ids.length > 1 || listings !== undefined);
  set.add(ids);
  return { time, s };
}

function events(s: FollowSetSession): StoreEvent[] {
  const out: StoreEvent[] = [];
  for (let i = 0; i < s.store.size(); i++) {
    const e = s.store.at(i)?.event;
    if (e) out.push(e);
  }
  return out;
}

describe("the dashboard's log session over a follow-set", () => {
  it("keeps one deployment's replica labels as the server sends them", async () => {
    const { time, s } = session(["dep-a"]);
    s.start();
    await time.advance(0);
    const lines = events(s).filter((e) => e.kind === "line");
    expect(lines.map((e) => e.replicaLabel)).toEqual(["replica 1/1"]);
    expect(lines[0]?.deploymentId).toBeUndefined();
    await s.stop();
  });

  it("gives each replica of several deployments its intervals under its tagged label", async () => {
    const { time, s } = session(["dep-a-1111", "dep-b-2222"]);
    s.start();
    await time.advance(0);
    await time.advance(2000);
    const stats = s.replicas.snapshot(5);
    expect(stats.map((r) => r.label)).toEqual(["dep-a- replica 1/1", "dep-b- replica 1/1"]);
    for (const r of stats) {
      expect(r.buckets).toHaveLength(5);
      expect(r.errorBuckets).toHaveLength(5);
      expect(r.buckets.reduce((a, b) => a + b, 0)).toBe(r.lines);
    }
    await s.stop();
  });

  it("tags several deployments' lines and puts what the relists find in the log", async () => {
    const { time, s } = session(
      ["9463b164-aaaa", "b4f9e00e-cccc"],
      [["9463b164-aaaa", "9463b1ff-bbbb"]],
    );
    s.start();
    await time.advance(0);
    await time.advance(5000);
    const texts = events(s).flatMap((e) =>
      e.kind === "replica" ? [`${e.replicaLabel}: ${e.text}`] : [],
    );
    expect(texts).toEqual([
      "tvcwatch: following 2 of 3 debug-mode deployments (by app, live first, newest first): 1 left out by --max-deployments 2; raise it to follow more",
      // A replica's first line is a marker of its own.
      ...texts.filter((t) => t.includes("replica 1/1")),
      "b4f9e0: deployment b4f9e00e-cccc is no longer listed (or left debug mode): no longer followed",
      "9463b1f: deployment 9463b1ff-bbbb appeared: following it as 9463b1f",
    ]);
    await time.advance(4000);
    // Lines after the relist carry the labels as they are now.
    const labels = new Set(
      events(s).flatMap((e) => (e.kind === "line" ? [e.replicaLabel.split(" ")[0]] : [])),
    );
    expect(labels).toEqual(new Set(["9463b1", "b4f9e0", "9463b1f", "9463b16"]));
    expect(s.replicas.snapshot().map((r) => r.label.split(" ")[0])).toEqual(["9463b16", "9463b1f"]);
    await s.stop();
  });
});
