/**
 * The dashboard over a saved file (`tvcwatch open`) without a terminal: the file read by the
 * saved-log reader, the controller's snapshot read back. The title names the file, its lines and
 * time range; a saved view's filters are restored and said; search counts its matches over the
 * whole file; `i` says the file, the lines not read and the votes a bundle lists; a replica's
 * lifecycle is in the log; a line that is not JSON is shown as text.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "date-fns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openRange } from "../../../src/cli/commands/open/open-range.js";
import { type OpenedLogs, openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import { parseTimeBound } from "../../../src/text/time-bound.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import {
  type OpeningFlags,
  progressTicker,
  readBundleIncident,
  type SavedDashboard,
  savedDashboard,
} from "../../../src/tui/controller/saved-dashboard.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { waitFor } from "../../helpers/wait-for.js";
import { stoppedClock } from "../render-dashboard.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-saved-dashboard-"));
const running: { o: OpenedLogs; d: SavedDashboard }[] = [];
afterEach(() => {
  for (const { o, d } of running.splice(0)) {
    d.stop();
    o.close();
  }
});

const START = Date.UTC(2026, 10, 27, 5, 0, 0);
const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");
const status = (s: DashboardSnapshot) => text(s.status);
const shown = (s: DashboardSnapshot) => {
  if (s.body.kind !== "panes") throw new Error(`no panes: ${s.body.kind}`);
  return s.body.log.view.rows.map((r) => text(r.segments));
};
const detail = (s: DashboardSnapshot) => {
  if (s.body.kind !== "detail" || !s.body.view) throw new Error(`no detail: ${s.body.kind}`);
  return s.body.view.fields.map((f) => `${f.label} ${f.lines.join(" | ")}`).join("\n");
};

function jsonLine(ms: number, replica: number, content: string): string {
  return JSON.stringify({
    replicaLabel: `replica ${replica}/3`,
    ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
    content,
  });
}

/** A saved view: its header (filters, votes), 3 replicas, replica 2 silent for a while. */
function incident(header: Record<string, unknown> | undefined): string {
  const out: string[] = header ? [JSON.stringify({ tvcwatch: header })] : [];
  for (let i = 0; i < 200; i++) {
    for (const r of [1, 2, 3]) {
      if (r === 2 && i > 60 && i < 140) continue;
      const error = r === 3 && i % 20 === 0;
      out.push(
        jsonLine(
          START + i * 500 + r,
          r,
          error ? `ERROR upstream timeout at ${i}` : `INFO request ${i} served`,
        ),
      );
    }
    if (i === 5) out.push("{not json at all");
  }
  return `${out.join("\n")}\n`;
}

async function open(
  content: string,
  name = "incident.ndjson",
  given?: OpeningFlags | ((o: OpenedLogs) => OpeningFlags),
) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const o = await openSavedLogs([path]);
  await o.indexed;
  const quit = vi.fn();
  const d = savedDashboard(
    o,
    { clock: stoppedClock(START + 200_000), quit },
    { columns: 160, rows: 48 },
    typeof given === "function" ? given(o) : given,
    await readBundleIncident(o.log.header()),
  );
  running.push({ o, d });
  return { c: d.controller, quit, path };
}

/** The snapshot once the log's filters have judged what the pane shows (they work in slices). */
async function settled(c: SavedDashboard["controller"]): Promise<DashboardSnapshot> {
  const pending = () => {
    const s = c.getSnapshot();
    return s.body.kind === "panes" && s.body.log.view.pending;
  };
  await waitFor(() => !pending(), "the log's filters judged what the pane shows");
  return c.getSnapshot();
}

function press(c: SavedDashboard["controller"], keys: string): void {
  for (const k of keys) {
    if (k === "\r") c.press("", { return: true });
    else if (k === "\u001b") c.press("", { escape: true });
    else c.press(k, {});
  }
}

