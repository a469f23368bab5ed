import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredRow } from "../../src/logs/model/log-store.js";
import { savedView } from "../../src/tui/saving/saved-view.js";
import { initialUiState } from "../../src/tui/state/ui-state.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * A saved view whose header carries a pattern a backtracking engine takes exponential time over
 * (`^(a+)+$` against 34 a's and a `!`): `tvcwatch open` applies it, shows what it keeps, and q
 * exits 0. A header pattern the matcher refuses is left out and said (status line, `i`).
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const START = Date.UTC(2026, 10, 27, 5, 0, 0);
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-open-hostile-"));

function savedWith(include: string[], name: string): string {
  const contents = ["hello", `${"a".repeat(34)}!`, "aaaa"];
  const rows: StoredRow[] = contents.map((content, i) => ({
    id: i + 1,
    bytes: 0,
    event: {
      kind: "line",
      replicaLabel: "replica 1/1",
      seconds: String(START / 1000 + i),
      nanos: 0,
      sortKey: START + i * 1000,
      content,
      late: false,
    },
  }));
  const path = join(dir, name);
  writeFileSync(
    path,
    savedView(rows, "ndjson", {
      deploymentId: "96951283-6a89-4ac4-a9de-b2b6af1aa297",
      filters: { ...initialUiState, include },
      savedAt: START + 5000,
    }).text,
  );
  return path;
}

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";

describe("open: a saved header's patterns cannot stall the program", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`applies ^(a+)+$ over a near miss and quits on q at ${columns}x${rows}`, {
      timeout: 60_000,
    }, async () => {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["open", savedWith(["^(a+)+$"], `hostile-${columns}.ndjson`)], { columns, rows });
      await tmux.waitFor("the line the pattern keeps, alone", (s) => {
        expect(s).toMatch(/║\[1\] aaaa +║/);
        expect(s).not.toContain("hello");
        expect(s).not.toContain("a!");
      });
      tmux.keys("q");
      await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    });
  }

  it("says a refused header pattern in one line and leaves it out", {
    timeout: 60_000,
  }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["open", savedWith(["(a)\\1"], "refused.ndjson")], { columns: 160, rows: 48 });
    await tmux.waitFor("every line, and why the pattern is not applied", (s) => {
      expect(s).toContain("hello");
      expect(lastLine(s)).toContain("header not read in part");
    });
    tmux.keys("i");
    await tmux.waitFor("i: the pattern and why it was refused", (s) => {
      expect(s).toContain('filters.include "(a)\\\\1": regex refused: a backreference (\\1)');
    });
    tmux.keys("Escape", "q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  });
});
