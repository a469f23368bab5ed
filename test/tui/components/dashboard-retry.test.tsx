/**
 * The dashboard while the log poll fails (issue #11, point 2): the status line says when the
 * next try is and why, `r` sends it now, and `i` shows the follow's measurements.
 */
import { describe, expect, it, vi } from "vitest";
import { NetworkError } from "../../../src/api/errors.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { responseMeta } from "../../helpers/response-meta.js";
import { renderDashboard } from "../render-dashboard.js";

describe("the dashboard while the log poll fails", () => {
  it("counts down to the next try, r sends it now, and the status goes back to live", async () => {
    let down = true;
    const fetchLogs = vi.fn(async () => {
      if (down) throw new NetworkError("connection refused by 127.0.0.1:8787", 1);
      return { data: { entries: [] }, meta: responseMeta() };
    });
    // A 10 s interval: without `r`, the next try is seconds away.
    const follower = new LogFollower({ fetchLogs, intervalMs: 10_000 });
    const controller = new AbortController();
    const running = follower.run(controller.signal, true).catch(() => {});
    const { type, frame, waitForFrame, unmount } = await renderDashboard({
      size: { columns: 120, rows: 30 },
      logs: (parts) => ({ store: parts.store, follow: follower }),
    });
    try {
      await waitForFrame((f) => {
        expect(f).toMatch(/retrying in \d+s, attempt \d+/);
        expect(f).toContain("connection refused by 127.0.0.1:8787");
        expect(f).not.toMatch(/gave up|lines\/s/);
      });
      const calls = fetchLogs.mock.calls.length;

      // `i`: the follow's status in full, the next try and the measurements.
      await type("i");
      await waitForFrame((f) => {
        expect(f).toContain("Log follow");
        expect(f).toMatch(/status\s+retrying in \d+(\.\d)?s, attempt \d+: connection refused/);
        expect(f).toMatch(/overlap\s+/);
        expect(f).toMatch(/late lines\s+0/);
      });
      await type("\u001b");
      expect(frame()).not.toContain("Log follow");

      down = false;
      await type("r");
      await vi.waitFor(() => expect(fetchLogs.mock.calls.length).toBeGreaterThan(calls));
      await waitForFrame((f) => {
        expect(f).toContain("● live");
        expect(f).toContain("retrying the log poll now");
        expect(f).not.toMatch(/retrying in|attempt \d/);
      });
    } finally {
      controller.abort();
      await running;
      unmount();
    }
  });

  it("r while live says there is nothing to retry", async () => {
    const { type, frame, unmount } = await renderDashboard();
    await type("r");
    expect(frame()).toContain("nothing to retry");
    unmount();
  });
});
