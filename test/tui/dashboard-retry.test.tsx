/**
 * The dashboard while the log poll fails (issue #11, point 2): the status line says when the
 * next try is and why, `r` sends it now, and `i` shows the follow's measurements.
 */
import { describe, expect, it, vi } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { LogFollower } from "../../src/tail/follower.js";
import { Dashboard } from "../../src/tui/components/dashboard.js";
import { responseMeta } from "../helpers/response-meta.js";
import { dashboardParts, NOW } from "./fixtures.js";
import { render } from "./render-at.js";

const tick = () => new Promise((r) => setImmediate(r));
async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the dashboard while the log poll fails", () => {
  it("counts down to the next try, r sends it now, and the status goes back to live", async () => {
    const parts = await dashboardParts();
    let down = true;
    const fetchLogs = vi.fn(async () => {
      if (down) throw new NetworkError("connection refused by 127.0.0.1:8787", 1);
      return { data: { entries: [] }, meta: responseMeta() };
    });
    // A 10 s interval: without `r`, the next try is seconds away.
    const follower = new LogFollower({ fetchLogs, intervalMs: 10_000 });
    const controller = new AbortController();
    const running = follower.run(controller.signal, true).catch(() => {});
    const ui = render(
      <Dashboard
        {...parts}
        follower={follower}
        deploymentId="dep-1"
        onQuit={() => {}}
        columns={120}
        rows={30}
        now={() => NOW}
      />,
    );
    const frame = () => ui.lastFrame() ?? "";
    try {
      await until(() => /retrying in \d+s, attempt 2/.test(frame()), "the countdown");
      expect(frame()).toContain("connection refused by 127.0.0.1:8787");
      expect(frame()).not.toMatch(/gave up|lines\/s/);
      const calls = fetchLogs.mock.calls.length;

      // `i`: the follow's status in full, the next try and the measurements.
      await tick();
      ui.stdin.write("i");
      await until(() => frame().includes("Log follow"), "the follow's status");
      expect(frame()).toMatch(/status\s+retrying in \d+(\.\d)?s, attempt 2: connection refused/);
      expect(frame()).toMatch(/overlap\s+/);
      expect(frame()).toMatch(/late lines\s+0/);
      ui.stdin.write("\u001b");
      await until(() => !frame().includes("Log follow"), "the status to close");

      down = false;
      ui.stdin.write("r");
      await until(() => fetchLogs.mock.calls.length > calls, "the poll `r` sends");
      await until(() => frame().includes("● live"), "live again");
      expect(frame()).toContain("retrying the log poll now");
      expect(frame()).not.toMatch(/retrying in|attempt 2/);
    } finally {
      controller.abort();
      await running;
      ui.unmount();
    }
  });

  it("r while live says there is nothing to retry", async () => {
    const parts = await dashboardParts();
    const ui = render(
      <Dashboard {...parts} deploymentId="dep-1" onQuit={() => {}} columns={120} rows={30} />,
    );
    await tick();
    ui.stdin.write("r");
    await until(() => (ui.lastFrame() ?? "").includes("nothing to retry"), "the answer");
    ui.unmount();
  });
});
