/**
 * The side panes on the log's clock in a real terminal (issue 38): `T` switches their times with
 * the log's, and with the log's cursor put on a time (`J`) each pane marks the records nearest
 * it and its title says the time followed; Space follows live again and they follow nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

const sessions: Tmux[] = [];

beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const followed = (s: string, pane: string) =>
  new RegExp(`${pane} at (\\d\\d:\\d\\d:\\d\\d)`).exec(s)?.[1];

describe("the side panes on the log's clock", () => {
  it("at 160x48 in the incident: T, then J puts every pane on the cursor's time", async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["demo", "--scenario", "incident", "--seed", "5"], { columns: 160, rows: 48 });
    await tmux.waitFor(
      "the demo with every pane",
      (s) => s.includes("● live") && /consensus \d+/.test(s) && /\[\d\] /.test(s),
      { timeoutMs: 30_000 },
    );

    tmux.keys("T");
    await tmux.waitFor("absolute times in the log and the side panes", (s) => {
      expect(s).toContain("Logs (absolute times)");
      // The panes' time column: a heading and local times of day.
      expect(s).toMatch(/│(status +id +type +time +votes)/);
      expect(s).toMatch(/│\d\d:\d\d:\d\d (Delivery|Bounce|Send|Complaint|DeliveryDelay|Reject)/);
      expect(s).toMatch(/│\d\d:\d\d:\d\d (IN|OUT) /);
    });

    tmux.keys("J");
    await tmux.waitFor("the time prompt", (s) => s.includes("go to time"));
    tmux.type("-20s");
    tmux.keys("Enter");
    await tmux.waitFor("every pane at the cursor's time, the nearest records marked", (s) => {
      const cursor = /║(\d\d:\d\d:\d\d)\.\d+ \[\d\]>/.exec(s)?.[1];
      expect(cursor).toBeDefined();
      for (const pane of ["Activities", "Email", "Solana"]) expect(followed(s, pane)).toBe(cursor);
      // The log's cursor glyph before the rows nearest that time, in each pane.
      const marked = s.split("\n").filter((l) => /│> \S/.test(l));
      expect(marked.length).toBeGreaterThanOrEqual(3);
    });

    tmux.keys("Space");
    await tmux.waitFor("following live, the panes follow no time", (s) => {
      expect(s).toContain("following");
      expect(followed(s, "Activities")).toBeUndefined();
      expect(s.split("\n").some((l) => /│> \S/.test(l))).toBe(false);
    });
  });
});
