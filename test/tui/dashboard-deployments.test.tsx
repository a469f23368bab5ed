import { describe, expect, it, vi } from "vitest";
import { LogFollower } from "../../src/tail/follower.js";
import { FollowerGroup, type GroupMember } from "../../src/tail/follower-group.js";
import type { LogLine } from "../../src/tail/log-line.js";
import { Dashboard } from "../../src/tui/components/dashboard.js";
import { responseMeta } from "../helpers/response-meta.js";
import { dashboardParts, line, NOW } from "./fixtures.js";
import { render } from "./render-at.js";

const tick = () => new Promise((r) => setImmediate(r));
async function settle() {
  for (let i = 0; i < 5; i++) await tick();
}

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
  const parts = await dashboardParts();
  parts.store.append(
    Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? tagged(line(i, (i % 3) + 1, `stable request ${i}`), "dep-aaaa-1", "dep-aa")
        : tagged(line(i, (i % 2) + 1, `canary request ${i}`), "dep-bbbb-2", "dep-bb"),
    ),
  );
  const ui = render(
    <Dashboard
      {...parts}
      follower={new FollowerGroup(members)}
      deploymentId="dep-aaaa-1"
      onQuit={vi.fn()}
      columns={140}
      rows={40}
      now={() => NOW}
    />,
  );
  await settle();
  const frame = () => ui.lastFrame() ?? "";
  const type = async (s: string) => {
    ui.stdin.write(s);
    await settle();
  };
  return { frame, type };
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
    const { frame, type } = await setup([await member("dep-aaaa-1", "dep-aa"), failing]);
    for (let i = 0; i < 20 && !frame().includes("retrying"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      await settle();
    }
    expect(frame()).toContain("dep-bb: HTTP 503 from the fake");
    await type("i");
    expect(frame()).toContain("deployments");
    expect(frame()).toMatch(/dep-aa \(dep-aaaa-1\): live/);
    expect(frame()).toMatch(/dep-bb \(dep-bbbb-2\): retrying in \d+s, attempt \d+: HTTP 503/);
    controller.abort();
    await running;
  });

  it("with one deployment d says how to follow several", async () => {
    const parts = await dashboardParts();
    const ui = render(
      <Dashboard
        {...parts}
        deploymentId="dep-1"
        onQuit={vi.fn()}
        columns={120}
        rows={30}
        now={() => NOW}
      />,
    );
    await settle();
    ui.stdin.write("d");
    await settle();
    expect(ui.lastFrame()).toContain("one deployment followed: --app APP, --all or --deployment");
  });
});
