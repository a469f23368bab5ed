/**
 * The side panes' events among the log's lines in a real terminal (issue 38 point 2): `I` puts
 * them in the log as marker lines with their glyphs and the status line says so, `T` gives them
 * the log's times, a filter keeps only the events it matches, and `I` again hides them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

const sessions: Tmux[] = [];

beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

/** The log pane's rows that are events (the glyph after the gutter). */
const eventRows = (s: string) => s.split("\n").filter((l) => /║(\S+ +)?[ >*][◆◇✓✉◎▣] /u.test(l));

describe("the side panes' events in the log", () => {
  it("at 80x24 in the incident: I shows them among the lines, f narrows them, I hides them", async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["demo", "--scenario", "incident", "--seed", "5"], { columns: 80, rows: 24 });
    await tmux.waitFor("the demo following", (s) => s.includes("● live") && /\[\d\] /.test(s), {
      timeoutMs: 30_000,
    });
    expect(eventRows(tmux.screen())).toEqual([]);

    tmux.keys("I");
    tmux.keys("T");
    tmux.keys("f");
    tmux.type("email|solana|activity");
    tmux.keys("Enter");
    await tmux.waitFor("only events, with their times, the status line saying so", (s) => {
      expect(s).toContain("◆ events");
      const rows = eventRows(s);
      expect(rows.length).toBeGreaterThanOrEqual(5);
      // Each with the log's absolute time before its glyph.
      for (const r of rows) expect(r).toMatch(/║\d\d:\d\d:\d\d\.\d{3} +[ >*][◆◇✓✉◎▣] /u);
      expect(rows.some((r) => r.includes("✉ email"))).toBe(true);
      expect(rows.some((r) => r.includes("◎ solana"))).toBe(true);
      expect(rows.some((r) => /[◆◇] activity/u.test(r))).toBe(true);
    });

    tmux.keys("I");
    await tmux.waitFor("the events hidden again", (s) => {
      expect(s).not.toContain("◆ events");
      expect(eventRows(s)).toEqual([]);
    });
  });
});
