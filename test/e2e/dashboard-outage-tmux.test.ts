import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/terminal-width.js";
import { startSimProcess } from "../helpers/sim-process.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Issue 32's outage, in a real terminal against the simulator at 80x24 and 160x48 at once: the
 * simulator answers every request 503 for a while (`sim --outage`). While polls fail the log
 * pane's title says retrying and why instead of following, and the status line keeps 30 columns
 * of the cause at 80 columns; when they succeed again the title says following and the log holds
 * a marker with the span and the polls that failed.
 */

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-outage-"));
const config = join(dir, "sim.json");
let sim: ChildProcess;
const sessions: Tmux[] = [];
/** The outage begins this long after the simulator started, and lasts OUTAGE_MS. */
const OUTAGE_AT_MS = 15_000;
const OUTAGE_MS = 10_000;

beforeAll(async () => {
  requireTmux();
  const started = await startSimProcess([
    "--seed",
    "32",
    "--outage",
    `${OUTAGE_AT_MS / 1000}s+${OUTAGE_MS / 1000}s`,
    "--write-config",
    config,
  ]);
  sim = started.process;
}, 30_000);

afterAll(() => {
  for (const t of sessions) t.kill();
  sim?.kill("SIGTERM");
});

const lines = (s: string) => s.split("\n");
/** The log pane's title row (the second line), its borders off. */
const titleRow = (s: string) => (lines(s)[2] ?? "").replace(/^[║│]|[║│].*$/g, "");
const statusRow = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
const MARKER =
  /── no answer \d\d:\d\d:\d\d–\d\d:\d\d:\d\d \(\d+ s, \d+ polls?\); lines of that time/;

describe("an outage in a real terminal, against the simulator", () => {
  it("says retrying and why while polls fail, then marks the outage in the log", {
    timeout: 120_000,
  }, async () => {
    const sizes = [
      { columns: 80, rows: 24 },
      { columns: 160, rows: 48 },
    ];
    const terminals = sizes.map((size) => {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["--config", config, "--interval", "1s", "--no-bell"], size);
      return { tmux, size };
    });
    // Each phase is waited for in both terminals at once: the outage does not wait.
    const inEach = (phase: (t: (typeof terminals)[number]) => Promise<unknown>) =>
      Promise.all(terminals.map(phase));
    await inEach(({ tmux }) =>
      tmux.waitFor(
        "the log following",
        (s) => {
          expect(statusRow(s)).toContain("● live");
          expect(titleRow(s)).toMatch(/following$/);
        },
        { timeoutMs: 30_000 },
      ),
    );

    await inEach(({ tmux, size }) =>
      tmux.waitFor(
        "retrying and why, in the title and the status line",
        (s) => {
          expect(titleRow(s)).toMatch(/ retrying: UNAVAILABLE \(HTTP 503\)/);
          expect(titleRow(s)).not.toContain("following");
          const status = statusRow(s);
          expect(status).toMatch(/● retrying/);
          // At least 30 columns of the cause, however the rest of the line gives way.
          expect(status).toContain("UNAVAILABLE (HTTP 503): servi");
          for (const l of lines(s)) expect(displayWidth(l), l).toBeLessThanOrEqual(size.columns);
        },
        { timeoutMs: OUTAGE_AT_MS + 15_000 },
      ),
    );

    await inEach(async ({ tmux }) => {
      await tmux.waitFor(
        "following again",
        (s) => {
          expect(statusRow(s)).toContain("● live");
          expect(titleRow(s)).toMatch(/following$/);
        },
        { timeoutMs: OUTAGE_MS + 20_000 },
      );
      // Lines keep coming in: the marker is found by a search, as on-call would find it.
      tmux.type("/no answer");
      tmux.keys("Enter");
      await tmux.waitFor("the marker of the outage, at the cursor", (s) => {
        const row = lines(s).find((l) => MARKER.test(l));
        expect(row, "the marker").toBeDefined();
        expect(row).toMatch(/[║│]>── no answer/);
        const seconds = Number(/\((\d+) s,/.exec(row ?? "")?.[1]);
        expect(seconds).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 - 1);
        expect(seconds).toBeLessThan(OUTAGE_MS / 1000 + 10);
      });
    });
  });
});
