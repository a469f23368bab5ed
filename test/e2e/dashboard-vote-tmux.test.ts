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
    let screen = await tmux.waitFor(
      "activities awaiting my vote",
      (s) => s.includes("● live") && awaiting(s) >= 2,
      30_000,
    );
    // v first: Tab then selects the first activity awaiting my vote (the selection is a record,
    // so v after Tab would keep one that v hides, and say it is gone).
    await tmux.keys("v");
    await tmux.waitFor("the filter", (s) => s.includes("Activities · awaiting my vote"));
    await tmux.keys("Tab");

    const before = awaiting(tmux.screen());
    await tmux.keys("A");
    screen = await tmux.waitFor("the confirmation", (s) => s.includes("Approve this activity?"));
    expect(screen).toMatch(/fingerprint +sha256:[0-9a-f]+/);
    expect(screen).toMatch(/root users +/);
    await tmux.keys("y");
    screen = await tmux.waitFor("the result", (s) => /approved activity \S+: \S+/.test(s));
    expect(screen).toMatch(/approved activity \S+: (COMPLETED|CONSENSUS_NEEDED)/);
    await tmux.keys("Escape");
    await tmux.waitFor("one fewer awaiting my vote", (s) => awaiting(s) < before);

    // The approved one left the list: the pane says so, and ↓ selects the row in its place.
    await tmux.waitFor("the approved one gone", (s) => s.includes("gone: activity "));
    await tmux.keys("Down");
    const next = awaiting(tmux.screen());
    await tmux.keys("R");
    await tmux.waitFor("the confirmation", (s) => s.includes("Reject this activity?"));
    await tmux.keys("y");
    screen = await tmux.waitFor("the result", (s) => /rejected activity \S+: REJECTED/.test(s));
    await tmux.keys("Escape");
    await tmux.waitFor("one fewer again", (s) => awaiting(s) < next || !s.includes("⚑"));

    // All activities again; the last rows are decided ones (newest first, older are done).
    await tmux.keys("v");
    await tmux.waitFor("the whole list", (s) => !s.includes("awaiting my vote"));
    await tmux.keys("PageDown", "PageDown", "PageDown", "PageDown", "PageDown");
    await tmux.keys("A");
    screen = await tmux.waitFor("why not", (s) => /cannot approve: /.test(statusLine(s)));
    expect(statusLine(screen)).toMatch(
      /cannot approve: it is already decided: (COMPLETED|FAILED|REJECTED)/,
    );
  }, 90_000);
});
