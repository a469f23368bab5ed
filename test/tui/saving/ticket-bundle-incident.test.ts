/**
 * The bundle is the incident (src/tui/saving/ticket-bundle.ts): `S b` on a live dashboard writes
 * the side panes' records of the lines' time range (activities with the status changes and
 * votes seen, email events, Solana transactions), the marks and `!`'s finding with its rule;
 * `open` on that file shows the same records in the same panes, read-only, the marks back on
 * their lines, the events and the finding in `i`. Read back, every record is untrusted: one that
 * fails the API's schema is left out and said in one line, secrets are redacted again.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { serializeTransaction } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Activity, EmailEvent, SolTransaction } from "../../../src/api/schemas.js";
import type { Feeds } from "../../../src/feeds/feeds.js";
import { Poller } from "../../../src/feeds/poller.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { type OpenedLogs, openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import { Dashboard } from "../../../src/tui/components/dashboard.js";
import { DashboardController } from "../../../src/tui/controller/dashboard-controller.js";
import type { DashboardSnapshot } from "../../../src/tui/controller/dashboard-views.js";
import {
  BUNDLE_READ_ONLY,
  readBundleIncident,
  type SavedDashboard,
  savedDashboard,
} from "../../../src/tui/controller/saved-dashboard.js";
import { timeOfDay } from "../../../src/tui/panes/pane-clock.js";
import { INCIDENT_START, incidentRows } from "../../helpers/saved-incident.js";
import { settle } from "../../helpers/settle.js";
import { waitFor } from "../../helpers/wait-for.js";
import { activity, EMAILS, JWT, SOL, stampLogin } from "../fixtures.js";
import { renderAt } from "../render-at.js";
import { renderDashboard, stoppedClock } from "../render-dashboard.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-bundle-incident-"));
const running: { o: OpenedLogs; d: SavedDashboard }[] = [];
afterEach(() => {
  for (const { o, d } of running.splice(0)) {
    d.stop();
    o.close();
  }
});

const at = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: "0" });
/** An activity of the incident: created `createdMs` after its start, last updated `updatedMs`. */
function incidentActivity(id: string, status: string, createdMs: number, updatedMs = createdMs) {
  const a = activity(id, status, 0);
  return {
    ...a,
    createdAt: at(INCIDENT_START + createdMs),
    updatedAt: String(INCIDENT_START + updatedMs),
  } as Activity;
}

function feed<T>(data: T): Poller<T> {
  const p = new Poller<T>({ intervalMs: 60_000, fetch: async () => data });
  p.store.succeed(data, INCIDENT_START, 0);
  return p;
}

const SIGNING = "0193a4b2-7c1d-7e00-9f3a-5b6c7d8e9f01";
/** 0.25 ETH to 0x41E4…7e0B on Sepolia, nonce 1, EIP-1559 (viem's serializeTransaction). */
const ETH_TRANSFER = serializeTransaction({
  chainId: 11155111,
  type: "eip1559",
  to: "0x41E4a0F1996E2A13b65E68C224100594b20d7e0B",
  value: 250_000_000_000_000_000n,
  nonce: 1,
  gas: 21_000n,
  maxFeePerGas: 16_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}).slice(2);
const TX = SOL[0] as SolTransaction;
const LOGIN = {
  ...stampLogin,
  createdAt: at(INCIDENT_START + 10_000),
  updatedAt: String(INCIDENT_START + 11_000),
};

async function liveBundle() {
  const store = new LogStore({ maxLines: 100_000 });
  store.append(incidentRows().map((r) => r.event));
  const pending = incidentActivity(SIGNING, "PENDING", 14_000);
  const email: EmailEvent[] = EMAILS.map((e, i) => ({
    ...e,
    timestamp: String(INCIDENT_START + 12_000 + i * 800),
  }));
  const sol: SolTransaction[] = [
    {
      ...TX,
      block: { ...TX.block, timestamp: new Date(INCIDENT_START + 15_000).toISOString() },
    } as SolTransaction,
    // Before the lines' time: not part of the bundle.
    {
      ...TX,
      signature: "sig-before",
      block: { ...TX.block, timestamp: new Date(INCIDENT_START - 600_000).toISOString() },
    } as SolTransaction,
  ];
  const feeds: Feeds = {
    activities: feed<Activity[]>([
      pending,
      LOGIN,
      // Long before the lines: left out.
      incidentActivity("act-old-000001", "COMPLETED", -900_000),
    ]),
    email: feed(email),
    solana: feed(new Map([["addr", sol]])),
  };
  const files: { path: string; text: string }[] = [];
  const c = new DashboardController(
    {
      logs: { store },
      feeds,
      files: { writeNew: (path, text) => void files.push({ path, text }) },
      clock: stoppedClock(INCIDENT_START + 125_000),
      quit: vi.fn(),
    },
    { heading: { kind: "deployments", deploymentId: "dep-1" }, size: { columns: 160, rows: 48 } },
  );
  c.start();
  // The signing activity's status moves on as a poll sees it, with a vote.
  feeds.activities.store.succeed(
    [
      {
        ...incidentActivity(SIGNING, "COMPLETED", 14_000, 19_000),
        votes: [
          {
            id: "vote-1",
            userId: "root-2",
            activityId: SIGNING,
            selection: "VOTE_SELECTION_APPROVED",
            createdAt: String(INCIDENT_START + 18_000),
          },
        ],
      },
      LOGIN,
      incidentActivity("act-old-000001", "COMPLETED", -900_000),
    ],
    INCIDENT_START + 60_000,
    0,
  );
  // Two marks (g: the oldest line, then m; ! goes to the onset, m again), then S b (between the
  // marks), Enter, Enter.
  for (const k of ["g", "m", "!", "m", "S", "b"]) c.press(k, {});
  c.press("", { return: true });
  c.press("", { return: true });
  // The bundle's writer is loaded when a bundle is saved: real time, waited for.
  await waitFor(() => files.length > 0, "the bundle written");
  await settle();
  c.stop();
  expect(files).toHaveLength(1);
  return files[0] as { path: string; text: string };
}

