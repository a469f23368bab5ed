import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeLayout } from "../../src/tui/panes/layout.js";
import type { FakeApi } from "./fake-api.js";
import { calmDashboard, KEYS, startCorpusApi } from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * A frame that never breaks, checked as tmux draws it: the deployment's log streams a corpus of
 * skin tones, VS16 emoji and keycaps, flags, ZWJ sequences, CJK, combining marks, tabs, zero-width
 * characters and emoji newer than tmux's tables. In every capture (streaming, wrap off and on,
 * paused, timestamps on) the title and the status line are on screen, no line is wider than the
 * terminal, and every border is where the layout puts it: widths are the ones tmux itself draws,
 * measured in the same tmux.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemesOf = (s: string) => Array.from(segmenter.segment(s), (x) => x.segment);
const isAscii = (g: string) => g.length === 1 && g.charCodeAt(0) < 0x7f;
/** Characters that stand on a pane's left or right edge: vertical borders and corners. */
const EDGE = new Set(["│", "║", "┌", "┐", "└", "┘", "╔", "╗", "╚", "╝", "╭", "╮", "╰", "╯"]);

let api: FakeApi;
const sessions: Tmux[] = [];

beforeAll(async () => {
  requireTmux();
  api = await startCorpusApi();
});

afterAll(async () => {
  for (const t of sessions) t.kill();
  await api?.close();
});

describe("the dashboard's frame in a real terminal, whatever the log lines hold", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`stays whole at ${columns}x${rows}, wrap off and on`, async () => {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(
        calmDashboard(
          api,
          "--email",
          "ops@example.com",
          "--interval",
          // The fastest poll: a new line (and frame) every quarter of a second to judge.
          "250ms",
        ),
        { columns, rows },
        KEYS,
      );
      await tmux.waitFor(
        "the corpus on screen",
        (s) => s.includes("● live") && /zwj|skin tones|cjk|vs16/.test(s),
        { timeoutMs: 30_000 },
      );
      // Frames as they come (a poll every 250 ms brings lines), each settled and each new.
      const captures: string[] = [];
      const take = async (n: number, what: string, shows: (s: string) => boolean) => {
        for (let i = 0; i < n; i++) {
          const previous = captures.at(-1);
          captures.push(
            await tmux.waitFor(`another frame, ${what}`, (s) => s !== previous && shows(s)),
          );
        }
      };
      await take(8, "streaming", (s) => s.includes("following"));
      tmux.keys("C-w");
      await take(8, "wrap on", (s) => s.includes("(wrap)"));
      tmux.keys("T");
      await take(3, "with times", (s) => s.includes("(absolute times)"));
      tmux.keys("Space");
      await take(3, "paused", (s) => s.includes("⏸"));
      tmux.keys("Up", "Up", "PageUp");
      await take(2, "paused further up", (s) => s.includes("⏸") && /\]>/.test(s));

      const texts = new Set<string>();
      for (const c of captures)
        for (const g of graphemesOf(c)) if (!isAscii(g) && g !== "\n") texts.add(g);
      const drawn = await tmux.drawnWidths([...texts]);
      const width = (line: string) =>
        graphemesOf(line).reduce((n, g) => n + (isAscii(g) ? 1 : (drawn.get(g) ?? 1)), 0);
      const verticalsAt = (line: string) => {
        const at: number[] = [];
        let col = 0;
        for (const g of graphemesOf(line)) {
          if (EDGE.has(g)) at.push(col);
          col += isAscii(g) ? 1 : (drawn.get(g) ?? 1);
        }
        return at;
      };
      const layout = computeLayout(columns, rows, true);

      for (const capture of captures) {
        const lines = capture.replace(/\n+$/, "").split("\n");
        const why = `\n${capture}`;
        expect(lines.length, why).toBeLessThanOrEqual(rows - 1);
        expect(lines[0], why).toMatch(/^tvcwatch · /);
        const status = lines[lines.length - 1] ?? "";
        expect(status, why).toMatch(/^● /);
        for (const line of lines) expect(width(line), `${line}${why}`).toBeLessThanOrEqual(columns);
        // Every line between the title and the status line is panes edge to edge.
        for (const line of lines.slice(1, -1)) {
          expect(width(line), `${line}${why}`).toBe(columns);
          const v = verticalsAt(line);
          expect(v[0], `${line}${why}`).toBe(0);
          expect(v[v.length - 1], `${line}${why}`).toBe(columns - 1);
          if (layout.side.arrangement === "column") {
            // The log pane's right border and the side pane's left border.
            expect(v, `${line}${why}`).toEqual(
              expect.arrayContaining([layout.logs.width - 1, layout.logs.width]),
            );
          }
        }
      }
      tmux.keys("q");
      await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED 0"));
    }, 120_000);
  }
});
