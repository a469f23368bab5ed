/**
 * The dashboard controller without a terminal: keys go in as the keyboard sends them, effects
 * come out through fake ports (voting, the clipboard, the file sink, the follow, the bell), and
 * what is shown is read from its snapshot. Vote, retry, save and copy, the bell, and a dashboard
 * over saved lines (no follow, no side panes, no voting).
 */
import { describe, expect, it, vi } from "vitest";
import type { Activity } from "../../../src/api/schemas.js";
import type { ActivityVoting } from "../../../src/feeds/dashboard-sources.js";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { formatEvent } from "../../../src/logs/formats/stream-format.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import type { FollowerPhase, FollowerState } from "../../../src/tail/follower.js";
import type { FollowSource } from "../../../src/tail/follower-group.js";
import { DashboardController } from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import type { DashboardPorts, FileSink } from "../../../src/tui/controller/ports.js";
import { savedLogs } from "../../../src/tui/controller/ports.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { settle } from "../../helpers/settle.js";
import { waitFor } from "../../helpers/wait-for.js";
import { activity, dashboardParts, line, NOW } from "../fixtures.js";
import { stoppedClock } from "../render-dashboard.js";

const ESC = "\u001b";
const UP = "\u001b[A";

/** What the keyboard sends for each key of `keys`, as Ink hands it over (input, key). */
function press(c: DashboardController, keys: string): void {
  for (const k of keys.match(/\u001b\[A|[\s\S]/gu) ?? []) {
    if (k === ESC) c.press("", { escape: true });
    else if (k === UP) c.press("", { upArrow: true });
    else if (k === "\t") c.press("", { tab: true });
    else if (k === "\r") c.press("", { return: true });
    else if (k === "\b") c.press("", { backspace: true });
    else c.press(k, {});
  }
}

const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");
const status = (s: DashboardSnapshot) => text(s.status);

/** A follow whose phase the test sets; it counts the retries asked for. */
class FakeFollow implements FollowSource {
  retries = 0;
  private listeners = new Set<() => void>();
  private state: FollowerState = {
    phase: "live",
    retries: 0,
    linesPerSecond: 0,
    linesEmitted: 0,
    gaps: 0,
    entriesServed: 0,
    arrival: { overlapMs: 0, lateLines: 0, recentLateMs: 0, measured: false },
  };
  set(phase: FollowerPhase, lastError?: string) {
    this.state = { ...this.state, phase, lastError };
    for (const l of this.listeners) l();
  }
  subscribe(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  getState() {
    return this.state;
  }
  retryNow() {
    this.retries += 1;
  }
  monotonicNow() {
    return 1000;
  }
}

const ROOT_1 = {
  viewer: { userId: "root-1", username: "oncall-root" },
  quorum: { threshold: 2, userIds: ["root-1", "root-2"] },
  now: NOW,
};

function voting(answer: (fingerprint: string) => Promise<Activity>) {
  return {
    loadContext: vi.fn(async () => ({ context: ROOT_1, notes: [] })),
    vote: vi.fn(async (_action: string, fingerprint: string) => answer(fingerprint)),
  } satisfies ActivityVoting;
}

async function controller(ports: Partial<DashboardPorts> = {}) {
  const parts = await dashboardParts();
  parts.store.append(Array.from({ length: 20 }, (_, i) => line(i, (i % 3) + 1, `INFO req ${i}`)));
  const follow = new FakeFollow();
  const quit = vi.fn();
  const c = new DashboardController(
    {
      logs: { store: parts.store, follow },
      feeds: parts.feeds,
      clock: stoppedClock(),
      quit,
      ...ports,
    },
    { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
  );
  c.start();
  // Who is asking is read when the dashboard starts.
  await settle();
  return { c, follow, quit, ...parts };
}

describe("the dashboard controller", () => {
  it("publishes one snapshot until something it shows changes, and tells its subscribers", async () => {
    const { c, store } = await controller();
    const listener = vi.fn();
    c.subscribe(listener);
    const first = c.getSnapshot();
    expect(c.getSnapshot()).toBe(first);
    store.append([line(50, 1, "INFO one more")]);
    expect(listener).toHaveBeenCalled();
    const second = c.getSnapshot();
    expect(second).not.toBe(first);
    // The side panes' views did not change with a log line.
    if (first.body.kind !== "panes" || second.body.kind !== "panes") throw new Error("no panes");
    expect(second.body.side?.activities).toEqual(first.body.side?.activities);
    expect(second.body.side?.activities.summary).toBe(first.body.side?.activities.summary);
    c.resize(80, 24);
    expect(c.getSnapshot().layout.total.width).toBe(80);
  });

  it("A, then y: the vote on the fingerprint shown, whatever a poll brings meanwhile", async () => {
    const v = voting(async (fingerprint) => ({
      ...activity("a1", "COMPLETED", 30_000),
      fingerprint,
    }));
    const { c, feeds } = await controller({ voting: v });
    press(c, "\tA");
    const confirm = c.getSnapshot().body;
    expect(confirm.kind).toBe("vote");
    expect(c.state.vote).toMatchObject({ phase: "confirm", activityId: "a1" });
    // A poll while the confirmation is open changes the fingerprint: the one shown is voted on.
    feeds.activities.store.succeed(
      [{ ...activity("a1", "CONSENSUS_NEEDED", 31_000), fingerprint: "sha256:other" }],
      NOW,
      5,
    );
    press(c, "y");
    expect(c.state.vote?.phase).toBe("sending");
    await vi.waitFor(() => expect(c.state.vote?.phase).toBe("done"));
    expect(v.vote).toHaveBeenCalledWith("approve", "sha256:a1");
    expect(c.state.vote).toMatchObject({ ok: true, outcome: "approved activity a1: COMPLETED" });
    // Any key closes the result.
    press(c, "x");
    expect(c.state.vote).toBeUndefined();
  });

  it("an answer about the activity voted on replaces its row; about another, it changes nothing", async () => {
    const v = voting(async (fingerprint) => ({
      ...activity("a1", "COMPLETED", 30_000),
      fingerprint,
    }));
    const { c, feeds } = await controller({ voting: v });
    press(c, "\tAy");
    await vi.waitFor(() => expect(c.state.vote?.phase).toBe("done"));
    expect(c.state.vote).toMatchObject({ ok: true, outcome: "approved activity a1: COMPLETED" });
    expect(feeds.activities.store.getSnapshot().data?.[0]?.status).toBe(
      "ACTIVITY_STATUS_COMPLETED",
    );

    const other = voting(async () => activity("zz", "COMPLETED", 1));
    const second = await controller({ voting: other });
    press(second.c, "\tAy");
    await vi.waitFor(() => expect(second.c.state.vote?.phase).toBe("done"));
    expect(second.c.state.vote).toMatchObject({ ok: false });
    expect((second.c.state.vote as { outcome: string }).outcome).toMatch(
      /^the server answered for activity zz, not a1/,
    );
    expect(second.feeds.activities.store.getSnapshot().data?.[0]?.status).toBe(
      "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    );
  });

  it("A before whoami answered opens the confirmation once it has; n cancels, nothing sent", async () => {
    let answer: () => void = () => {};
    const v: ActivityVoting = {
      loadContext: () =>
        new Promise((resolve) => {
          answer = () => resolve({ context: ROOT_1, notes: ["list_users not shown: denied"] });
        }),
      vote: vi.fn(),
    };
    const { c } = await controller({ voting: v });
    press(c, "\tA");
    expect(c.state.notice).toBe("reading who you are (whoami) before the vote…");
    answer();
    await vi.waitFor(() => expect(c.state.vote?.phase).toBe("confirm"));
    expect(c.state.vote?.details.at(-1)).toContain("note         list_users not shown: denied");
    press(c, "n");
    expect(c.state.vote).toBeUndefined();
    expect(c.state.notice).toBe("not approved: cancelled, nothing was sent");
    expect(v.vote).not.toHaveBeenCalled();
  });

  it("without voting, A says it is not available", async () => {
    const { c } = await controller();
    press(c, "\tA");
    expect(c.state.notice).toBe("voting is not available here");
  });

  it("r retries a follow that waits to retry, and says why not otherwise", async () => {
    const { c, follow } = await controller();
    press(c, "r");
    expect(c.state.notice).toBe("the log is live: nothing to retry");
    follow.set("retrying", "connection refused");
    expect(status(c.getSnapshot())).toContain("connection refused");
    press(c, "r");
    expect(follow.retries).toBe(1);
    expect(c.state.notice).toBe("retrying the log poll now");
    follow.set("failed", "PERMISSION_DENIED");
    press(c, "r");
    expect(follow.retries).toBe(1);
    expect(c.state.notice).toBe("the log follow is stopped by an error: nothing to retry");
  });

  /** A file sink that keeps what is written; a name ending in taken.log exists already. */
  function sink() {
    const written: { path: string; text: string }[] = [];
    const files: FileSink = {
      writeNew: async (path, text) => {
        if (path.endsWith("taken.log"))
          throw Object.assign(new Error("exists"), { code: "EEXIST" });
        written.push({ path, text });
      },
    };
    return { written, files };
  }

  it("S writes the view as filtered through the file sink, and says what it did", async () => {
    const { written, files } = sink();
    const { c } = await controller({ files });
    press(c, "freq 1\r");
    // Enter at the first prompt: the view as filtered.
    press(c, "S\r");
    expect(c.state.input).toMatchObject({ mode: "save", save: { lines: 11, words: "the view" } });
    press(c, "/tmp/view.ndjson\r");
    await vi.waitFor(() => expect(c.state.notice).toMatch(/^saved/));
    expect(c.state.notice).toBe("saved 11 lines (the view) to /tmp/view.ndjson (NDJSON)");
    const [saved] = written;
    const lines = saved?.text.trim().split("\n") ?? [];
    expect(lines).toHaveLength(12);
    expect(JSON.parse(lines[0] ?? "{}").tvcwatch).toMatchObject({
      deploymentId: "dep-1",
      filters: { include: ["req 1"] },
      savedAt: new Date(NOW).toISOString(),
      lines: 11,
      gaps: 0,
      range: { kind: "view" },
    });
    expect(lines.slice(1).every((l) => JSON.parse(l).content.includes("req 1"))).toBe(true);
    press(c, "S\r");
    press(c, "/tmp/taken.log\r");
    await vi.waitFor(() => expect(c.state.notice).toMatch(/^not saved/));
    expect(c.state.notice).toBe("not saved: /tmp/taken.log exists (S again with another name)");
  });

  it("S offers a name from the deployment and the lines' times; Enter takes it", async () => {
    const { written, files } = sink();
    const { c } = await controller({ files });
    press(c, "S\r");
    const offered = c.state.input?.save?.defaultName ?? "";
    expect(offered).toMatch(/^tvcwatch-dep-1-\d{8}T\d{6}Z-\d{6}Z\.ndjson$/);
    expect(status(c.getSnapshot())).toContain(`[${offered}]`);
    press(c, "\r");
    await vi.waitFor(() => expect(written).toHaveLength(1));
    expect(written[0]?.path).toBe(offered);
  });

  it("S offers a name with the deployment's version and role once its records are known", async () => {
    const { c } = await controller();
    const app = {
      id: "app-1",
      organizationId: "o",
      name: "payments-signer",
      liveDeploymentId: "x",
    };
    c.named(
      deploymentChoice(app, {
        id: "dep-1",
        organizationId: "o",
        appId: "app-1",
        debugMode: true,
        qosVersion: "0.8.0",
      }),
    );
    press(c, "S\r");
    expect(c.state.input?.save?.defaultName).toMatch(/^tvcwatch-dep-1-0\.8\.0-canary-\d{8}T/);
  });

  it("S a: all buffered, whatever the filters; the count leaves gap markers out and says them", async () => {
    const { written, files } = sink();
    const { c, store } = await controller({ files });
    store.append([
      { kind: "gap", from: NOW - 5000, to: NOW - 4000, reason: "outage", sortKey: NOW - 4000 },
    ]);
    press(c, "freq 1\r");
    press(c, "Sa\r");
    press(c, "/tmp/all.ndjson\r");
    await vi.waitFor(() => expect(c.state.notice).toMatch(/^saved/));
    expect(c.state.notice).toBe(
      "saved 20 lines and 1 gap marker (all buffered) to /tmp/all.ndjson (NDJSON)",
    );
    const lines = written[0]?.text.trim().split("\n") ?? [];
    expect(lines).toHaveLength(22);
    expect(JSON.parse(lines[0] ?? "{}").tvcwatch).toMatchObject({ lines: 20, gaps: 1 });
  });

  it("S m: the view between the two marks; without two marks it says to mark them", async () => {
    const { written, files } = sink();
    const { c } = await controller({ files });
    press(c, "Sm\r");
    expect(c.state.input?.error).toBe(
      "save between marks: mark two lines first (m on the log pane)",
    );
    press(c, ESC);
    // Lines 17 and 14 (↑ pauses with the cursor on 18).
    press(c, `${UP}${UP}m${UP}${UP}${UP}m`);
    expect(c.state.marks).toHaveLength(2);
    press(c, "Sm\r");
    expect(c.state.input?.save).toMatchObject({ lines: 4, words: "between the marks" });
    press(c, "/tmp/marks.log\r");
    await vi.waitFor(() => expect(written).toHaveLength(1));
    const [header, ...rest] = written[0]?.text.trim().split("\n") ?? [];
    expect(header).toContain("between the marks");
    expect(header).toMatch(/ 4 lines$/);
    expect(rest.map((l) => l.split("] ")[1])).toEqual([
      "INFO req 14",
      "INFO req 15",
      "INFO req 16",
      "INFO req 17",
    ]);
  });

  it("S 1: the view's last minute, up to the newest line; a bad range is refused in the prompt", async () => {
    const { c, store } = await controller();
    store.append([line(1200, 1, "INFO much later")]);
    press(c, "S1\r");
    expect(c.state.input?.save).toMatchObject({ lines: 1, words: "the last 1 min" });
    press(c, ESC);
    press(c, "Sx\r");
    expect(c.state.input?.error).toMatch(
      /^save: Enter, v, a, m, 1-10080 \(minutes\), b before one$/,
    );
  });

  it("S b: a bundle with the follow's figures, each replica's lines and the votes cast", async () => {
    const { written, files } = sink();
    const v = voting(async (fingerprint) => ({
      ...activity("a1", "COMPLETED", 30_000),
      fingerprint,
    }));
    const { c } = await controller({ files, voting: v });
    press(c, "\tAy");
    await vi.waitFor(() => expect(c.state.vote?.phase).toBe("done"));
    press(c, "x\t\t\t");
    expect(c.votesCast).toHaveLength(1);
    press(c, "Sb\r");
    expect(c.state.input?.save).toMatchObject({ bundle: true, lines: 20 });
    expect(c.state.input?.save?.defaultName).toMatch(/\.bundle\.ndjson$/);
    press(c, "/tmp/b.log\r");
    expect(c.state.input?.error).toBe("a bundle is NDJSON: end the name in .ndjson");
    press(c, "\b\b\bndjson\r");
    await vi.waitFor(() => expect(c.state.notice).toMatch(/^saved/));
    expect(c.state.notice).toBe("saved 20 lines (the view) to /tmp/b.ndjson (bundle)");
    const header = JSON.parse(written[0]?.text.split("\n")[0] ?? "{}").tvcwatch;
    expect(header).toMatchObject({
      bundle: true,
      replicas: [
        { replicaLabel: "replica 1/3", lines: 7 },
        { replicaLabel: "replica 2/3", lines: 7 },
        { replicaLabel: "replica 3/3", lines: 6 },
      ],
      follow: { phase: "live", lateLines: 0, gaps: 0, failedPolls: 0 },
      outages: [],
      votes: [
        {
          activityId: "a1",
          type: activity("a1", "COMPLETED", 1).type,
          fingerprint: "sha256:a1",
          decision: "approve",
          time: new Date(NOW).toISOString(),
        },
      ],
    });
  });

  it("c puts the cursor's line on the clipboard as tail --timestamps prints it, or shows it alone", async () => {
    const clipboard = vi.fn();
    const { c, store } = await controller({ clipboard });
    press(c, `${UP}c`);
    const printed = (i: number, r: number, content: string) =>
      formatEvent(line(i, r, content), {
        output: "text",
        timestamps: true,
        utc: false,
        colour: false,
      });
    expect(clipboard).toHaveBeenCalledWith(printed(18, 1, "INFO req 18"));
    expect(c.state.notice).toBe("line copied to the clipboard (OSC 52)");
    // A hostile line goes to the clipboard escaped.
    store.append([line(40, 1, "INFO \u001b]52;c;aGk=\u0007 x")]);
    // Following again, then Space: paused with the cursor on the newest line.
    press(c, "G c");
    expect(clipboard).toHaveBeenLastCalledWith(printed(40, 1, "INFO \\x1b]52;c;aGk=\\x07 x"));
    // An error with its stack frames: the frames come with it, not another replica's line.
    store.append([
      line(41, 1, "ERROR boom"),
      line(42, 1, "    at handler (app.js:1:2)"),
      line(43, 2, "INFO other replica"),
      line(44, 1, "    at main (app.js:9:9)"),
      line(45, 1, "INFO next event"),
    ]);
    press(c, `G ${UP}${UP}${UP}${UP}c`);
    expect(clipboard).toHaveBeenLastCalledWith(
      [
        printed(41, 1, "ERROR boom"),
        printed(42, 1, "    at handler (app.js:1:2)"),
        printed(44, 1, "    at main (app.js:9:9)"),
      ].join("\n"),
    );
    expect(c.state.notice).toBe("3 lines copied to the clipboard (OSC 52)");

    const plain = await controller();
    press(plain.c, `${UP}c`);
    const body = plain.c.getSnapshot().body;
    expect(body).toEqual({ kind: "copy", lines: [printed(18, 1, "INFO req 18")] });
    press(plain.c, ESC);
    expect(plain.c.getSnapshot().body.kind).toBe("panes");
  });

  it("a log pane's key with a side pane focused says so instead of doing nothing", async () => {
    const { c } = await controller();
    press(c, "\tc");
    expect(c.state.notice).toBe("c works on the log pane: Tab to it first");
    press(c, "m");
    expect(c.state.notice).toBe("m works on the log pane: Tab to it first");
    expect(c.state.marks).toEqual([]);
  });

  it("rings the bell once for activities newly awaiting votes, not for those there at the start", async () => {
    const bell = vi.fn();
    const { feeds } = await controller({ bell });
    feeds.activities.store.succeed([activity("a1", "CONSENSUS_NEEDED", 1)], NOW, 5);
    expect(bell).not.toHaveBeenCalled();
    feeds.activities.store.succeed(
      [activity("a1", "CONSENSUS_NEEDED", 1), activity("a9", "CONSENSUS_NEEDED", 1)],
      NOW,
      5,
    );
    expect(bell).toHaveBeenCalledTimes(1);
    feeds.activities.store.succeed([activity("a9", "CONSENSUS_NEEDED", 1)], NOW, 5);
    expect(bell).toHaveBeenCalledTimes(1);
  });

  it("q quits through its port; D opens the picker, or says there is none", async () => {
    const picker = vi.fn();
    const { c, quit } = await controller({ picker });
    press(c, "D");
    expect(picker).toHaveBeenCalledOnce();
    press(c, "q");
    expect(quit).toHaveBeenCalledOnce();
    const without = await controller();
    press(without.c, "D");
    expect(without.c.state.notice).toContain("no deployment picker here");
  });
});

describe("the dashboard over saved lines (no follow, no side panes, no voting)", () => {
  async function saved() {
    const store = new LogStore({ maxLines: 1000 });
    store.append(
      Array.from({ length: 30 }, (_, i) =>
        line(i, (i % 2) + 1, i % 5 === 0 ? `ERROR e${i}` : `INFO i${i}`),
      ),
    );
    const quit = vi.fn();
    const c = new DashboardController(
      { logs: savedLogs(store), clock: stoppedClock(), quit },
      {
        heading: { kind: "named", name: "errors.ndjson · 30 lines", deploymentId: "dep-1" },
        size: { columns: 160, rows: 48 },
      },
    );
    c.start();
    return { c, store };
  }

  it("a search that runs out of its budget goes on once the rows are judged, wrapping as it would have", async () => {
    const lines = 20_000;
    const store = new LogStore({ maxLines: lines });
    store.append(
      Array.from({ length: lines }, (_, i) =>
        line(i, 1, i === lines / 2 ? "ERROR the needle" : `INFO hay ${i}`),
      ),
    );
    // Every reading of the clock moves it on a millisecond: each budget runs out after its
    // fixed minimum of rows, so the key's find cannot judge the buffer at once.
    let t = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => (t += 1));
    const c = new DashboardController(
      { logs: savedLogs(store), clock: stoppedClock(), quit: vi.fn() },
      { heading: { kind: "named", name: "hay.log", deploymentId: "dep-1" } },
    );
    try {
      c.start();
      press(c, " ");
      expect(c.state.cursor).toBe(lines);
      press(c, "/needle\r");
      expect(c.state.notice).toMatch(/^reading the lines for the filters and search/);
      await waitFor(() => c.state.cursor === lines / 2 + 1, "the find went on once judged");
      expect(c.state).toMatchObject({
        notice: "search wrapped to the oldest line",
        matchPosition: { index: 1, total: 1 },
      });
      // Judged, the next one is found at once; round to the same line, it says so again.
      press(c, "N");
      expect(c.state).toMatchObject({
        cursor: lines / 2 + 1,
        notice: "search wrapped to the newest line",
      });
    } finally {
      c.stop();
      clock.mockRestore();
    }
  });

  it("shows only the log, names what the caller named, and says the lines are saved", async () => {
    const { c } = await saved();
    const s = c.getSnapshot();
    expect(text([{ text: s.title }])).toBe("tvcwatch · errors.ndjson · 30 lines");
    if (s.body.kind !== "panes") throw new Error("no panes");
    expect(s.body.side).toBeUndefined();
    expect(s.body.log.box.outer.width).toBe(160);
    expect(s.body.log.view.rows.length).toBeGreaterThan(20);
    expect(status(s)).toContain("○ saved lines");
  });

  it("reading keys work; those of the live follow and the side panes say why not", async () => {
    const { c } = await saved();
    press(c, "L");
    press(c, "L");
    press(c, "L");
    press(c, "L");
    const s = c.getSnapshot();
    if (s.body.kind !== "panes") throw new Error("no panes");
    expect(s.body.log.view.rows.every((r) => text(r.segments).includes("ERROR"))).toBe(true);
    press(c, "r");
    expect(c.state.notice).toBe("nothing is followed here: these are saved lines");
    press(c, "s");
    expect(c.state.notice).toBe("no side panes here: only the log is shown");
    press(c, "\t");
    expect(c.state.focus).toBe("logs");
    press(c, "A");
    expect(c.state.notice).toBe("A approves activities: there are none here");
    press(c, "i");
    const detail = c.getSnapshot().body;
    expect(detail.kind).toBe("detail");
    if (detail.kind === "detail") expect(detail.view?.title).toBe("Log");
  });
});

describe("the side panes on the log's clock", () => {
  /** Lines at NOW-200s and NOW-95s, then the usual 20 from NOW-60s. */
  async function clocked() {
    const parts = await dashboardParts();
    parts.store.append([
      line(-1400, 1, "INFO long ago"),
      line(-350, 2, "ERROR near the failure"),
      ...Array.from({ length: 20 }, (_, i) => line(i, (i % 3) + 1, `INFO req ${i}`)),
    ]);
    const c = new DashboardController(
      {
        logs: { store: parts.store, follow: new FakeFollow() },
        feeds: parts.feeds,
        clock: stoppedClock(),
        quit: vi.fn(),
      },
      { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
    );
    c.start();
    await settle();
    return c;
  }
  const side = (c: DashboardController) => {
    const body = c.getSnapshot().body;
    if (body.kind !== "panes" || !body.side) throw new Error("no side panes");
    return body.side;
  };

  it("T switches the panes' times with the log's: ages, local times of day, relative", async () => {
    const c = await clocked();
    expect(side(c).activities.clock.times).toBe("age");
    press(c, "T");
    expect(c.getSnapshot().ui.time).toBe("absolute");
    for (const pane of ["activities", "email", "solana"] as const)
      expect(side(c)[pane].clock.times).toBe("absolute");
    press(c, "T");
    expect(side(c).solana.clock.times).toBe("relative");
    press(c, "T");
    expect(side(c).email.clock.times).toBe("age");
  });

  it("following live, the panes follow no time and keep their window on the selection", async () => {
    const c = await clocked();
    const s = side(c);
    for (const pane of ["activities", "email", "solana"] as const) {
      expect(s[pane].clock.at).toBeUndefined();
      expect(s[pane].near).toBeUndefined();
      expect(s[pane].anchor).toBe(s[pane].selection.anchor);
    }
  });

  it("J puts the log's cursor on a time, and every pane marks the records nearest it", async () => {
    const c = await clocked();
    press(c, "J-95s\r");
    const ui = c.getSnapshot().ui;
    expect(ui.following).toBe(false);
    const s = side(c);
    const at = NOW - 95_000;
    for (const pane of ["activities", "email", "solana"] as const)
      expect(s[pane].clock.at).toBe(at);
    // Activities a1 (30 s old), a2 (90 s), a3 (200 s): a2 is nearest, a3 the last before.
    const ids = s.activities.summary.rows.map((r) => r.id);
    expect(s.activities.anchor).toBe(ids.indexOf("a2"));
    expect([...(s.activities.near?.marked ?? [])].map((i) => ids[i]).sort()).toEqual(["a2", "a3"]);
    // One email message and one transfer: each is the nearest of its pane.
    expect(s.email.near?.anchor).toBe(0);
    expect(s.solana.near?.anchor).toBe(0);
  });

  it("the cursor moved, the panes follow it; back to following live, they follow nothing", async () => {
    const c = await clocked();
    press(c, "J-95s\r");
    press(c, "J-200s\r");
    const s = side(c);
    const ids = s.activities.summary.rows.map((r) => r.id);
    expect(s.activities.clock.at).toBe(NOW - 200_000);
    expect(s.activities.anchor).toBe(ids.indexOf("a3"));
    expect([...(s.activities.near?.marked ?? [])]).toEqual([ids.indexOf("a3")]);
    press(c, " ");
    expect(c.getSnapshot().ui.following).toBe(true);
    expect(side(c).activities.clock.at).toBeUndefined();
  });

  it("a focused pane keeps its window on its own selection while it marks the nearest", async () => {
    const c = await clocked();
    press(c, "J-200s\r");
    press(c, "\t");
    expect(c.getSnapshot().ui.focus).toBe("activities");
    const s = side(c).activities;
    expect(s.anchor).toBe(s.selection.anchor);
    expect(s.near?.anchor).not.toBe(s.selection.anchor);
  });
});
