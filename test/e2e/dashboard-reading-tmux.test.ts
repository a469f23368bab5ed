import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeApi } from "./fake-api.js";
import { CALM_DEPLOYMENT_ID, calmDashboard, KEYS, startReadingApi } from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Reading logs as on-call does, in a real terminal at 80x24 and 160x48: levels (L, e, JSON
 * levels nested under `fields`), a stack trace kept whole under filters, the line cursor and its
 * detail, marks, copy and save, several include filters closed one Esc at a time, context, search
 * with its counter, "no match" and "invalid regex" in full, pattern history, timestamps absolute
 * and relative, J to a time, the replicas' sparkline, their lifecycle in the log and in `i`.
 */

const apis: FakeApi[] = [];
const sessions: Tmux[] = [];

beforeAll(() => requireTmux());

afterAll(async () => {
  for (const t of sessions) t.kill();
  for (const api of apis) await api.close();
});

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
/** The log pane's line rows: `[n]` then the mark column (space, `>` cursor, `*` marked). */
const logRows = (s: string) =>
  s
    .split("\n")
    .map((l) => /[║│](\[\d\][ >*].*)$/.exec(l)?.[1]?.replace(/\s*[║│].*$/, "") ?? "")
    // Not the sparkline strip: tags and bars only.
    .filter((l) => l !== "" && !/^(\[\d\][ ▁▂▃▄▅▆▇█!]*)+$/.test(l));