describe("the dashboard over a saved file", () => {
  it("opens with --fields: the lines as columns, said in the status line, Esc shows them whole", async () => {
    const { c } = await open(incident(undefined), "columns.ndjson", {
      columns: ["replica", "msg"],
    });
    let s = await settled(c);
    expect(status(s)).toContain("columns replica,msg");
    expect(shown(s).at(-1)).toMatch(/^\[3\] replica 3\/3 {2}INFO request 199 served$/);
    press(c, "\u001b");
    s = await settled(c);
    expect(status(s)).not.toContain("columns");
    expect(shown(s).at(-1)).toBe("[3] INFO request 199 served");
  });

  it("restores the columns S recorded in the header", async () => {
    const { c } = await open(
      incident({
        deploymentId: "dep-1",
        savedAt: "2026-11-27T05:02:00Z",
        filters: { include: [], columns: ["level", "msg"] },
        lines: 522,
      }),
      "recorded-columns.ndjson",
    );
    const s = await settled(c);
    expect(c.state.columns).toEqual(["level", "msg"]);
    expect(status(s)).toContain("columns level,msg");
    expect(shown(s).at(-1)).toBe("[3] info  INFO request 199 served");
  });

  it("opens on --since / --until: a duration back from the newest line, a clock time on its day; said in the status line, X shows every line again", async () => {
    const { c } = await open(incident(undefined), "range.ndjson", (o) => ({
      timeRange: openRange({ since: parseTimeBound("10s") }, o.log.summary().to, Date.now()),
    }));
    let s = await settled(c);
    expect(status(s)).toContain("since 10s");
    press(c, "g");
    s = await settled(c);
    // The newest line is request 199 of replica 3; ten seconds before it, request 179 of replica 3.
    press(c, "g");
    s = await settled(c);
    expect(shown(s)[0]).toContain("INFO request 179 served");
    expect(shown(s).some((r) => r.includes("request 178 "))).toBe(false);
    press(c, "X");
    press(c, "g");
    s = await settled(c);
    expect(status(s)).not.toContain("since 10s");
    expect(shown(s)[0]).toContain("INFO request 0 served");

    const clock = (t: string) => format(new Date(t), "HH:mm:ss");
    const between = await open(incident(undefined), "between.ndjson", (o) => ({
      timeRange: openRange(
        {
          since: parseTimeBound(clock("2026-11-27T05:00:10Z")),
          until: parseTimeBound("2026-11-27T05:00:12Z"),
        },
        o.log.summary().to,
        Date.now(),
      ),
    }));
    press(between.c, "g");
    s = await settled(between.c);
    const rows = shown(s).filter((r) => r.includes("request"));
    expect(rows[0]).toContain("request 20 ");
    expect(rows.at(-1)).toContain("request 23 ");
    expect(rows).toHaveLength(11);
  });

  it("S records --since / --until as the flags gave them in the saved header, text and NDJSON", async () => {
    const { c } = await open(incident(undefined), "range-saved.ndjson", (o) => ({
      timeRange: openRange(
        { since: parseTimeBound("10s"), until: parseTimeBound("2026-11-27T05:01:38Z") },
        o.log.summary().to,
        Date.now(),
      ),
    }));
    await settled(c);
    const headerOf = async (name: string) => {
      const path = join(dir, name);
      press(c, "S\r");
      // The prompt and the notice say the range the lines were read in.
      expect(status(c.getSnapshot())).toContain(
        "(the view, since 10s until 2026-11-27T05:01:38Z) to",
      );
      press(c, `${path}\r`);
      await waitFor(() => c.state.notice?.startsWith("saved ") === true, "the view saved");
      expect(c.state.notice).toContain(
        `(the view, since 10s until 2026-11-27T05:01:38Z) to ${path}`,
      );
      return readFileSync(path, "utf8").split("\n")[0] ?? "";
    };
    expect(await headerOf("range-saved.log")).toMatch(
      // A file of no deployment known: the header names none.
      /^# tvcwatch · filters: since 10s until 2026-11-27T05:01:38Z · the view · /,
    );
    const json = JSON.parse(await headerOf("range-saved-again.ndjson"));
    expect(json.tvcwatch.filters.timeRange).toBe("since 10s until 2026-11-27T05:01:38Z");
    // All buffered is every line, whatever the view shows: its prompt names no range.
    press(c, "Sa\r");
    expect(status(c.getSnapshot())).toMatch(/save [0-9,]+ lines \(all buffered\) to/);
  });

  it("names the file, its lines and time range, and shows the log alone, newest last", async () => {
    const { c, path } = await open(incident(undefined));
    const s = c.getSnapshot();
    expect(text([{ text: s.title }])).toBe(
      `tvcwatch · 522 lines · 2026-11-27 05:00:00Z to 05:01:39Z · ${path}`,
    );
    if (s.body.kind !== "panes") throw new Error("no panes");
    expect(s.body.side).toBeUndefined();
    expect(shown(s).at(-1)).toContain("INFO request 199 served");
    expect(status(s)).toContain("○ saved lines");
  });

  it("restores a saved view's filters and says so", async () => {
    const { c } = await open(
      incident({
        deploymentId: "dep-1",
        savedAt: "2026-11-27T05:02:00Z",
        filters: { include: ["upstream"], exclude: null, minLevel: "error", context: 0 },
        lines: 522,
      }),
    );
    const s = await settled(c);
    expect(c.state.include).toEqual(["upstream"]);
    expect(c.state.minLevel).toBe("error");
    expect(status(s)).toContain("the saved view's filters restored: +/upstream/ level>=error");
    // The replicas' lifecycle is shown whatever the filters, as in a live log.
    expect(shown(s).filter((l) => !l.startsWith("──"))).toEqual(
      Array.from({ length: 10 }, (_, k) => `[3] ERROR upstream timeout at ${k * 20}`),
    );
    press(c, "X");
    expect(shown(c.getSnapshot()).some((l) => l.includes("INFO request"))).toBe(true);
  });

  it("restores a replica shown alone (o): only its lines, said, and o shows every one again", async () => {
    const { c } = await open(
      incident({ deploymentId: "dep-1", filters: { include: [], onlyReplica: 2 }, lines: 522 }),
    );
    const s = c.getSnapshot();
    expect(c.state.onlyReplica).toBe(2);
    expect(status(s)).toContain("the saved view's filters restored: replica 2 alone");
    const lines = shown(s).filter((l) => !l.startsWith("──"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.startsWith("[2] "))).toBe(true);
    press(c, "o");
    expect(c.state.onlyReplica).toBeUndefined();
    expect(shown(c.getSnapshot()).some((l) => l.startsWith("[3] "))).toBe(true);
  });

  it("searches the whole file with its counter, n and N moving through the matches", async () => {
    const { c } = await open(incident(undefined));
    press(c, "/upstream timeout\r");
    expect(status(c.getSnapshot())).toContain("search /upstream timeout/ 10/10");
    press(c, "N");
    expect(status(c.getSnapshot())).toContain("9/10");
    press(c, "g");
    press(c, "n");
    expect(status(c.getSnapshot())).toContain("1/10");
  });

  it("a search over more lines than a slice reads counts what it found in the status line while it reads; Esc cancels it", async () => {
    const lines = 60_000;
    const out: string[] = [];
    for (let i = 0; i < lines; i++)
      out.push(
        jsonLine(START + i, 1 + (i % 3), i % 7 === 0 ? `ERROR needle ${i}` : `INFO hay ${i}`),
      );
    const { c } = await open(`${out.join("\n")}\n`, "many.ndjson");
    await settled(c);
    // Every reading of the clock moves it on a millisecond: each slice runs out after its
    // fixed minimum of lines, so the search takes many slices.
    let t = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => (t += 1));
    try {
      press(c, "/needle|pin\r");
      await waitFor(
        () => /search \/needle\|pin\/ [1-9][0-9,]* found… [0-9]+%/.test(status(c.getSnapshot())),
        "the status line counting the search while it reads",
      );
      const first = status(c.getSnapshot());
      await waitFor(
        () => status(c.getSnapshot()) !== first,
        "the count going on as the search reads",
      );
      press(c, "\u001b");
      expect(c.state.search).toBeUndefined();
      expect(status(c.getSnapshot())).not.toContain("search /");
      // The view answers at once, and nothing of the search is counted any more.
      press(c, "g");
      expect(shown(c.getSnapshot()).some((l) => l.includes("hay 1"))).toBe(true);
      expect(status(c.getSnapshot())).not.toContain("found…");
    } finally {
      clock.mockRestore();
    }
    // Searched again to its end, its counter is the whole file's.
    press(c, "/needle\r");
    await waitFor(
      () => /search \/needle\/ [0-9,]+\/8,572/.test(status(c.getSnapshot())),
      "the whole count once read",
    );
  });

  it("shows a replica's lifecycle in the log, and a line that is not JSON as text", async () => {
    const { c } = await open(incident(undefined));
    press(c, "g");
    const oldest = shown(c.getSnapshot());
    expect(oldest.find((l) => l.includes("{not json at all"))).toBe(" {not json at all");
    press(c, "J2026-11-27T05:00:31Z\r");
    const around = shown(c.getSnapshot()).join("\n");
    expect(around).toMatch(/replica 2\/3 stopped sending \(last line 05:00:30Z\)/);
  });

  it("i says the file, the lines not read, the saved view and the votes it lists", async () => {
    const { c, path } = await open(
      incident({
        deploymentId: "dep-1",
        savedAt: "2026-11-27T05:02:00Z",
        lines: 522,
        bundle: true,
        votes: [
          {
            activityId: "act-1",
            type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
            fingerprint: "fp-abc",
            decision: "approve",
            time: "2026-11-27T05:01:00Z",
          },
        ],
      }),
    );
    press(c, "i");
    const said = detail(c.getSnapshot());
    expect(said).toContain(`files ${path}: ndjson, 522 lines, 1 not read (shown as text)`);
    expect(said).toContain("not read 1 line could not be read");
    expect(said).toContain("saved view deployment dep-1 · saved 2026-11-27T05:02:00Z · 522 lines");
    expect(said).toContain(
      "votes recorded in the file, not verified; none is voted from here | 2026-11-27T05:01:00Z approve ACTIVITY_TYPE_SIGN_TRANSACTION_V2 act-1 fingerprint fp-abc",
    );
    expect(said).toMatch(/replicas replica 1\/3: 200 lines, 0 errors/);
  });

  it("i says exactly what was not read: a line cut at its cap, what of it was passed over", async () => {
    const { c, path } = await open(
      `${incident(undefined)}${"z".repeat(5 * 1024 * 1024)}\n${jsonLine(START + 200_000, 1, "INFO after")}\n`,
      "long-line.ndjson",
    );
    press(c, "i");
    const said = detail(c.getSnapshot());
    expect(said).toContain(
      `files ${path}: ndjson, 524 lines, 1 not read (shown as text), 1 cut at 4 MiB (1 MiB of it not read)`,
    );
    expect(said).toContain(
      "not read 1 line could not be read: shown as text, without a replica | 1 line longer than 4 MiB: the first 4 MiB of each shown as text, the rest (1 MiB) not read",
    );
    expect(said).toMatch(
      /notes .*long-line\.ndjson: a line longer than 4 MiB: its first 4 MiB kept/,
    );
  });

  it("i lists a bundle's follow figures, outages and each replica's lines as the live i does", async () => {
    const { c } = await open(
      incident({
        deploymentId: "dep-1",
        lines: 522,
        bundle: true,
        follow: {
          phase: "live",
          windowSeconds: 4,
          overlapMs: 743,
          linesEmitted: 704,
          lateLines: 2,
          gaps: 1,
          entriesServed: 1346,
          failedPolls: 0,
        },
        outages: [
          { from: "2026-11-27T05:00:10Z", to: "2026-11-27T05:00:20Z", reason: "gone" },
          {
            from: "2026-11-27T05:00:45.390Z",
            to: "2026-11-27T05:01:04.599Z",
            reason: "no answer: UNAVAILABLE (HTTP 503)",
            failedPolls: 6,
          },
          {
            from: "2026-11-27T05:01:30Z",
            to: "2026-11-27T05:01:33Z",
            reason: "no answer: connection refused",
            failedPolls: 1,
            ongoing: true,
          },
        ],
        replicas: [
          { replicaLabel: "replica 1/3", lines: 200 },
          { replicaLabel: "replica 2/3", deploymentId: "dep-1", lines: 1 },
        ],
        votes: [],
      }),
    );
    press(c, "i");
    const said = detail(c.getSnapshot()).split("\n");
    const at = (label: string) => said.find((l) => l.startsWith(`${label} `));
    expect(at("bundle")).toBe(
      "bundle written while the follow was live: the figures below are from then",
    );
    expect(at("window")).toBe("window sinceSeconds 4");
    expect(at("overlap")).toBe("overlap 0.7s");
    expect(at("lines shown")).toBe("lines shown 704");
    expect(at("late lines")).toBe("late lines 2");
    expect(at("entries served")).toBe("entries served 1346 (1.91 per line shown)");
    expect(at("gaps")).toBe("gaps 1 marked in the log (lines the server no longer had)");
    expect(at("failed polls")).toBe("failed polls 0 in a row when written");
    expect(at("outages")).toBe(
      [
        "outages recorded in the file, not verified",
        "2026-11-27T05:00:10Z to 05:00:20Z (10 s): gap: gone",
        "2026-11-27T05:00:45.390Z to 05:01:04.599Z (19 s, 6 polls): no answer: UNAVAILABLE (HTTP 503)",
        "2026-11-27T05:01:30Z to 05:01:33Z (3 s, 1 poll, still failing when written): no answer: connection refused",
      ].join(" | "),
    );
    expect(at("replicas saved")).toBe(
      "replicas saved replica 1/3: 200 lines | replica 2/3 (dep-1): 1 line",
    );
    expect(at("votes")).toBe("votes recorded in the file, not verified | none cast");
    // The buffer's own counts still follow, as in the live i.
    expect(said.at(-1)).toMatch(/^replicas replica 1\/3: 200 lines, 0 errors/);
  });

  it("a forged bundle's header is a claim: where it disagrees with the lines is said, its votes never drive one", async () => {
    const { c } = await open(
      incident({
        deploymentId: "dep-1",
        from: "2026-11-27T05:00:00.001Z",
        to: "2026-11-27T06:00:00.000Z",
        lines: 3,
        gaps: 0,
        bundle: true,
        replicas: [
          { replicaLabel: "replica 1/3", lines: 700 },
          { replicaLabel: "replica 9/9", lines: 1 },
        ],
        outages: [{ from: "2026-11-27T05:00:10Z", to: "2026-11-27T05:00:20Z", reason: "gone" }],
        votes: [
          {
            activityId: "act-export",
            type: "ACTIVITY_TYPE_EXPORT_WALLET",
            fingerprint: "sha256:abc",
            decision: "approve",
            time: "2026-11-27T05:01:00Z",
          },
        ],
      }),
    );
    // Said as the file opens.
    expect(status(c.getSnapshot())).toContain(
      "the header disagrees with the lines (i lists where): it says 3 lines; the file has 522",
    );
    press(c, "i");
    const said = detail(c.getSnapshot()).split("\n");
    const at = (label: string) => said.find((l) => l.startsWith(`${label} `));
    expect(at("checked")).toBe(
      [
        "checked the header disagrees with the lines:",
        "it says 3 lines; the file has 522",
        "it says the lines end at 2026-11-27T06:00:00.000Z; the last is at 2026-11-27T05:01:39.503Z",
        "it lists replica 1/3 with 700 lines; the file has 200",
        "it lists replica 9/9 with 1 line; no line of the file is from it",
        "it does not list replica 2/3, which has 121 lines in the file",
        "it does not list replica 3/3, which has 200 lines in the file",
        "it lists 1 gap among its outages; the file has 0 gap markers",
      ].join(" | "),
    );
    expect(at("votes")).toMatch(
      /^votes recorded in the file, not verified; none is voted from here \| .* approve ACTIVITY_TYPE_EXPORT_WALLET act-export/,
    );
    expect(at("outages")).toMatch(/^outages recorded in the file, not verified \| /);
    // Nothing from the file can be voted on: there is no activity to approve.
    press(c, "\u001b");
    press(c, "A");
    expect(c.getSnapshot().body.kind).toBe("panes");
    expect(JSON.stringify(c.getSnapshot())).not.toMatch(/confirm|act-export/i);
  });

  it("a header that agrees with its lines says so in i", async () => {
    const { c } = await open(
      incident({
        deploymentId: "dep-1",
        from: "2026-11-27T05:00:00.001Z",
        to: "2026-11-27T05:01:39.503Z",
        lines: 522,
        gaps: 0,
        bundle: true,
        replicas: [
          { replicaLabel: "replica 1/3", lines: 200 },
          { replicaLabel: "replica 2/3", lines: 121 },
          { replicaLabel: "replica 3/3", lines: 200 },
        ],
        votes: [],
      }),
    );
    press(c, "i");
    expect(detail(c.getSnapshot())).toContain(
      "checked the header agrees with the lines: 522 lines, 0 gaps, its start, its end, 3 replicas",
    );
  });

  it("a pipe followed: the status line and i say it is read as it comes, saved lines once it ends", async () => {
    const path = join(dir, "pipe");
    execFileSync("mkfifo", [path]);
    const rd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const wr = openSync(path, constants.O_WRONLY);
    const stream = new Socket({ fd: rd, readable: true, writable: false });
    const o = await openSavedLogs(["-"], { stdin: { fd: rd, stream } });
    const d = savedDashboard(
      o,
      { clock: stoppedClock(START + 200_000), quit: vi.fn() },
      { columns: 160, rows: 48 },
    );
    running.push({ o, d });
    const c = d.controller;
    writeSync(wr, `${jsonLine(START, 1, "INFO one")}\n${jsonLine(START + 1, 2, "INFO two")}\n`);
    await vi.waitFor(() => expect(o.log.size()).toBe(2));
    expect(status(c.getSnapshot())).toMatch(/^○ reading standard input /);
    expect(text([{ text: c.getSnapshot().title }])).toContain(" · followed · standard input");
    press(c, "i");
    expect(detail(c.getSnapshot())).toContain("status following standard input; 2 lines so far");
    press(c, "\u001br");
    expect(c.state.notice).toBe("nothing to retry: lines are read as they come, without polls");
    closeSync(wr);
    // Its end is news without a line: the title, the status line and what reading said.
    await vi.waitFor(() => expect(status(c.getSnapshot())).toMatch(/^○ saved lines /));
    expect(status(c.getSnapshot())).toContain("standard input ended");
    expect(text([{ text: c.getSnapshot().title }])).not.toContain("followed");
    press(c, "i");
    expect(detail(c.getSnapshot())).toContain("status saved lines: nothing is followed");
  });

  it("q quits", async () => {
    const { c, quit } = await open(incident(undefined));
    press(c, "q");
    expect(quit).toHaveBeenCalledOnce();
  });
});

