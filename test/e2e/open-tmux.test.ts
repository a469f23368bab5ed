import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packNanos, timestampSortKey } from "../../src/logs/model/log-line.js";
import type { StoredRow } from "../../src/logs/model/log-store.js";
import { Random } from "../../src/sim/random.js";
import { DebugLogs } from "../../src/sim/traffic/debug-logs.js";
import { savedView } from "../../src/tui/saving/saved-view.js";
import { initialUiState } from "../../src/tui/state/ui-state.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * `tvcwatch open` in a real terminal at 80x24 and 160x48, on a saved demo incident (the
 * simulator's incident: a replica restarts, then the deployment scales from 3 to 4 replicas),
 * written as the dashboard's S writes it: the title names the file, its lines and time range;
 * the sparkline and the replicas' lifecycle are there; search counts over the whole file; `i`
 * says the file; q exits 0. Then the same lines piped into `open -`, keys from the terminal.
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const START = Date.UTC(2026, 10, 27, 5, 0, 0);
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-open-tmux-"));

/** Two minutes of the simulator's incident, saved as S saves the view (NDJSON, its header). */
function savedIncident(): { path: string; lines: number } {
  const logs = new DebugLogs(new Random(33), {
    replicas: 3,
    logRate: 8,
    retentionMs: 86_400_000,
    ingestLagMs: 0,
    startMs: START,
    incident: true,
  });
  let key = START;
  const rows: StoredRow[] = logs.query(START + 120_000, 0, 0).map((e, id) => {
    const ts = e.line.ts;
    if (ts) key = timestampSortKey(Number(ts.seconds), Number(ts.nanos));
    return {
      id: id + 1,
      bytes: 0,
      event: {
        kind: "line",
        replicaLabel: e.replicaLabel,
        seconds: ts?.seconds,
        nanos: ts ? packNanos(ts.nanos) : undefined,
        sortKey: key,
        content: e.line.content,
        late: false,
      },
    };
  });
  const path = join(dir, "incident.ndjson");
  writeFileSync(
    path,
    savedView(rows, "ndjson", {
      deploymentId: "96951283-6a89-4ac4-a9de-b2b6af1aa297",
      filters: initialUiState,
      savedAt: START + 125_000,
    }).text,
  );
  return { path, lines: rows.length };
}

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
const title = (s: string) => s.split("\n")[0] ?? "";

