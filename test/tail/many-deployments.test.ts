import { describe, expect, it } from "vitest";
import { shortLabels } from "../../src/logs/model/deployment-labels.js";
import { CrossMerge } from "../../src/tail/cross-merge.js";
import { RequestLimit } from "../../src/tail/request-limit.js";

describe("following several deployments", () => {
  it("labels each deployment by the shortest unique prefix of its id, at least 6 characters", () => {
    const labels = shortLabels(["9463b164-aaaa", "9463b1ff-bbbb", "b4f9e00e-cccc", "abc"]);
    expect([...labels.values()]).toEqual(["9463b16", "9463b1f", "b4f9e0", "abc"]);
  });

  it("merges lines by timestamp, letting out only what the clock has passed", () => {
    const merge = new CrossMerge<{ sortKey: number; d: string }>();
    merge.push([
      { sortKey: 1, d: "a" },
      { sortKey: 5, d: "a" },
    ]);
    merge.push([
      { sortKey: 3, d: "b" },
      { sortKey: 9, d: "b" },
    ]);
    expect(merge.release(4).map((x) => `${x.d}${x.sortKey}`)).toEqual(["a1", "b3"]);
    merge.push([{ sortKey: 4, d: "b" }]);
    expect(merge.release(6).map((x) => `${x.d}${x.sortKey}`)).toEqual(["b4", "a5"]);
    expect(merge.size()).toBe(1);
    expect(merge.drain().map((x) => x.sortKey)).toEqual([9]);
  });

  it("bounds the slots in flight, first come first served, each released once", async () => {
    const limit = new RequestLimit(2);
    const order: number[] = [];
    const a = await limit.acquire();
    const b = await limit.acquire();
    const waiting = [3, 4].map((n) =>
      limit.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    expect(limit.inFlight()).toBe(2);
    a();
    a();
    const c = await waiting[0];
    expect(order).toEqual([3]);
    expect(limit.inFlight()).toBe(2);
    b();
    const d = await waiting[1];
    expect(order).toEqual([3, 4]);
    c?.();
    d?.();
    expect(limit.inFlight()).toBe(0);
  });
});
