import { describe, expect, it } from "vitest";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { FollowerGroup, type GroupMember } from "../../../src/tail/follower-group.js";
import { responseMeta } from "../../helpers/response-meta.js";
import { line } from "../fixtures.js";
import { renderDashboard } from "../render-dashboard.js";

const meta = responseMeta();

async function member(id: string, label: string, fail = false): Promise<GroupMember> {
  const follower = new LogFollower({
    fetchLogs: async () => {
      if (fail) throw new Error("HTTP 503 from the fake");
      return { data: { entries: [] }, meta };
    },
  });
  if (!fail) await follower.pollOnce();
  return { deploymentId: id, label, follower };
}

function tagged(l: LogLine, id: string, label: string): LogLine {
  return { ...l, deploymentId: id, replicaLabel: `${label} ${l.replicaLabel}` };
}

async function setup(members: GroupMember[]) {
  return renderDashboard({
    size: { columns: 140, rows: 40 },
    heading: { kind: "deployments", deploymentId: "dep-aaaa-1" },
    lines: Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? tagged(line(i, (i % 3) + 1, `stable request ${i}`), "dep-aaaa-1", "dep-aa")
        : tagged(line(i, (i % 2) + 1, `canary request ${i}`), "dep-bbbb-2", "dep-bb"),
    ),
    logs: (parts) => ({ store: parts.store, follow: new FollowerGroup(members) }),
  });
}

describe("the dashboard over several deployments", () => {
  it("titles them, labels each line's replica with its deployment, and d shows one alone", async () => {
    const { frame, type } = await setup([
      await member("dep-aaaa-1", "dep-aa"),
      await member("dep-bbbb-2", "dep-bb"),
    ]);
    expect(frame()).toContain("2 deployments: dep-aa, dep-bb");
    expect(frame()).toMatch(/\[dep-aa \d\]\s+stable request 28/);
    expect(frame()).toMatch(/\[dep-bb \d\]\s+canary request 29/);
    await type("d");
    expect(frame()).toContain("only dep-aa");
    expect(frame()).toContain("stable request 28");
    expect(frame()).not.toContain("canary request");
    await type("d");
    expect(frame()).toContain("only dep-bb");
    expect(frame()).not.toContain("stable request");
    expect(frame()).toContain("canary request 29");
    await type("d");
    expect(frame()).not.toContain("only dep-");
    expect(frame()).toContain("stable request 28");
    expect(frame()).toContain("canary request 29");
  });

  it("reports each deployment's follow in i, and a failing one by its label in the status", async () => {
    const failing = await member("dep-bbbb-2", "dep-bb", true);
    const controller = new AbortController();
    const running = (failing.follower as LogFollower).run(controller.signal, true).catch(() => {});
    const { frame, type, waitForFrame } = await setup([
      await member("dep-aaaa-1", "dep-aa"),
      failing,
    ]);
    await waitForFrame((f) => expect(f).toContain("dep-bb: HTTP 503 from the fake"));
    await type("i");
    expect(frame()).toContain("deployments");
    expect(frame()).toMatch(/dep-aa \(dep-aaaa-1\): live/);
    expect(frame()).toMatch(/dep-bb \(dep-bbbb-2\): retrying in \d+s, attempt \d+: HTTP 503/);
    controller.abort();
    await running;
  });

  it("with one deployment d says how to follow several", async () => {
    // Wide enough for the whole answer in the status line.
    const { type, frame } = await renderDashboard({ size: { columns: 120, rows: 30 } });
    await type("d");
    expect(frame()).toContain("one deployment followed: --app APP, --all or --deployment");
  });
});
