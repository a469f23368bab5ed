/**
 * The follow's detail (`i`): one deployment named first by its label (its version and role when
 * known) and id; several, each with its own follow's line.
 */
import { describe, expect, it } from "vitest";
import { followerDetail } from "../../src/feeds/follower-detail.js";
import { LogFollower } from "../../src/tail/follower.js";

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
});
