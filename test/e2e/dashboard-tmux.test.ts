import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/** The whole program as a user meets it: tmux runs `tvcwatch demo`, send-keys types, capture-pane reads. */
const tmux = new Tmux();

/** Log rows: a replica gutter right after the log pane's left border (single or double). */
/** Rows of log lines (not the replicas' sparkline strip: tags and bars only). */
const logRows = (s: string) =>
  s.split("\n").filter((l) => /[│║]\[\d\] /.test(l) && !/[│║](\[\d\][ ▁▂▃▄▅▆▇█]*)+[│║]/.test(l));

beforeAll(() => {
  requireTmux();
  tmux.start(["demo", "--seed", "3"], { columns: 120, rows: 40 }, { NO_COLOR: "" });
});

afterAll(() => tmux.kill());

describe("tvcwatch demo in a real terminal", () => {
  it("shows every pane live, answers keys, and restores the screen on q", async () => {
    const first = await tmux.waitFor(
      "lines in every pane",
      (s) =>
        logRows(s).length > 10 &&
        /consensus \d+/.test(s) &&
        /@example\.com/.test(s) &&
        /net [+-]/.test(s) &&
        s.includes("● live"),
    );
    // The live area stays shorter than the 40-row terminal (Ink redraws everything otherwise).
    expect(first.replace(/\n+$/, "").split("\n").length).toBeLessThanOrEqual(39);

    await tmux.keys("?");
    await tmux.waitFor(
      "the help",
      (s) => s.includes("tvcwatch keys") && s.includes("hide / show replica N"),
    );
    await tmux.keys("Escape");
    await tmux.waitFor("the help to close", (s) => !s.includes("tvcwatch keys"));

    await tmux.keys("Space");
    await tmux.waitFor(
      "pause with a count of new lines",
      (s) => /paused/.test(s) && /\d+ new lines/.test(s),
    );
    await tmux.keys("Space");
    await tmux.waitFor("follow again", (s) => /following/.test(s) && !/new lines/.test(s));

    await tmux.keys("f", "E", "R", "R", "O", "R", "Enter");
    const filtered = await tmux.waitFor(
      "the include filter",
      (s) => s.includes("+/ERROR/") && logRows(s).length > 0,
      30_000,
    );
    // Each error keeps its stack frames (continuation lines of its replica).
    const strange = logRows(filtered).filter(
      (l) => !/ERROR|"level":"error"/i.test(l) && !/\][ >*] +at /.test(l),
    );
    expect(strange, filtered).toEqual([]);
    await tmux.keys("Escape");

    await tmux.keys("1");
    const hidden = await tmux.waitFor("replica 1 hidden", (s) => s.includes("hidden 1"));
    expect(logRows(hidden).some((l) => /[│║]\[1\] /.test(l))).toBe(false);

    await tmux.keys("q");
    const after = await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED"));
    expect(after).toContain("TVCWATCH-EXITED 0");
    // The alternate screen was left: nothing of the dashboard remains.
    expect(after).not.toContain("Activities");
    expect(after).not.toContain("● live");
  }, 90_000);
});
