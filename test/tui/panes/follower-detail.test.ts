/**
 * The follow's detail (`i`): one deployment named first by its label (its version and role when
 * known) and id; several, each with its own follow's line.
 */
import { describe, expect, it } from "vitest";
import { LogFollower } from "../../../src/tail/follower.js";
import { followerDetail, MAX_REPLICA_LINES } from "../../../src/tui/panes/follower-detail.js";

const follower = () => new LogFollower({ fetchLogs: async () => ({ entries: [] }) as never });

describe("the follow's detail", () => {
  it("names one deployment first, with its version and whether it is live", () => {
    const f = follower();
    const member = { deploymentId: "8e88703e-1111", label: "8e8870 0.7.2 live", follower: f };
    const view = followerDetail(f.getState(), 0, [], 0, [member]);
    expect(view.fields[0]).toEqual({
      label: "deployment",
      lines: ["8e8870 0.7.2 live (8e88703e-1111)"],
    });
    expect(view.fields.map((x) => x.label)).not.toContain("deployments");
    // None known (saved lines, a test): no such field.
    expect(followerDetail(f.getState(), 0).fields[0]?.label).toBe("status");
  });

  it("gives each of several deployments its line", () => {
    const f = follower();
    const view = followerDetail(f.getState(), 0, [], 0, [
      { deploymentId: "9463b1-aa", label: "9463b1 0.7.2 live", follower: f },
      { deploymentId: "0c7e55-bb", label: "0c7e55 0.8.0 canary", follower: f },
    ]);
    expect(view.fields[0]?.label).toBe("status");
    const several = view.fields.find((x) => x.label === "deployments");
    expect(several?.lines.map((l) => l.split(":")[0])).toEqual([
      "9463b1 0.7.2 live (9463b1-aa)",
      "0c7e55 0.8.0 canary (0c7e55-bb)",
    ]);
  });

  it("lists the first replicas one a line and sums the rest in one (a log of 200,000)", () => {
    const f = follower();
    const count = MAX_REPLICA_LINES + 2500;
    const replicas = Array.from({ length: count }, (_, k) => ({
      label: `replica ${k + 1}/${count}`,
      lines: 2,
      errors: k % 2,
      lastMs: 0,
      buckets: [],
      errorBuckets: [],
      stopped: k % 5 === 0,
    }));
    const lines = followerDetail(f.getState(), 0, replicas, 10_000).fields.find(
      (x) => x.label === "replicas",
    )?.lines;
    expect(lines?.length).toBe(MAX_REPLICA_LINES + 1);
    expect(lines?.[0]).toBe(`replica 1/${count}: 2 lines, 0 errors, last 10s ago, stopped sending`);
    expect(lines?.at(-1)).toBe(
      "and 2,500 more replicas: 5,000 lines, 1,250 errors, 500 stopped sending",
    );
  });
});
