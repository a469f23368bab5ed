import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Search as less and lnav do it, in a real terminal at 80x24 and 160x48, on saved lines with
 * three matches: from the end / lands on the newest, n goes on toward newer lines and wraps to
 * the oldest saying so, N goes back and wraps to the newest; the counter counts oldest first.
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const NEEDLES = [30, 100, 170];
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-search-tmux-"));
const file = join(dir, "hay.log");
writeFileSync(
  file,
  Array.from(
    { length: 200 },
    (_, i) => `[replica 1/1] line ${i + 1} ${NEEDLES.includes(i + 1) ? "needle here" : "hay"}\n`,
  ).join(""),
);

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
/** The line under the cursor (`[1]>`), as the log pane shows it. */
const cursorLine = (s: string) => /\[1\]>(line \d+ \w+)/.exec(s)?.[1];

describe("search in a real terminal", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`/ n N go toward newer and older lines and wrap, at ${columns}x${rows}`, {
      timeout: 60_000,
    }, async () => {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["open", file], { columns, rows });
      await tmux.waitFor("the newest lines", (s) => s.includes("line 200 hay"));
      // At 80 columns the notice is shortened to its own short form, which says which way.
      const wrapped = (end: "oldest" | "newest") =>
        columns >= 160 ? `search wrapped to the ${end} line` : `wrapped to ${end}`;
      const at = (n: number, index: number, notice?: string) => (s: string) => {
        expect(cursorLine(s)).toBe(`line ${n} needle`);
        expect(lastLine(s)).toContain(`search /needle/ ${index}/3`);
        if (notice) expect(lastLine(s)).toContain(notice);
        else expect(lastLine(s)).not.toContain("wrapped");
      };
      tmux.keys("/");
      tmux.type("needle");
      tmux.keys("Enter");
      await tmux.waitFor("from the end, the newest match", at(170, 3));
      tmux.keys("n");
      await tmux.waitFor("n past the newest: the oldest", at(30, 1, wrapped("oldest")));
      tmux.keys("n");
      await tmux.waitFor("n: the next newer one", at(100, 2));
      tmux.keys("N");
      await tmux.waitFor("N: back to the older one", at(30, 1));
      tmux.keys("N");
      await tmux.waitFor("N past the oldest: the newest", at(170, 3, wrapped("newest")));
      tmux.keys("q");
      await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    });
  }
});