async function reopen(text: string, name: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const o = await openSavedLogs([path]);
  await o.indexed;
  const d = savedDashboard(
    o,
    { clock: stoppedClock(INCIDENT_START + 200_000), quit: vi.fn() },
    { columns: 160, rows: 48 },
    {},
    await readBundleIncident(o.log.header()),
  );
  running.push({ o, d });
  return d.controller;
}

const text = (segments: readonly { text: string }[]) => segments.map((s) => s.text).join("");
const detail = (s: DashboardSnapshot) => {
  if (s.body.kind !== "detail" || !s.body.view) throw new Error(`no detail: ${s.body.kind}`);
  return s.body.view.fields.map((f) => `${f.label} ${f.lines.join(" | ")}`).join("\n");
};
const side = (s: DashboardSnapshot) => {
  if (s.body.kind !== "panes" || !s.body.side) throw new Error("no side panes");
  return s.body.side;
};

describe("a ticket bundle holds the incident", () => {
  it("round trip: the records of its range in the same panes, read-only, marks and ! kept", async () => {
    const saved = await liveBundle();
    const header = JSON.parse(saved.text.split("\n")[0] as string).tvcwatch;
    // Secrets are never written: the session of the stamp_login is redacted.
    expect(saved.text).not.toContain(JWT);
    expect(header.incident.marks).toHaveLength(2);
    expect(header.incident.onset.rule).toMatch(/^(new|rose most)$/);

    const c = await reopen(saved.text, "bundle.ndjson");
    const panes = side(c.getSnapshot());
    expect(panes.activities.summary.rows.map((r) => [r.id, r.activity.status, r.votes])).toEqual([
      [SIGNING, "ACTIVITY_STATUS_COMPLETED", 1],
      ["act-login", "ACTIVITY_STATUS_COMPLETED", 1],
    ]);
    expect(panes.email.messages.map((m) => [m.messageId, m.steps.length])).toEqual([["m1", 2]]);
    expect(panes.solana.rows.map((r) => r.tx.signature)).toEqual(["sig1"]);
    // The marks are back on the lines they were on.
    await waitFor(() => c.state.marks.length === 2, "the bundle's marks restored");

    // A and R say why they cannot act here, and nothing is said to await a vote from here.
    expect(text(c.getSnapshot().status)).not.toContain("awaiting");
    c.press("\t", { tab: true });
    c.press("A", {});
    expect(c.state.notice).toBe(`cannot approve: ${BUNDLE_READ_ONLY}`);
    // The same keys: Enter opens the activity's detail as live.
    c.press("", { return: true });
    expect(detail(c.getSnapshot())).toContain(SIGNING);
    c.press("", { escape: true });
    // i lists what the panes saw happen and what ! found, with its rule.
    c.press("i", {});
    const about = detail(c.getSnapshot());
    expect(about).toMatch(
      /recorded 2 activities · 2 email events · 1 Solana transaction · 2 marks/,
    );
    expect(about).toMatch(
      new RegExp(`events seen .*activity ${SIGNING} sign_transaction v2: PENDING → COMPLETED`),
    );
    expect(about).toMatch(/vote on activity .* approved by root-2/);
    expect(about).toMatch(/! found .*rule: (new|rose most) · /);
  });

  it("an activity's detail shows what it signs decoded first, as live (without the API: no stored IDL or ABI)", async () => {
    const saved = await liveBundle();
    const [first, ...rest] = saved.text.split("\n");
    const header = JSON.parse(first as string);
    const signing = header.tvcwatch.incident.activities[0];
    signing.intent = {
      signTransactionIntentV2: {
        signWith: "0x3ee3fe38C584de9AA683f383bdF69F2B58DdEfE0",
        // viem's serializeTransaction of 0.25 ETH on Sepolia (EIP-1559), as the simulator makes them.
        unsignedTransaction: ETH_TRANSFER,
        type: "TRANSACTION_TYPE_ETHEREUM",
      },
    };
    const c = await reopen([JSON.stringify(header), ...rest].join("\n"), "decoded.ndjson");
    c.press("\t", { tab: true });
    c.press("", { return: true });
    await waitFor(
      () => detail(c.getSnapshot()).startsWith("decoded Ethereum transaction, EIP-1559"),
      "the detail's first field: the decoding",
    );
    const said = detail(c.getSnapshot());
    expect(said).toContain(
      "summary     sends 0.25 ETH to 0x41E4a0F1996E2A13b65E68C224100594b20d7e0B",
    );
    expect(said).toContain("chain       11155111 (Sepolia)");
  });

  it("reads an older bundle (no incident) as before, and says a malformed record in one line", async () => {
    const saved = await liveBundle();
    const [first, ...rest] = saved.text.split("\n");
    const header = JSON.parse(first as string);
    const { incident, ...older } = header.tvcwatch;
    const old = await reopen(
      [JSON.stringify({ tvcwatch: older }), ...rest].join("\n"),
      "older.ndjson",
    );
    // No incident: no side panes, as a bundle written before them opens.
    const body = old.getSnapshot().body;
    expect(body.kind === "panes" ? body.side : "not the panes").toBeUndefined();

    const secret = { ...incident.activities[1], result: { stampLoginResult: { session: JWT } } };
    const bad = {
      ...incident,
      activities: [incident.activities[0], { ...incident.activities[0], status: 7 }, secret],
      events: [...incident.events, { kind: "nonsense", at: "x", text: "" }],
    };
    const c = await reopen(
      [JSON.stringify({ tvcwatch: { ...older, incident: bad } }), ...rest].join("\n"),
      "malformed.ndjson",
    );
    const notice = c.state.notice ?? "";
    expect(notice).not.toContain("\n");
    expect(notice).toContain(
      "bundle records not read in part: incident.activities: 1 of 3 could not be read (#2: status:",
    );
    expect(notice).toContain("incident.events: 1 of");
    const rows = side(c.getSnapshot()).activities.summary.rows;
    expect(rows.map((r) => r.id)).toEqual([SIGNING, "act-login"]);
    // A secret in a file is redacted as it is read.
    expect(JSON.stringify(rows[1]?.activity)).not.toContain(JWT);
  });

  it("the panes show their records' times of day from the start, not ages from now; the live dashboard ages", async () => {
    const saved = await liveBundle();
    // Reopened days later: ages from now would say "5d" of every record.
    const path = join(dir, "days-later.ndjson");
    writeFileSync(path, saved.text);
    const o = await openSavedLogs([path]);
    await o.indexed;
    const d = savedDashboard(
      o,
      { clock: stoppedClock(INCIDENT_START + 5 * 86_400_000), quit: vi.fn() },
      { columns: 160, rows: 48 },
      {},
      await readBundleIncident(o.log.header()),
    );
    running.push({ o, d });
    const ui = renderAt(createElement(Dashboard, { controller: d.controller }), {
      columns: 160,
      rows: 48,
    });
    await settle(ui.frames);
    const frame = () => ui.lastFrame() ?? "";
    const panesAtTimesOfDay = (f: string) => {
      expect(f).toMatch(/│status +id +type +time +votes/);
      expect(f).toMatch(
        new RegExp(
          `│completed +0193a4b2 +sign_transaction v2 +${timeOfDay(INCIDENT_START + 14_000)} `,
        ),
      );
      expect(f).toContain(`│${timeOfDay(INCIDENT_START + 15_000)} IN `);
      expect(f).toContain(`│${timeOfDay(INCIDENT_START + 12_000)} Bounce `);
      expect(f).not.toMatch(/│ *5d /);
    };
    panesAtTimesOfDay(frame());
    expect(frame()).toContain("▸ Logs ");
    // T gives the log absolute times and keeps the panes' times of day; then relative, as live.
    d.controller.press("T", {});
    await settle(ui.frames);
    expect(frame()).toContain("Logs (absolute times)");
    panesAtTimesOfDay(frame());
    d.controller.press("T", {});
    await settle(ui.frames);
    expect(frame()).toMatch(/│completed +0193a4b2 +sign_transaction v2 +-[45]d /);
    d.controller.press("T", {});
    await settle(ui.frames);
    panesAtTimesOfDay(frame());
    ui.unmount();

    // The live dashboard keeps ages counted from now.
    const live = await renderDashboard({ size: { columns: 160, rows: 48 } });
    expect(live.frame()).toMatch(/│status +id +type +age +votes/);
    live.unmount();
  });
});
