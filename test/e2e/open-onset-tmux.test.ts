import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORM_ERROR, writeSavedIncident } from "../helpers/saved-incident.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * `!` in a real terminal, in `tvcwatch open` of a saved incident whose rise bucket opens with
 * replica 2's background error (test/helpers/saved-incident.ts): at 80x24 and 160x48 the cursor
 * lands on the incident's first error, and the status line says the rule that picked it.
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
/** The log line the cursor is on: `[2]>…`. */
const cursorLine = (s: string) =>
  s
    .split("\n")
    .map((l) => l.replace(/^[║│]/, ""))
    .find((l) => /^\[\d+\]>/.test(l));

describe("! in a real terminal", () => {
  it("lands on the incident's new error, past the background one, at 80x24 and 160x48", {
    timeout: 90_000,
  }, async () => {
    const incident = writeSavedIncident();
    for (const [columns, rows] of [
      [80, 24],
      [160, 48],
    ] as const) {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["open", incident.path], { columns, rows });
      // Every line in (the title no longer says indexing): ! reads the onset from all of them.
      await tmux.waitFor("the saved incident, newest last, every line indexed", (s) => {
        expect(s.split("\n")[0]).toContain(`· ${incident.lines.toLocaleString("en-US")} lines ·`);
        expect(s.split("\n")[0]).not.toContain("indexing");
        expect(lastLine(s)).toContain("○ saved lines");
        expect(s).toMatch(/[║│]\[1\][ ▁▂▃▄▅▆▇█]+ \[2\]/);
      });
      tmux.keys("!");
      await tmux.waitFor(`the cursor on the storm's first error at ${columns}x${rows}`, (s) => {
        const line = cursorLine(s);
        expect(line).toBeDefined();
        expect(line?.replace(/^\[2\]>/, "")).toMatch(STORM_ERROR);
        expect(lastLine(s)).toContain("replica 2: first message new to it");
        if (columns >= 160) expect(lastLine(s)).toContain("errors rose at 05:00:20");
      });
      tmux.keys("q");
      await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    }
  });
});