describe("a large file being indexed", () => {
  it("the title says how far indexing is at the controller's own tick (one timer, one frame a tick), then the whole file", async () => {
    // Over 2 MiB: its end is read first, the rest once `indexFrom` resolves.
    const line = (i: number) =>
      `2026-11-27T05:00:${String(i % 60).padStart(2, "0")}.000000000Z [replica 1/1] INFO line ${i} ${"x".repeat(80)}\n`;
    const path = join(dir, "large.log");
    writeFileSync(path, Array.from({ length: 30_000 }, (_, i) => line(i)).join(""));
    let drawn: () => void = () => {};
    const o = await openSavedLogs([path], {
      indexFrom: new Promise<void>((resolve) => {
        drawn = resolve;
      }),
    });
    const ticks: (() => void)[] = [];
    let stopped = 0;
    const d = savedDashboard(
      o,
      {
        clock: {
          now: () => START,
          every: (_ms, tick) => {
            ticks.push(tick);
            return () => stopped++;
          },
        },
        quit: vi.fn(),
      },
      { columns: 160, rows: 48 },
    );
    running.push({ o, d });
    const c = d.controller;
    expect(ticks).toHaveLength(1);
    expect(text([{ text: c.getSnapshot().title }])).toMatch(/ · indexing \d+% · /);
    let told = 0;
    c.subscribe(() => told++);
    (ticks[0] as () => void)();
    expect(told).toBeGreaterThan(0);
    expect(text([{ text: c.getSnapshot().title }])).toMatch(/ · indexing \d+% · /);
    drawn();
    await o.indexed;
    expect(text([{ text: c.getSnapshot().title }])).toMatch(/ · 30,000 lines · /);
    expect(text([{ text: c.getSnapshot().title }])).not.toContain("indexing");
    d.stop();
    expect(stopped).toBe(1);
  });

  /**
   * A large file whose errors rose at 05:05:00, in its start (read after its end): one error each
   * 20 s of a calm before and after, twenty new ones in that bucket; open while its start is
   * still indexed (`index` lets it go on).
   */
  async function largeRise(name: string) {
    const at = (i: number) => new Date(START + i * 100).toISOString();
    const content = (i: number) => {
      if (i % 200 === 0) return `ERROR db: slow query ${i}`;
      if (i > 3000 && i < 3200 && i % 10 === 1) return `ERROR signer: enclave heap exhausted ${i}`;
      return `INFO line ${i} ${"x".repeat(80)}`;
    };
    const path = join(dir, name);
    writeFileSync(
      path,
      Array.from({ length: 30_000 }, (_, i) => `${at(i)} [replica 1/1] ${content(i)}\n`).join(""),
    );
    let index: () => void = () => {};
    const o = await openSavedLogs([path], {
      indexFrom: new Promise<void>((resolve) => {
        index = resolve;
      }),
    });
    const d = savedDashboard(o, { quit: vi.fn() }, { columns: 160, rows: 48 });
    running.push({ o, d });
    const c = d.controller;
    const cursorLine = () => {
      const row = o.log.rowById(c.state.cursor ?? -1);
      return row?.event.kind === "line" ? row.event.content : undefined;
    };
    return { o, c, index, cursorLine };
  }

  it("! while indexing waits for every line (the start holds the baseline), then goes to the onset once", async () => {
    const { o, c, index, cursorLine } = await largeRise("large-rise.log");
    press(c, "!");
    expect(status(c.getSnapshot())).toMatch(
      /indexing \d+%: ! goes to the onset once every line is in \(Esc cancels\)/,
    );
    expect(c.state.following).toBe(true);
    // Pressed again meanwhile, it still waits (once).
    press(c, "!");
    expect(status(c.getSnapshot())).toMatch(/indexing \d+%: ! still waits for every line/);
    expect(status(c.getSnapshot())).toContain("! waits for the index");
    index();
    await o.indexed;
    expect(status(c.getSnapshot())).not.toContain("! waits for the index");
    expect(cursorLine()).toBe("ERROR signer: enclave heap exhausted 3001");
    expect(status(c.getSnapshot())).toMatch(/errors rose at 05:05:00/);
    expect(c.state.riseWhenIndexed).toBe(false);
    // Pressed now, it goes at once.
    press(c, "G");
    press(c, "!");
    expect(cursorLine()).toBe("ERROR signer: enclave heap exhausted 3001");
  });

  it("Esc cancels a ! waiting for indexing, and says so", async () => {
    const { o, c, index, cursorLine } = await largeRise("large-rise-cancelled.log");
    press(c, "!");
    c.press("", { escape: true });
    expect(status(c.getSnapshot())).toContain("! no longer waits for indexing");
    expect(status(c.getSnapshot())).not.toContain("! waits for the index");
    expect(c.state.riseWhenIndexed).toBe(false);
    index();
    await o.indexed;
    expect(c.state.following).toBe(true);
    expect(cursorLine()).toBeUndefined();
    expect(status(c.getSnapshot())).not.toMatch(/errors rose/);
  });
});

