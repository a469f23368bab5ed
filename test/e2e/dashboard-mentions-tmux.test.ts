/**
 * From a log line to the record it mentions, in a real terminal against the demo: the simulator's
 * signer logs each activity the queue creates by its full id, so Enter on that line lists the
 * activity the Activities pane holds, and its number opens the activity's own detail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

const sessions: Tmux[] = [];

beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

describe("a log line's mentions in the demo", () => {
  it("at 160x48: Enter on the signer's line lists its activity, and 1 opens that activity", async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["demo", "--seed", "5"], { columns: 160, rows: 48 });
    await tmux.waitFor("the demo following", (s) => s.includes("● live") && /\[\d\] /.test(s), {
      timeoutMs: 30_000,
    });
    // Only the signer's lines about activities, then paused: the cursor is on the newest one.
    tmux.keys("f");
    tmux.type("signer: activity");
    tmux.keys("Enter");
    await tmux.waitFor("a signer line naming an activity", (s) =>
      expect(s).toMatch(new RegExp(`║\\[\\d\\] INFO  signer: activity ${UUID} `)),
    );
    tmux.keys("Space");
    const paused = await tmux.waitFor("the cursor on the newest signer line", (s) =>
      expect(s).toMatch(new RegExp(`║\\[\\d\\]>INFO  signer: activity ${UUID} `)),
    );
    const id = new RegExp(`\\]>INFO  signer: activity (${UUID}) `).exec(paused)?.[1] as string;

    tmux.keys("Enter");
    await tmux.waitFor("the line's detail listing the activity", (s) => {
      expect(s).toContain("Log line · replica");
      expect(s).toMatch(new RegExp(`mentions +1 activity ${id} · \\S`));
      expect(s).toMatch(
        new RegExp(`text +INFO  signer: activity ${id} ACTIVITY_TYPE_\\w+ received`),
      );
    });

    tmux.keys("1", "PageDown");
    await tmux.waitFor("that activity's own detail", (s) => {
      expect(s).toMatch(/│ Activity \S/);
      expect(s).toMatch(new RegExp(`│ id +${id} `));
    });
  });
});
