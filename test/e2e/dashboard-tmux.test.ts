import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/** The whole program as a user meets it: tmux runs `tvcwatch demo`, send-keys types, capture-pane reads. */
const tmux = new Tmux();

/** Log rows: a replica gutter right after the log pane's left border (single or double). */
/** Rows of log lines (not the replicas' sparkline strip: tags and bars only). */
const logRows = (s: string) =>
  s.split("\n").filter((l) => /[│║]\[\d\] /.test(l) && !/[│║](\[\d\][ ▁▂▃▄▅▆▇█!]*)+[│║]/.test(l));

beforeAll(() => {
  requireTmux();
  tmux.start(["demo", "--seed", "3"], { columns: 120, rows: 40 }, { NO_COLOR: "" });
});

afterAll(() => tmux.kill());

describe("tvcwatch demo in a real terminal", () => {
  it("shows every pane live, answers keys, and restores the screen on q", async () => {
    await tmux.waitFor(
      "lines in every pane, the live area shorter than the terminal",
      (s) => {
        expect(logRows(s).length).toBeGreaterThan(10);
        expect(s).toMatch(/consensus \d+/);
        expect(s).toMatch(/@example\.com/);
        expect(s).toMatch(/net [+-]/);
        expect(s).toContain("● live");
        // Shorter than the 40-row terminal (Ink redraws everything otherwise).
        expect(s.replace(/\n+$/, "").split("\n").length).toBeLessThanOrEqual(39);
      },
      { timeoutMs: 30_000 },
    );

    tmux.keys("?");
    await tmux.waitFor(
      "the help",
      (s) => s.includes("tvcwatch keys") && /q, Ctrl-C +quit/.test(s) && /↑↓ 1-\d+ of \d+/.test(s),
    );
    tmux.keys("Escape");
    await tmux.waitFor("the help to close", (s) => !s.includes("tvcwatch keys"));

    tmux.keys("Space");
    await tmux.waitFor(
      "pause with a count of new lines",
      (s) => /paused/.test(s) && /\d+ new lines/.test(s),
    );
    tmux.keys("Space");
    await tmux.waitFor("follow again", (s) => /following/.test(s) && !/new lines/.test(s));

    tmux.keys("f", "E", "R", "R", "O", "R", "Enter");
    await tmux.waitFor(
      "the include filter: errors with their stack frames (continuation lines of their replica)",
      (s) => {
        expect(s).toContain("+/ERROR/");
        const rows = logRows(s);
        expect(rows.length).toBeGreaterThan(0);
        const strange = rows.filter(
          (l) => !/ERROR|"level":"error"/i.test(l) && !/\][ >*] +at /.test(l),
        );
        expect(strange).toEqual([]);
      },
      { timeoutMs: 30_000 },
    );
    tmux.keys("Escape");
    await tmux.waitFor("the filter removed", (s) => !s.includes("+/ERROR/"));

    tmux.keys("1");
    await tmux.waitFor("replica 1 hidden", (s) => {
      expect(s).toContain("hidden 1");
      expect(logRows(s).some((l) => /[│║]\[1\] /.test(l))).toBe(false);
    });

    tmux.keys("q");
    await tmux.waitFor("the program to exit, the screen restored", (s) => {
      expect(s).toContain("TVCWATCH-EXITED 0");
      // The alternate screen was left: nothing of the dashboard remains.
      expect(s).not.toContain("Activities");
      expect(s).not.toContain("● live");
    });
  }, 90_000);
});