describe("tvcwatch open in a real terminal", () => {
  const incident = savedIncident();
  const count = incident.lines.toLocaleString("en-US");

  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`on a saved incident at ${columns}x${rows}`, { timeout: 60_000 }, async () => {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["open", incident.path], { columns, rows });
      await tmux.waitFor("the newest lines, the title naming the file", (s) => {
        expect(title(s)).toContain(
          columns >= 160
            ? `tvcwatch · ${count} lines · 2026-11-27 05:00:00Z to 05:01:59Z · ${incident.path}`
            : `tvcwatch · ${count} lines · 2026-11-27 05:00:00Z to 05:01:59Z`,
        );
        expect(lastLine(s)).toContain("○ saved lines");
        expect(s).toMatch(/[║│]\[1\][ ▁▂▃▄▅▆▇█]+ \[2\]/);
      });

      // The replica that restarted, where it stopped and came back; the scale-up.
      tmux.keys("/");
      tmux.type("replica 2/3 (stopped|back)");
      tmux.keys("Enter");
      await tmux.waitFor("the lifecycle found by search, with its counter", (s) => {
        expect(lastLine(s)).toMatch(/search \/replica 2\/3 \(stopped\|back\)\/ 2\/2/);
        expect(s).toMatch(/── replica 2\/3 back after \d+\.\ds silent \(restarted\?\) ──/);
      });
      tmux.keys("N");
      await tmux.waitFor("the older one", (s) => {
        expect(lastLine(s)).toContain(" 1/2");
        expect(s).toMatch(/── replica 2\/3 stopped sending \(last line 05:00:4\d+Z\) ──/);
      });

      tmux.keys("Escape", "i");
      await tmux.waitFor("i: the file, its format and lines, the saved view", (s) => {
        expect(s).toContain("saved lines: nothing is followed");
        expect(s).toMatch(/files +\S*incident\.ndjson: ndjson/);
        expect(s).toMatch(/saved view +deployment 96951283/);
      });
      tmux.keys("Escape", "q");
      await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    });
  }

  it("a forged bundle's header: its disagreement with the lines said, its votes not verified", {
    timeout: 60_000,
  }, async () => {
    const forged = join(dir, "forged.ndjson");
    const body = readFileSync(incident.path, "utf8").split("\n").slice(1).join("\n");
    const header = {
      tvcwatch: {
        deploymentId: "96951283-6a89-4ac4-a9de-b2b6af1aa297",
        lines: 3,
        bundle: true,
        replicas: [{ replicaLabel: "replica 1/3", lines: 700 }],
        outages: [],
        votes: [
          {
            activityId: "act-export",
            type: "ACTIVITY_TYPE_EXPORT_WALLET",
            fingerprint: "sha256:abc",
            decision: "approve",
            time: "2026-11-27T05:01:00Z",
          },
        ],
      },
    };
    writeFileSync(forged, `${JSON.stringify(header)}\n${body}`);
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["open", forged], { columns: 160, rows: 48 });
    await tmux.waitFor("the disagreement said in the status line", (s) => {
      expect(lastLine(s)).toContain("the header disagrees with the lines");
    });
    tmux.keys("i");
    await tmux.waitFor("i: the claims checked, the votes labelled", (s) => {
      expect(s).toMatch(new RegExp(`it says 3 lines; the file has ${count}`));
      expect(s).toMatch(/it lists replica 1\/3 with 700 lines; the file has/);
      expect(s).toMatch(/votes +recorded in the file, not verified; none is voted/);
    });
    tmux.keys("Escape", "q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  });

  it("= sets a field query over the file; S records it; open restores it", {
    timeout: 60_000,
  }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["open", incident.path], { columns: 160, rows: 48 });
    await tmux.waitFor("the newest lines", (s) => expect(lastLine(s)).toContain("○ saved lines"));
    const latencies = (s: string) => [...s.matchAll(/"latencyMs":(\d+)/g)].map((m) => Number(m[1]));
    tmux.keys("=");
    tmux.type("latencyMs >");
    tmux.keys("Enter");
    await tmux.waitFor("a malformed query: the prompt stays, naming the token", (s) => {
      expect(lastLine(s)).toContain("expected a value, found the end of the query at column 12");
    });
    tmux.type(" 350");
    tmux.keys("Enter");
    await tmux.waitFor("only lines whose latencyMs is over 350, the query listed", (s) => {
      expect(lastLine(s)).toContain("=[latencyMs > 350]");
      const shown = latencies(s);
      expect(shown.length).toBeGreaterThan(0);
      for (const ms of shown) expect(ms).toBeGreaterThan(350);
      expect(s).not.toMatch(/\[\d\] (INFO|WARN|ERROR) /);
    });
    const file = join(dir, "where.ndjson");
    tmux.keys("S");
    await tmux.waitFor("which lines", (s) => lastLine(s).includes("save which lines?"));
    tmux.keys("Enter");
    await tmux.waitFor("the file prompt", (s) => /save [\d,]+ lines/.test(lastLine(s)));
    tmux.type(file);
    tmux.keys("Enter");
    await tmux.waitFor("saved", (s) => expect(lastLine(s)).toContain("saved"));
    const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0] as string);
    expect(header.tvcwatch.filters.where).toEqual(["latencyMs > 350"]);
    tmux.keys("Escape");
    await tmux.waitFor("Esc removes the query", (s) => {
      expect(lastLine(s)).not.toContain("=[");
      expect(latencies(s).some((ms) => ms <= 350)).toBe(true);
    });
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));

    const reopened = new Tmux();
    sessions.push(reopened);
    reopened.start(["open", file], { columns: 80, rows: 24 });
    await reopened.waitFor("the query restored from the header", (s) => {
      expect(lastLine(s)).toMatch(/=\[latencyMs >/);
    });
    reopened.keys("q");
    await reopened.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  });

  it("open --where opens with field queries set; a malformed one exits 2 in one line", {
    timeout: 60_000,
  }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(
      ["open", incident.path, "--where", "level >= error", "--where", "service = signer"],
      {
        columns: 160,
        rows: 48,
      },
    );
    await tmux.waitFor("errors of the signer service only, both queries listed", (s) => {
      expect(lastLine(s)).toContain("=[level >= error]");
      expect(lastLine(s)).toContain("=[service = signer]");
      // Log rows, not the sparkline strip (tags and bars only).
      const rows = s
        .split("\n")
        .filter((l) => /^[║│]\[\d\] /.test(l) && !/^[║│](\[\d\][ ▁▂▃▄▅▆▇█!]*)+[║│]?$/.test(l));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows)
        expect(row).toMatch(/"level":"error".*"service":"signer"|^[║│]\[\d\] +at /);
    });
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    const bad = new Tmux();
    sessions.push(bad);
    bad.start(["open", incident.path, "--where", "level >= loud"], { columns: 160, rows: 48 });
    await bad.waitFor("one line naming the token, exit 2", (s) => {
      // The one line, wrapped by the terminal.
      expect(s.replaceAll("\n", "")).toMatch(
        /--where.*expected a level \(trace, debug, info, warn, error, fatal\), found "loud" at column 10/,
      );
      expect(s).toContain("TVCWATCH-EXITED 2");
    });
  });

  /**
   * `lines` of `tail --timestamps --utc` text, each its own second, written a part at a time,
   * opened: the title counts every line (indexing done), the newest shown; q exits 0.
   */
  async function opensWhole(name: string, lines: number, overMiB: number, timeoutMs: number) {
    const path = join(dir, name);
    writeFileSync(path, "");
    for (let from = 0; from < lines; from += 100_000) {
      const parts: string[] = [];
      for (let i = from; i < Math.min(lines, from + 100_000); i++) {
        const at = new Date(START + i * 1000).toISOString().replace(".000Z", ".000000000Z");
        parts.push(
          `${at} [replica ${(i % 3) + 1}/3] GET /v1/orders/${i} 200 in ${i % 97}ms upstream ok\n`,
        );
      }
      appendFileSync(path, parts.join(""));
    }
    expect(statSync(path).size).toBeGreaterThan(overMiB * 1024 * 1024);
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(["open", path], { columns: 160, rows: 48 });
    const counted = lines.toLocaleString("en-US");
    await tmux.waitFor(
      "its newest line, then every line counted",
      (s) => {
        expect(title(s)).toMatch(
          new RegExp(`^tvcwatch · ${counted} lines · .*${name.replaceAll(".", "\\.")}$`),
        );
        expect(title(s)).not.toContain("indexing");
        expect(s).toContain(`GET /v1/orders/${lines - 1} 200`);
      },
      { timeoutMs },
    );
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  }

  it("a file over 32 MiB (its rest indexed behind its end): the title counts every line, the newest shown; q exits 0", {
    timeout: 120_000,
  }, async () => {
    await opensWhole("large.log", 400_000, 33, 60_000);
  });

  it("a file over 128 MiB (its rest read on a worker too): the title counts every line, the newest shown; q exits 0", {
    timeout: 180_000,
  }, async () => {
    await opensWhole("larger.log", 1_600_000, 129, 120_000);
  });

  it("the same file named twice is read once, the title says so", { timeout: 60_000 }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    const again = join(dir, ".", "incident.ndjson");
    tmux.start(["open", incident.path, again], { columns: 160, rows: 48 });
    await tmux.waitFor("the lines once, the title naming it twice", (s) => {
      expect(title(s)).toContain(`tvcwatch · ${count} lines · `);
      expect(title(s)).toContain("incident.ndjson (named twice, read once)");
    });
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  });

  it("reads lines piped into open -, keys from the terminal", { timeout: 60_000 }, async () => {
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.startPiped(incident.path, ["open", "-"], { columns: 160, rows: 48 });
    await tmux.waitFor("the piped lines, followed", (s) => {
      expect(title(s)).toMatch(
        new RegExp(`tvcwatch · ${count} lines · .* · followed · standard input`),
      );
    });
    tmux.keys("L", "L", "L", "L");
    await tmux.waitFor("level ≥ error: errors only", (s) => {
      expect(lastLine(s)).toContain("≥ error");
    });
    tmux.keys("q");
    await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
  });
});
