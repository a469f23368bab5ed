/**
 * The side panes' events among the log's lines (`I`), through the controller without a terminal:
 * hidden until I, then in time order among the lines; the filters (f, F, L, =) and search (/ n)
 * judge them as lines; a poll's new status is one new event; I again hides them.
 */
import { describe, expect, it } from "vitest";
import { DashboardController } from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import { initialUiState, uiReducer } from "../../../src/tui/state/ui-state.js";
import { settle } from "../../helpers/settle.js";
import { activity, dashboardParts, line, NOW } from "../fixtures.js";
import { stoppedClock } from "../render-dashboard.js";

const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");

function rows(s: DashboardSnapshot): string[] {
  if (s.body.kind !== "panes") throw new Error("no panes");
  return s.body.log.view.rows.map((r) => text(r.segments));
}

const GLYPHS = /^[> *]?[◆◇✓✉◎▣] /u;
const eventRows = (s: DashboardSnapshot) => rows(s).filter((r) => GLYPHS.test(r.trimStart()));

function press(c: DashboardController, keys: string): void {
  for (const k of Array.from(keys)) {
    if (k === "\r") c.press("", { return: true });
    else c.press(k, {});
  }
}

async function dashboard() {
  const parts = await dashboardParts();
  // Lines from 60 s to 58 s before NOW; the activities 200, 90 and 30 s before, the email
  // events 5 and 4.2 s before, the transfer 3 s before.
  parts.store.append(Array.from({ length: 20 }, (_, i) => line(i, (i % 3) + 1, `INFO req ${i}`)));
  // A line after every event (10 s after NOW): the events wait for the log to reach their time.
  parts.store.append([line(700, 1, "INFO newest")]);
  const c = new DashboardController(
    {
      logs: { store: parts.store, follow: parts.follower },
      feeds: parts.feeds,
      clock: stoppedClock(),
      quit: () => {},
    },
    { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
  );
  c.start();
  await settle();
  return { c, ...parts };
}

describe("the side panes' events in the log (I)", () => {
  it("are hidden until I, then shown in time order among the lines; I again hides them", async () => {
    const { c } = await dashboard();
    expect(eventRows(c.getSnapshot())).toEqual([]);
    expect(rows(c.getSnapshot())).toHaveLength(21);
    press(c, "I");
    const s = c.getSnapshot();
    expect(text(s.status)).toContain("◆ events");
    const all = rows(s).map((r) => r.trim());
    const at = (needle: string) => all.findIndex((r) => r.includes(needle));
    // Each kind with its glyph: created, status, vote, email, Solana.
    expect(all[at("a3 created")]).toMatch(/^◆ activity a3 created: sign_transaction v2/);
    expect(all[at("a2 sign_transaction v2: FAILED")]).toMatch(/^◇ /);
    expect(all[at("vote on activity a1")]).toMatch(/^✓ .*approved by root-2/);
    expect(all[at("email Bounce")]).toMatch(/^✉ email Bounce to alice@example.com/);
    expect(all[at("solana IN")]).toMatch(/^◎ solana IN 1\.5 SOL from Sender1/);
    // In time order with the lines: the older activities before the first line, the rest after
    // the last.
    const order = [
      at("a3 created"),
      at("a2 created"),
      at("INFO req 0"),
      at("INFO req 19"),
      at("a1 created"),
      at("email Send"),
      at("email Bounce"),
      at("solana IN"),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(eventRows(s).length).toBe(all.length - 21);
    press(c, "I");
    expect(eventRows(c.getSnapshot())).toEqual([]);
    expect(text(c.getSnapshot().status)).not.toContain("◆ events");
  });

  it("are judged by the include, exclude, level and field filters as lines are", async () => {
    const { c } = await dashboard();
    press(c, "I");
    press(c, "femail\r");
    expect(rows(c.getSnapshot()).map((r) => r.trim())).toEqual([
      expect.stringMatching(/^✉ email Send/),
      expect.stringMatching(/^✉ email Bounce/),
    ]);
    press(c, "FBounce\r");
    expect(rows(c.getSnapshot()).map((r) => r.trim())).toEqual([
      expect.stringMatching(/^✉ email Send/),
    ]);
    press(c, "X");
    // L to error: a failed activity's status counts as an error, the INFO lines go.
    press(c, "LLLL");
    expect(rows(c.getSnapshot()).map((r) => r.trim())).toEqual([
      expect.stringMatching(/^◇ activity a2 sign_transaction v2: FAILED/),
    ]);
    press(c, "X");
    // = reads an event's fields and its kind.
    press(c, "=kind = solana\r");
    expect(rows(c.getSnapshot()).map((r) => r.trim())).toEqual([
      expect.stringMatching(/^◎ solana IN/),
    ]);
    press(c, "X");
    press(c, "=activityId = a1 and kind = vote\r");
    expect(rows(c.getSnapshot()).map((r) => r.trim())).toEqual([
      expect.stringMatching(/^✓ vote on activity a1/),
    ]);
  });

  it("are found by search and n, the cursor on them; hidden, search passes them by", async () => {
    const { c } = await dashboard();
    press(c, "/Bounce\r");
    // Hidden: nothing holds a match.
    expect(rows(c.getSnapshot()).some((r) => r.includes(">"))).toBe(false);
    press(c, "I");
    press(c, "/Bounce\r");
    const cursorRow = rows(c.getSnapshot()).find((r) => r.startsWith(">"));
    expect(cursorRow).toMatch(/^>✉ email Bounce/);
    expect(text(c.getSnapshot().status)).toContain("1/1");
    press(c, "/activity a1\r");
    // Toward newer lines from the cursor: none newer, so it wraps to the oldest (a1 created).
    expect(rows(c.getSnapshot()).find((r) => r.startsWith(">"))).toMatch(/^>◆ activity a1 created/);
    press(c, "n");
    expect(rows(c.getSnapshot()).find((r) => r.startsWith(">"))).toMatch(/^>◇ activity a1/);
    press(c, "N");
    expect(rows(c.getSnapshot()).find((r) => r.startsWith(">"))).toMatch(/^>◆ activity a1 created/);
    // Enter opens the event's detail: its kind, time and fields.
    c.press("", { return: true });
    const body = c.getSnapshot().body;
    expect(body.kind).toBe("detail");
    expect(JSON.stringify(body)).toContain("activityId");
  });

  it("takes each poll's news once: a status change is one new event, the rest not repeated", async () => {
    const { c, feeds } = await dashboard();
    press(c, "I");
    const before = eventRows(c.getSnapshot());
    const a1 = activity("a1", "COMPLETED", 30_000);
    feeds.activities.store.succeed(
      [
        { ...a1, updatedAt: String(NOW - 1000) },
        activity("a2", "FAILED", 90_000),
        activity("a3", "COMPLETED", 200_000),
      ],
      NOW,
      5,
    );
    const after = eventRows(c.getSnapshot());
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)?.trim()).toMatch(
      /^◇ activity a1 sign_transaction v2: CONSENSUS_NEEDED → COMPLETED/,
    );
  });

  it("wait for the log to reach their time before going among its lines", async () => {
    const parts = await dashboardParts();
    // Lines up to 58 s before NOW: the email events (5 s before) and the transfer wait.
    parts.store.append(Array.from({ length: 20 }, (_, i) => line(i, 1, `INFO req ${i}`)));
    const c = new DashboardController(
      {
        logs: { store: parts.store, follow: parts.follower },
        feeds: parts.feeds,
        clock: stoppedClock(),
        quit: () => {},
      },
      { heading: { kind: "deployments", deploymentId: "d" }, size: { columns: 160, rows: 48 } },
    );
    c.start();
    await settle();
    press(c, "I");
    const before = rows(c.getSnapshot()).map((r) => r.trim());
    expect(before.some((r) => r.startsWith("◆ activity a3 created"))).toBe(true);
    expect(before.some((r) => r.startsWith("✉ "))).toBe(false);
    expect(parts.store.eventCount()).toBe(eventRows(c.getSnapshot()).length);
    // A line 4.5 s before NOW: the first email event (5 s before) goes in before it.
    parts.store.append([line(555, 2, "INFO later")]);
    const after = rows(c.getSnapshot()).map((r) => r.trim());
    expect(after.slice(-2)).toEqual([
      expect.stringMatching(/^✉ email Send/),
      expect.stringMatching(/^\[2\] INFO later/),
    ]);
    expect(after.some((r) => r.startsWith("✉ email Bounce"))).toBe(false);
  });

  it("are toggled by a pure reducer action", () => {
    const on = uiReducer(initialUiState, { type: "toggleEvents" });
    expect(on.events).toBe(true);
    expect(initialUiState.events).toBe(false);
    expect(uiReducer(on, { type: "toggleEvents" }).events).toBe(false);
  });
});
