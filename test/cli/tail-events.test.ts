/**
 * `tail --events` as a user runs it, against the simulator: the side panes' events among the
 * lines in time order (text: glyph, time, text; -o json: records with a `kind` and the fields),
 * nothing for a source not configured, and the flags it cannot go with refused in one line.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PANE_EVENT_KINDS } from "../../src/logs/model/pane-event.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { runCli } from "../helpers/run-cli.js";

let sim: RunningSimulator;
let config: string;
let bare: string;

beforeAll(async () => {
  // 150 lines/s over its 3 replicas: the first test, run at once, finds lines since the start.
  sim = await startSimulator({ port: 0, seed: 38, logRate: 50 });
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-tail-events-"));
  config = join(dir, "sim.json");
  writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
  // The same organization with no email recipient and no Solana address.
  bare = join(dir, "bare.json");
  const {
    emails: _e,
    solanaAddresses: _s,
    ...rest
  } = sim.config as unknown as Record<string, unknown>;
  writeFileSync(bare, JSON.stringify(rest), { mode: 0o600 });
});
afterAll(() => sim.close());

const GLYPH = /^[◆◇✓✉◎▣] /u;
/** Each printed row's time (a line's RFC 3339 prefix, an event's after its glyph), to the ms. */
function timeOf(row: string): string {
  const m = /^(?:[◆◇✓✉◎▣] )?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})/u.exec(row);
  if (!m) throw new Error(`no time in ${row}`);
  return m[1] as string;
}

describe("tail --events", () => {
  it("prints each kind's events with glyph, time and text among the lines, in time order", async () => {
    const r = await runCli([
      "--config",
      config,
      "tail",
      "--events",
      "--since",
      "10m",
      "--timestamps",
      "--utc",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => l !== "" && !l.startsWith(" "));
    const events = rows.filter((l) => GLYPH.test(l));
    const lines = rows.filter((l) => l.includes(" [replica "));
    expect(lines.length).toBeGreaterThan(10);
    expect(events.some((e) => /^◆ \S+Z activity \S+ created: /u.test(e))).toBe(true);
    expect(events.some((e) => /^◇ \S+Z activity \S+ .*: [A-Z_]+$/u.test(e))).toBe(true);
    expect(events.some((e) => /^✉ \S+Z email \S+ to \S+@example\.com/u.test(e))).toBe(true);
    expect(events.some((e) => /^◎ \S+Z solana (IN|OUT) /u.test(e))).toBe(true);
    const times = rows.filter((l) => GLYPH.test(l) || /^\d{4}-/.test(l)).map(timeOf);
    expect([...times].sort()).toEqual(times);
  });

  it("-o json: each event a record with its kind, time, text and fields, in order with the lines", async () => {
    const r = await runCli([
      "--config",
      config,
      "tail",
      "--events",
      "--since",
      "10m",
      "-o",
      "json",
    ]);
    expect(r.code).toBe(0);
    const records = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const events = records.filter((x) => x.event === "pane_event");
    expect(events.length).toBeGreaterThan(3);
    for (const e of events) {
      expect(PANE_EVENT_KINDS).toContain(e.kind);
      expect(typeof e.text).toBe("string");
      expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(typeof e.fields).toBe("object");
    }
    const created = events.find((e) => e.kind === "activity") as { fields: { activityId: string } };
    expect(created.fields.activityId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(events.map((e) => e.kind))).toEqual(
      new Set(["activity", "status", "email", "solana", ...events.map((e) => e.kind)]),
    );
    const times = records
      .map((x) => x.time)
      .filter((t): t is string => typeof t === "string")
      .map((t) => t.slice(0, 23));
    expect([...times].sort()).toEqual(times);
    expect(records.some((x) => typeof x.content === "string")).toBe(true);
  });

  it("says nothing for a source not configured, and the filters judge events as lines", async () => {
    const r = await runCli(["--config", bare, "tail", "--events", "--since", "10m"]);
    expect(r.code).toBe(0);
    const events = r.stdout.split("\n").filter((l) => GLYPH.test(l));
    expect(events.some((e) => e.startsWith("◆ "))).toBe(true);
    expect(events.some((e) => e.startsWith("✉ ") || e.startsWith("◎ "))).toBe(false);
    const votes = await runCli([
      "--config",
      config,
      "tail",
      "--events",
      "--since",
      "10m",
      "--where",
      "kind = email",
    ]);
    const printed = votes.stdout.split("\n").filter(Boolean);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((l) => !/^✉ \S+ email /u.test(l))).toEqual([]);
  });

  it("refuses what it cannot go with, in one line", async () => {
    for (const [args, message] of [
      [["-o", "otlp"], "tvcwatch: --events prints to stdout: not with -o otlp\n"],
      [
        ["--app", "payments-signer"],
        "tvcwatch: --events prints one deployment's events: not with several --deployment, --app or --all\n",
      ],
    ] as const) {
      const r = await runCli(["--config", config, "tail", "--events", ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(message);
    }
  });
});
