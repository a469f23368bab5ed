import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Acting on the activity queue in a real terminal (issue #14): in the demo, the Activities pane
 * filtered to what awaits my vote (v), A then y approves the selected activity and R then y
 * rejects one, each row changing at once; A on a decided activity says why not. The selection
 * is the record (issue #28): once approved it leaves the filtered list, and ↓ selects the next.
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const statusLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
const awaiting = (s: string) => Number(/⚑ (\d+)/.exec(statusLine(s))?.[1] ?? 0);

describe("voting in the demo", () => {
  it("A y approves, R y rejects, the count drops at once; A on a decided activity says why not", async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["demo", "--seed", "5", "--no-bell"], { columns: 160, rows: 48 });
    await tmux.waitFor(
      "activities awaiting my vote",
      (s) => s.includes("● live") && awaiting(s) >= 2,
      {
        timeoutMs: 30_000,
      },
    );
    // v first: Tab then selects the first activity awaiting my vote (the selection is a record,
    // so v after Tab would keep one that v hides, and say it is gone).
    tmux.keys("v");
    await tmux.waitFor("the filter", (s) => s.includes("Activities · awaiting my vote"));
    tmux.keys("Tab");
    const before = awaiting(
      await tmux.waitFor("activities focused", (s) => s.includes("▸ Activities")),
    );
    tmux.keys("A");
    await tmux.waitFor("the confirmation", (s) => {
      expect(s).toContain("Approve this activity?");
      expect(s).toMatch(/fingerprint +sha256:[0-9a-f]+/);
      expect(s).toMatch(/root users +/);
    });
    tmux.keys("y");
    await tmux.waitFor("the result", (s) =>
      expect(s).toMatch(/approved activity \S+: (COMPLETED|CONSENSUS_NEEDED)/),
    );
    tmux.keys("Escape");
    await tmux.waitFor("one fewer awaiting my vote", (s) => awaiting(s) < before);

    // The approved one left the list: the pane says so, and ↓ selects the row in its place.
    await tmux.waitFor("the approved one gone", (s) => s.includes("gone: activity "));
    tmux.keys("Down");
    const next = awaiting(
      await tmux.waitFor("another selected", (s) => !s.includes("gone: activity ")),
    );
    tmux.keys("R");
    await tmux.waitFor("the confirmation", (s) => s.includes("Reject this activity?"));
    tmux.keys("y");
    await tmux.waitFor("the result", (s) => /rejected activity \S+: REJECTED/.test(s));
    tmux.keys("Escape");
    await tmux.waitFor("one fewer again", (s) => awaiting(s) < next || !s.includes("⚑"));

    // All activities again; the last rows are decided ones (newest first, older are done).
    tmux.keys("v");
    await tmux.waitFor("the whole list", (s) => !s.includes("awaiting my vote"));
    tmux.keys("PageDown", "PageDown", "PageDown", "PageDown", "PageDown", "A");
    await tmux.waitFor("why not", (s) =>
      expect(statusLine(s)).toMatch(
        /cannot approve: it is already decided: (COMPLETED|FAILED|REJECTED)/,
      ),
    );
  }, 90_000);
});