describe("the clock's tick over saved lines", () => {
  it("says the indexing progress before one timer's tick, however many the controller starts, then the next one's once it stops", () => {
    const ticks: (() => void)[] = [];
    let stopped = 0;
    const calls: string[] = [];
    const clock = progressTicker(
      {
        now: () => START,
        every: (_ms, tick) => {
          ticks.push(tick);
          return () => stopped++;
        },
      },
      () => calls.push("progress"),
    );
    const stopFirst = clock.every(1000, () => calls.push("first"));
    clock.every(250, () => calls.push("second"));
    for (const tick of ticks) tick();
    (ticks[1] as () => void)();
    expect(calls).toEqual(["progress", "first", "second", "second"]);
    calls.length = 0;
    stopFirst();
    expect(stopped).toBe(1);
    (ticks[1] as () => void)();
    expect(calls).toEqual(["progress", "second"]);
    expect(clock.now()).toBe(START);
  });

  it("keeps the snapshot drawn while it moves nothing shown, and makes a new one when it does", async () => {
    const path = join(dir, "tick.log");
    writeFileSync(path, "2026-11-27T05:00:00.000Z [replica 1/3] hello\n");
    const o = await openSavedLogs([path]);
    await o.indexed;
    const ticks: (() => void)[] = [];
    let now = START + 200_000;
    const d = savedDashboard(
      o,
      {
        clock: {
          now: () => now,
          every: (_ms, tick) => {
            ticks.push(tick);
            return () => {};
          },
        },
        quit: vi.fn(),
      },
      { columns: 160, rows: 48 },
    );
    running.push({ o, d });
    const c = d.controller;
    const first = await settled(c);
    expect(shown(first)).toEqual(["[1] hello"]);
    for (const tick of ticks) tick();
    now += 1000;
    for (const tick of ticks) tick();
    // Built again (the tick told the screen), to the same data: the same object, nothing redrawn.
    expect(c.getSnapshot()).toBe(first);
    // A key that changes what is shown makes a new snapshot, as before.
    press(c, "t");
    const after = c.getSnapshot();
    expect(after).not.toBe(first);
    expect(after.ui.time).not.toBe(first.ui.time);
  });
});