describe("reading the log in a real terminal", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    describe(`at ${columns}x${rows}`, () => {
      let tmux: Tmux;
      let dir: string;
      beforeAll(async () => {
        // A server of its own: its replicas' lifecycle plays out while the dashboard watches.
        const api = await startReadingApi();
        apis.push(api);
        tmux = new Tmux();
        sessions.push(tmux);
        dir = mkdtempSync(join(tmpdir(), "tvcwatch-save-"));
        tmux.start(calmDashboard(api, "--interval", "1s"), { columns, rows }, KEYS);
        await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, {
          timeoutMs: 30_000,
        });
      }, 60_000);

      it("the replicas' sparkline, above the lines", { timeout: 60_000 }, async () => {
        // The replicas' sparkline, above the lines.
        await tmux.waitFor("the sparkline", (s) => /[║│]\[1\][ ▁▂▃▄▅▆▇█!]+ \[2\]/.test(s));
      });

      it("L to warn: warnings and errors only (JSON levels too, nested ones), frames kept", {
        timeout: 60_000,
      }, async () => {
        // L to warn: only warnings and errors (JSON levels too, nested ones), frames kept.
        tmux.keys("L", "L", "L");
        await tmux.waitFor("level ≥ warn: warnings and errors only, frames kept", (s) => {
          expect(lastLine(s)).toContain("≥ warn");
          const kept = logRows(s);
          expect(kept.length).toBeGreaterThan(0);
          for (const row of kept)
            expect(row).toMatch(/ERROR|WARN|"level":"warn"|^\[\d\][ >*] +at /);
          expect(kept.some((r) => r.includes('"fields":{"level":"warn"'))).toBe(true);
        });
        tmux.keys("X");
        await tmux.waitFor("filters cleared", (s) => !lastLine(s).includes("≥"));
      });

      it("e puts the cursor on the latest error, its frames under it; Enter opens its detail", {
        timeout: 60_000,
      }, async () => {
        // e: the latest error under the cursor, its frames under it; Enter: its detail.
        tmux.keys("e");
        await tmux.waitFor("the cursor on an error, its frames under it", (s) => {
          const rows = logRows(s);
          const at = rows.findIndex((r) => /^\[\d\]>ERROR payment/.test(r));
          expect(at).toBeGreaterThanOrEqual(0);
          expect(rows[at + 1]).toMatch(/^\[\d\] {2,}at fetchNonce/);
          expect(lastLine(s)).toContain("⏸");
        });
        tmux.keys("Enter");
        await tmux.waitFor("the line's detail", (s) => {
          expect(s).toContain("Log line");
          expect(s).toMatch(/level +error/);
          expect(s).toMatch(/continued +at fetchNonce/);
          expect(s).toMatch(/ago +\d/);
        });
        tmux.keys("Escape");
        await tmux.waitFor("the detail closed", (s) => !s.includes("Log line"));
      });

      it("m marks the line; it shows * off the cursor; u comes back to it", {
        timeout: 60_000,
      }, async () => {
        // m marks the line; ↑ moves off it and it shows *; u comes back to it.
        tmux.keys("m", "Up", "Up");
        await tmux.waitFor("the mark", (s) => logRows(s).some((r) => /^\[\d\]\*ERROR/.test(r)));
        tmux.keys("u");
        await tmux.waitFor("back on the mark", (s) =>
          logRows(s).some((r) => /^\[\d\]>ERROR/.test(r)),
        );
      });

      it("c shows the line alone to select; Esc closes it", { timeout: 60_000 }, async () => {
        // c shows the line alone to select (no --clipboard); Esc closes it.
        tmux.keys("c");
        await tmux.waitFor("the copy view", (s) => {
          expect(s).toContain("select with the mouse");
          // As tail --timestamps prints it: the time, the replica, the content.
          expect(s).toMatch(/^\S+ \[replica \d\/\d\] ERROR payment: upstream/m);
          expect(s).toMatch(/^\S+ \[replica \d\/\d\] {5}at fetchNonce/m);
        });
        tmux.keys("Escape");
        await tmux.waitFor("the copy view closed", (s) => !s.includes("select with the mouse"));
      });

      it("a JSON line's fields, pretty-printed in its detail", { timeout: 60_000 }, async () => {
        // A JSON line's fields, pretty-printed.
        tmux.keys("/");
        tmux.type("settled");
        tmux.keys("Enter");
        await tmux.waitFor("the cursor on the JSON line", (s) =>
          logRows(s).some((r) => /^\[\d\]>\{"msg":"settled/.test(r)),
        );
        tmux.keys("Enter");
        await tmux.waitFor("the JSON detail", (s) => {
          expect(s).toContain(".fields");
          expect(s).toMatch(/level +warn/);
          expect(s).toContain('"service": "ledger"');
        });
        tmux.keys("Escape");
        await tmux.waitFor("the detail closed", (s) => !s.includes(".fields"));
      });

      it("search: a counter N moves, no match and an invalid regex said in full, pattern history", {
        timeout: 60_000,
      }, async () => {
        // Search: a counter, N moves it; no match and an invalid regex are said in full.
        tmux.keys("/");
        tmux.type("timeout");
        tmux.keys("Enter");
        const counter = (s: string) => /search \/timeout\/ (\d+)\/(\d+)/.exec(lastLine(s));
        const found = await tmux.waitFor("the counter", (s) => {
          const m = counter(s);
          expect(m).not.toBeNull();
          // The nearest match newer than the cursor (on the JSON line), or past the newest the
          // oldest, counted oldest first.
          expect(Number(m?.[1])).toBeGreaterThanOrEqual(1);
          expect(Number(m?.[1])).toBeLessThanOrEqual(Number(m?.[2]));
        });
        const index = Number(counter(found)?.[1]);
        tmux.keys("N");
        // New matches may have come meanwhile: the total grows, the place counted from the oldest
        // not; from the oldest, N wraps to the newest.
        await tmux.waitFor("the counter moved", (s) =>
          index > 1
            ? lastLine(s).includes(`search /timeout/ ${index - 1}/`)
            : lastLine(s).includes("search wrapped to t"),
        );
        tmux.keys("/");
        tmux.type("zzzz");
        tmux.keys("Enter");
        await tmux.waitFor("no match", (s) =>
          lastLine(s).includes("no match for /zzzz/ in the buffer"),
        );
        tmux.keys("/");
        tmux.type("a(");
        tmux.keys("Enter");
        await tmux.waitFor("the regex error", (s) =>
          lastLine(s).includes("invalid regex: missing closing )"),
        );
        // Each Esc is waited for: Esc and the next key sent together read as one Alt-key.
        tmux.keys("Escape");
        await tmux.waitFor("the prompt closed", (s) => lastLine(s).startsWith("● "));
        tmux.keys("/", "Up");
        await tmux.waitFor("the last pattern recalled", (s) =>
          lastLine(s).includes("search /zzzz"),
        );
        tmux.keys("Up");
        await tmux.waitFor("the one before", (s) => lastLine(s).includes("search /timeout"));
        tmux.keys("Escape");
        await tmux.waitFor("the prompt closed", (s) => lastLine(s).startsWith("● "));
        tmux.keys("Escape");
        await tmux.waitFor("the search closed", (s) => !lastLine(s).includes("search"));
      });

      it("several include filters listed, Esc closes the last; context around matches", {
        timeout: 60_000,
      }, async () => {
        // Several include filters, listed; Esc closes the last; context around matches.
        tmux.keys("f");
        tmux.type("seq");
        tmux.keys("Enter", "f");
        tmux.type("WARN");
        tmux.keys("Enter");
        await tmux.waitFor("two filters: WARN lines only", (s) => {
          expect(lastLine(s)).toContain("+/seq/");
          expect(lastLine(s)).toContain("+/WARN/");
          expect(logRows(s).length).toBeGreaterThan(0);
          expect(logRows(s).every((r) => r.includes("WARN"))).toBe(true);
        });
        tmux.keys("C");
        tmux.type("1");
        tmux.keys("Enter");
        await tmux.waitFor("context 1: lines around the matches", (s) => {
          expect(lastLine(s)).toContain("context 1");
          expect(logRows(s).some((r) => r.includes("INFO"))).toBe(true);
        });
        tmux.keys("Escape");
        await tmux.waitFor("one filter left", (s) => {
          expect(lastLine(s)).not.toContain("+/WARN/");
          expect(lastLine(s)).toContain("+/seq/");
          expect(lastLine(s)).toContain("context 1");
        });
        tmux.keys("Escape");
        await tmux.waitFor("no filter left", (s) => !lastLine(s).includes("+/"));
        tmux.keys("Escape");
        await tmux.waitFor(
          "no filter, no context",
          (s) => !lastLine(s).includes("+/") && !lastLine(s).includes("context"),
        );
      });

      it("T: absolute times, then relative, then off", { timeout: 60_000 }, async () => {
        // T: absolute times, then relative, then off.
        tmux.keys("G", "T");
        await tmux.waitFor("absolute times", (s) => /\d\d:\d\d:\d\d\.\d{6,9} \[\d\]/.test(s));
        tmux.keys("T");
        await tmux.waitFor("relative times", (s) => /-\d+s \[\d\]/.test(s));
        tmux.keys("T");
        await tmux.waitFor("no times", (s) => !s.includes(" times)"));
      });

      it("J goes to a time; S saves the view with a header", { timeout: 60_000 }, async () => {
        // J goes to a time; S saves the view with a header.
        tmux.keys("J");
        tmux.type("-10s");
        tmux.keys("Enter");
        // The cursor lands on the row nearest the time: a line ("[2]>") or a marker (">──").
        await tmux.waitFor("paused at the time", (s) =>
          s.split("\n").some((l) => /^[║│](\[\d\]>|>──)/.test(l)),
        );
        const file = join(dir, "incident.ndjson");
        // S, Enter: the view; then the name, and the notice counts the lines written.
        tmux.keys("S");
        await tmux.waitFor("which lines", (s) => lastLine(s).includes("save which lines?"));
        tmux.keys("Enter");
        await tmux.waitFor("the file prompt", (s) => /save [\d,]+ lines/.test(lastLine(s)));
        tmux.type(file);
        tmux.keys("Enter");
        await tmux.waitFor("saved", (s) => lastLine(s).includes("saved"));
        expect(existsSync(file)).toBe(true);
        const saved = readFileSync(file, "utf8").trimEnd().split("\n");
        expect(JSON.parse(saved[0] ?? "").tvcwatch.deploymentId).toBe(CALM_DEPLOYMENT_ID);
        expect(saved.length).toBeGreaterThan(10);
        const said = /saved ([\d,]+) lines/.exec(lastLine(tmux.screen()))?.[1] ?? "";
        expect(Number(said.replaceAll(",", ""))).toBe(JSON.parse(saved[0] ?? "").tvcwatch.lines);
      });

      it("the replicas' lifecycle in the log and in i", { timeout: 60_000 }, async () => {
        // The replicas' lifecycle: replica 2 stopped and came back (9 s after the server
        // started), a third joined. The newest line, searched again until the search counts
        // the return among the markers.
        await tmux.waitFor("the third replica", (s) => /\[3\] /.test(s), { timeoutMs: 20_000 });
        const markers = /search \/.*\/ \d+\/(\d+)/;
        let searched = "";
        for (let i = 0; i < 30 && Number(markers.exec(lastLine(searched))?.[1] ?? 0) < 4; i++) {
          // G follows: the search's counter goes until the search is made again.
          tmux.keys("G");
          await tmux.waitFor(
            "following",
            (s) => !markers.test(lastLine(s)) && !lastLine(s).includes("⏸"),
          );
          tmux.keys("/");
          if (i === 0) tmux.type("stopped sending|back after|joined|replicas:");
          else tmux.keys("Up");
          tmux.keys("Enter");
          searched = await tmux.waitFor("the search's counter", (s) => markers.test(lastLine(s)));
        }
        expect(lastLine(searched)).toMatch(/search \/.*\/ \d+\/[4-9]/);
        expect(searched).toMatch(
          /── (replica \d\/\d (stopped sending|back after|joined)|replicas: 2 → 3)/,
        );
        tmux.keys("i");
        await tmux.waitFor("the follow's status", (s) => {
          expect(s).toContain("Log follow");
          expect(s).toMatch(/replica 1\/3: [\d,]+ lines, \d+ errors/);
        });
        tmux.keys("Escape");
        await tmux.waitFor("the status closed", (s) => !s.includes("Log follow"));
      });

      it("q exits 0", async () => {
        tmux.keys("q");
        await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED 0"));
      });
    });
  }

  it("c with --clipboard puts the line on the terminal's clipboard (OSC 52), escapes stripped", async () => {
    const api = await startReadingApi();
    apis.push(api);
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(
      calmDashboard(api, "--interval", "1s", "--clipboard"),
      { columns: 80, rows: 24 },
      KEYS,
      [["set-clipboard", "on"]],
    );
    await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, {
      timeoutMs: 30_000,
    });
    tmux.keys("e", "c");
    await tmux.waitFor("copied", (s) => lastLine(s).includes("copied to the clipboard"));
    // As tail --timestamps prints it, with its stack frames.
    const buffer = tmux.run("show-buffer").split("\n");
    expect(buffer[0]).toMatch(
      /^\S+ \[replica \d\/\d\] ERROR payment: upstream timeout after 5000ms seq=\d+$/,
    );
    expect(buffer[1]).toMatch(/^\S+ \[replica \d\/\d\] {5}at fetchNonce /);
  });

  it("= filters by field (nested JSON, key=value, level); f finds a trace by its frame", {
    timeout: 60_000,
  }, async () => {
    const api = await startReadingApi();
    apis.push(api);
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(
      [
        "--base-url",
        api.url,
        "--organization",
        "org-1",
        "--deployment",
        CALM_DEPLOYMENT_ID,
        "--interval",
        "1s",
      ],
      { columns: 160, rows: 48 },
      KEYS,
    );
    await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, {
      timeoutMs: 30_000,
    });
    tmux.keys("=");
    tmux.type("fields.service = ledger");
    tmux.keys("Enter");
    await tmux.waitFor("only the JSON lines whose nested service is ledger", (s) => {
      expect(lastLine(s)).toContain("=[fields.service = ledger]");
      const rows = logRows(s);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toContain('"service":"ledger"');
    });
    tmux.keys("Escape");
    await tmux.waitFor("Esc removes it", (s) => !lastLine(s).includes("=["));
    // key=value (seq=N) and the level: errors with their frames, the event kept whole.
    tmux.keys("=");
    tmux.type("level >= error and seq >= 0");
    tmux.keys("Enter");
    await tmux.waitFor("errors and their frames", (s) => {
      expect(lastLine(s)).toContain("=[level >= error and seq >= 0]");
      const rows = logRows(s);
      expect(rows.some((r) => r.includes("at fetchNonce"))).toBe(true);
      for (const row of rows) expect(row).toMatch(/ERROR payment|^\[\d\][ >*] +at /);
    });
    tmux.keys("X");
    await tmux.waitFor("cleared", (s) => !lastLine(s).includes("=["));
    tmux.keys("f");
    tmux.type("evaluatePolicy");
    tmux.keys("Enter");
    await tmux.waitFor("a frame's pattern keeps its whole trace", (s) => {
      const rows = logRows(s);
      expect(rows.some((r) => r.includes("ERROR payment"))).toBe(true);
      expect(rows.some((r) => r.includes("at handleRequest"))).toBe(true);
      for (const row of rows) expect(row).toMatch(/ERROR payment|^\[\d\][ >*] +at /);
    });
  });

  it("| shows chosen fields as columns in place of each line, Enter the line whole, | again the lines", {
    timeout: 60_000,
  }, async () => {
    const api = await startReadingApi();
    apis.push(api);
    const tmux = new Tmux();
    sessions.push(tmux);
    tmux.start(
      [
        "--base-url",
        api.url,
        "--organization",
        "org-1",
        "--deployment",
        CALM_DEPLOYMENT_ID,
        "--interval",
        "1s",
      ],
      { columns: 160, rows: 48 },
      KEYS,
    );
    await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, {
      timeoutMs: 30_000,
    });
    tmux.keys("|");
    tmux.type("level,fields.service,seq,msg");
    tmux.keys("Enter");
    await tmux.waitFor("columns: a nested JSON path, a key=value key, the level and msg", (s) => {
      expect(lastLine(s)).toContain("columns level,fields.service,seq,msg");
      const rows = logRows(s);
      const ledger = rows.find((r) => r.includes("ledger"));
      expect(ledger).toMatch(/warn +ledger +\d+ +settled transfer/);
      // A text line: no service (an empty cell), its seq pair, its whole text as msg.
      expect(rows.some((r) => /info +\d+ +INFO {2}http: request ok seq=\d+/.test(r))).toBe(true);
      expect(rows.some((r) => r.includes("at fetchNonce"))).toBe(true);
      for (const row of rows) expect(row).not.toContain('{"msg"');
    });
    // Only the ledger's lines, the cursor on one: Enter shows it whole.
    tmux.keys("=");
    tmux.type("fields.service = ledger");
    tmux.keys("Enter");
    await tmux.waitFor("the ledger's lines as columns", (s) => {
      const rows = logRows(s);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatch(/warn +ledger +\d+ +settled transfer/);
    });
    // A replica's lifecycle marker (a replica joining) shows whatever the filters, and may come
    // in above the cursor meanwhile: its detail is closed and the cursor goes on up.
    const ledgerWhole = (s: string) => s.includes('"fields":{"level":"warn","service":"ledger"}');
    let detail = "";
    for (let i = 0; i < 5 && !ledgerWhole(detail); i++) {
      if (detail !== "") {
        tmux.keys("Escape");
        await tmux.waitFor("the marker's detail closed", (s) => !s.includes("Esc closes"));
      }
      tmux.keys("Up", "Enter");
      detail = await tmux.waitFor("a line's detail", (s) => s.includes("Esc closes"));
    }
    await tmux.waitFor("the line whole in its detail", ledgerWhole);
    tmux.keys("Escape");
    await tmux.waitFor("the detail closed", (s) => !s.includes('"fields":{"level":"warn"'));
    tmux.keys("|");
    await tmux.waitFor("| again: the lines as they are", (s) => {
      expect(lastLine(s)).not.toContain("columns ");
      const rows = logRows(s);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toContain('{"msg":"settled transfer"');
    });
  });
});
