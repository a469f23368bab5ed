import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeApi } from "./fake-api.js";
import { CALM_DEPLOYMENT_ID, startReadingApi } from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Reading logs as on-call does, in a real terminal at 80x24 and 160x48: levels (L, e, JSON
 * levels nested under `fields`), a stack trace kept whole under filters, the line cursor and its
 * detail, marks, copy and save, several include filters closed one Esc at a time, context, search
 * with its counter, "no match" and "invalid regex" in full, pattern history, timestamps absolute
 * and relative, J to a time, the replicas' sparkline, their lifecycle in the log and in `i`.
 */

const KEYS = {
  TURNKEY_API_PRIVATE_KEY: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
  TURNKEY_API_PUBLIC_KEY: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
};

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
    .filter((l) => l !== "" && !/^(\[\d\][ ▁▂▃▄▅▆▇█]*)+$/.test(l));

describe("reading the log in a real terminal", () => {
  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
  ] as const) {
    it(`at ${columns}x${rows}`, { timeout: 120_000 }, async () => {
      // A server of its own: its replicas' lifecycle plays out while the dashboard watches.
      const api = await startReadingApi();
      const apiStarted = Date.now();
      apis.push(api);
      const tmux = new Tmux();
      sessions.push(tmux);
      const dir = mkdtempSync(join(tmpdir(), "tvcwatch-save-"));
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
        { columns, rows },
        KEYS,
      );
      await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, 30_000);

      // The replicas' sparkline, above the lines.
      await tmux.waitFor("the sparkline", (s) => /[║│]\[1\][ ▁▂▃▄▅▆▇█]+ \[2\]/.test(s));

      // L to warn: only warnings and errors (JSON levels too, nested ones), frames kept.
      await tmux.keys("L", "L", "L");
      const warn = await tmux.waitFor("level ≥ warn", (s) => lastLine(s).includes("≥"));
      const kept = logRows(warn);
      expect(kept.length).toBeGreaterThan(0);
      for (const row of kept) {
        expect(row).toMatch(/ERROR|WARN|"level":"warn"|^\[\d\][ >*] +at /);
      }
      expect(kept.some((r) => r.includes('"fields":{"level":"warn"'))).toBe(true);
      await tmux.keys("X");
      await tmux.waitFor("filters cleared", (s) => !lastLine(s).includes("≥"));

      // e: the latest error under the cursor, its frames under it; Enter: its detail.
      await tmux.keys("e");
      const error = await tmux.waitFor("the cursor on an error", (s) =>
        logRows(s).some((r) => /^\[\d\]>ERROR payment/.test(r)),
      );
      const at = logRows(error).findIndex((r) => /^\[\d\]>ERROR/.test(r));
      expect(logRows(error)[at + 1]).toMatch(/^\[\d\] {2,}at fetchNonce/);
      expect(lastLine(error)).toContain("⏸");
      await tmux.keys("Enter");
      const detail = await tmux.waitFor("the line's detail", (s) => s.includes("Log line"));
      expect(detail).toMatch(/level +error/);
      expect(detail).toMatch(/continued +at fetchNonce/);
      expect(detail).toMatch(/ago +\d/);
      await tmux.keys("Escape");

      // m marks the line; ↑ moves off it and it shows *; u comes back to it.
      await tmux.keys("m", "Up", "Up");
      await tmux.waitFor("the mark", (s) => logRows(s).some((r) => /^\[\d\]\*ERROR/.test(r)));
      await tmux.keys("u");
      await tmux.waitFor("back on the mark", (s) =>
        logRows(s).some((r) => /^\[\d\]>ERROR/.test(r)),
      );

      // c shows the line alone to select (no --clipboard); Esc closes it.
      await tmux.keys("c");
      const copy = await tmux.waitFor("the copy view", (s) => s.includes("select with the mouse"));
      expect(copy).toMatch(/^ERROR payment: upstream timeout after 5000ms seq=\d+ *$/m);
      await tmux.keys("Escape");

      // A JSON line's fields, pretty-printed.
      await tmux.keys("/");
      await tmux.type("settled");
      await tmux.keys("Enter");
      await tmux.waitFor("the cursor on the JSON line", (s) =>
        logRows(s).some((r) => /^\[\d\]>\{"msg":"settled/.test(r)),
      );
      await tmux.keys("Enter");
      const json = await tmux.waitFor("the JSON detail", (s) => s.includes(".fields"));
      expect(json).toMatch(/level +warn/);
      expect(json).toContain('"service": "ledger"');
      await tmux.keys("Escape");

      // Search: a counter, n moves it; no match and an invalid regex are said in full.
      await tmux.keys("/");
      await tmux.type("timeout");
      await tmux.keys("Enter");
      const found = await tmux.waitFor("the counter", (s) =>
        /search \/timeout\/ \d+\/\d+/.test(lastLine(s)),
      );
      const [, index, total] = /search \/timeout\/ (\d+)\/(\d+)/.exec(lastLine(found)) ?? [];
      // The nearest match older than the cursor (on the JSON line), counted oldest first.
      expect(Number(index)).toBeGreaterThan(1);
      expect(Number(index)).toBeLessThanOrEqual(Number(total));
      await tmux.keys("n");
      // New matches may have come meanwhile: the total grows, the place counted from the oldest not.
      await tmux.waitFor("the counter moved", (s) =>
        lastLine(s).includes(`search /timeout/ ${Number(index) - 1}/`),
      );
      await tmux.keys("/");
      await tmux.type("zzzz");
      await tmux.keys("Enter");
      await tmux.waitFor("no match", (s) => lastLine(s).includes("no older match for /zzzz/"));
      await tmux.keys("/");
      await tmux.type("a(");
      await tmux.keys("Enter");
      await tmux.waitFor("the regex error", (s) =>
        lastLine(s).includes("invalid regex: Unterminated group"),
      );
      await tmux.keys("C-u");
      await tmux.keys("Escape", "/", "Up");
      await tmux.waitFor("the last pattern recalled", (s) => lastLine(s).includes("search /zzzz"));
      await tmux.keys("Up");
      await tmux.waitFor("the one before", (s) => lastLine(s).includes("search /timeout"));
      await tmux.keys("Escape", "Escape");
      await tmux.waitFor("the search closed", (s) => !lastLine(s).includes("search"));

      // Several include filters, listed; Esc closes the last; context around matches.
      await tmux.keys("f");
      await tmux.type("seq");
      await tmux.keys("Enter", "f");
      await tmux.type("WARN");
      await tmux.keys("Enter");
      const two = await tmux.waitFor("two filters", (s) => lastLine(s).includes("+/WARN/"));
      expect(lastLine(two)).toContain("+/seq/");
      expect(logRows(two).every((r) => r.includes("WARN"))).toBe(true);
      await tmux.keys("C");
      await tmux.type("1");
      await tmux.keys("Enter");
      const context = await tmux.waitFor("context 1", (s) => lastLine(s).includes("context 1"));
      expect(logRows(context).some((r) => r.includes("INFO"))).toBe(true);
      await tmux.keys("Escape");
      const one = await tmux.waitFor("one filter left", (s) => !lastLine(s).includes("+/WARN/"));
      expect(lastLine(one)).toContain("+/seq/");
      expect(lastLine(one)).toContain("context 1");
      await tmux.keys("Escape", "Escape");
      await tmux.waitFor(
        "no filter, no context",
        (s) => !lastLine(s).includes("+/") && !lastLine(s).includes("context"),
      );

      // T: absolute times, then relative, then off.
      await tmux.keys("G", "T");
      await tmux.waitFor("absolute times", (s) => /\d\d:\d\d:\d\d\.\d{6,9} \[\d\]/.test(s));
      await tmux.keys("T");
      await tmux.waitFor("relative times", (s) => /-\d+s \[\d\]/.test(s));
      await tmux.keys("T");

      // J goes to a time; S saves the view with a header.
      await tmux.keys("J");
      await tmux.type("-10s");
      await tmux.keys("Enter");
      await tmux.waitFor("paused at the time", (s) => logRows(s).some((r) => /^\[\d\]>/.test(r)));
      const file = join(dir, "incident.ndjson");
      await tmux.keys("S");
      await tmux.type(file);
      await tmux.keys("Enter");
      await tmux.waitFor("saved", (s) => lastLine(s).includes("saved"));
      expect(existsSync(file)).toBe(true);
      const saved = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(JSON.parse(saved[0] ?? "").tvcwatch.deploymentId).toBe(CALM_DEPLOYMENT_ID);
      expect(saved.length).toBeGreaterThan(10);

      // The replicas' lifecycle: replica 2 stopped and came back, a third joined.
      await tmux.waitFor("the third replica", (s) => /\[3\] /.test(s), 20_000);
      // Replica 2 is back 9 s after the server started: search a view that holds its return
      // (a paused view holds only what came before the pause).
      await new Promise((r) => setTimeout(r, Math.max(0, apiStarted + 11_000 - Date.now())));
      if (lastLine(tmux.screen()).includes("⏸ paused")) await tmux.keys("Space");
      await tmux.waitFor("following", (s) => !lastLine(s).includes("⏸ paused"));
      await tmux.keys("G", "/");
      await tmux.type("stopped sending|back after|joined|replicas:");
      await tmux.keys("Enter");
      const markers = await tmux.waitFor("the lifecycle markers", (s) =>
        /search \/.*\/ \d+\/[4-9]/.test(lastLine(s)),
      );
      expect(markers).toMatch(
        /── (replica \d\/\d (stopped sending|back after|joined)|replicas: 2 → 3)/,
      );
      await tmux.keys("i");
      const status = await tmux.waitFor("the follow's status", (s) => s.includes("Log follow"));
      expect(status).toMatch(/replica 1\/3: [\d,]+ lines, \d+ errors/);
      await tmux.keys("Escape", "q");
      await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED 0"));
    });
  }

  it("c with --clipboard puts the line on the terminal's clipboard (OSC 52), escapes stripped", async () => {
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
        "--clipboard",
      ],
      { columns: 80, rows: 24 },
      KEYS,
      [["set-clipboard", "on"]],
    );
    await tmux.waitFor("the log", (s) => s.includes("● live") && logRows(s).length > 3, 30_000);
    await tmux.keys("e", "c");
    await tmux.waitFor("copied", (s) => lastLine(s).includes("copied to the clipboard"));
    const buffer = tmux.run("show-buffer");
    expect(buffer).toMatch(/^ERROR payment: upstream timeout after 5000ms seq=\d+$/);
  });
});
