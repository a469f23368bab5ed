import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { startSimProcess } from "../helpers/sim-process.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * Issue #28's first report, in a real terminal against the simulator: the Activities pane shows
 * what awaits my vote, a row is selected, and the second root user submits a new activity from
 * another terminal. It arrives at the top; the highlight, Enter and A stay on the activity
 * selected, not on the row that took its place.
 */

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-selection-"));
const config = join(dir, "sim.json");
const lead = join(dir, "sim.sre-lead.json");
let sim: ChildProcess;
const tmux = new Tmux();

beforeAll(async () => {
  requireTmux();
  const started = await startSimProcess(["--seed", "21", "--write-config", config]);
  sim = started.process;
}, 30_000);

afterAll(() => {
  tmux.kill();
  sim?.kill("SIGTERM");
});

/** The detail view's activity id. */
const detailId = (s: string) => /[│║] id +([0-9a-f-]{36})/.exec(s)?.[1];
/** The highlighted (inverse) rows, without their attributes. */
const highlighted = (withAttributes: string) =>
  withAttributes
    .split("\n")
    .filter((l) => /\u001b\[[0-9;]*7m/.test(l))
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, ""));

describe("selection by identity, in a real terminal against the simulator", () => {
  it("a new activity from the second root user arrives at the top: Enter and A still name the one selected", async () => {
    tmux.start(["--config", config, "--no-bell"], { columns: 160, rows: 48 });
    await tmux.waitFor(
      "the activities awaiting my vote",
      (s) => s.includes("● live") && /⚑ ([3-9]|\d\d+) awaiting your vote/.test(s),
      { timeoutMs: 30_000 },
    );
    tmux.keys("Tab", "v");
    await tmux.waitFor("the filter", (s) => s.includes("Activities · awaiting my vote"));
    tmux.keys("Down", "Down", "Enter");
    const opened = await tmux.waitFor("the selected activity's detail", (s) => !!detailId(s));
    const selected = detailId(opened) as string;
    tmux.keys("Escape");
    await tmux.waitFor("the list again", (s) => detailId(s) === undefined);
    const prefix = selected.slice(0, 8);
    await tmux.waitFor(
      "the selected row highlighted",
      (s) => highlighted(s).join("\n").includes(prefix),
      {
        attributes: true,
      },
    );

    // The second root user submits an activity: it awaits my vote, newest first.
    const submitted = await runCli([
      "--config",
      lead,
      "call",
      "set_organization_feature",
      "--body",
      '{"name":"FEATURE_NAME_WEBHOOK","value":"https://hooks.example/x"}',
    ]);
    expect(submitted.code).toBe(0);
    const arrived = (JSON.parse(submitted.stdout) as { activity: { id: string } }).activity.id;
    // Newest first: it arrives above the selected row (the pane keeps the selection in view),
    // and the highlight stays on the one selected.
    const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "");
    await tmux.waitFor(
      "the new activity in the pane, the highlight where it was",
      (s) => {
        const rows = plain(s).split("\n");
        expect(
          rows.some((l) => /consensus +[0-9a-f]{8}/.test(l) && l.includes(arrived.slice(0, 8))),
        ).toBe(true);
        expect(highlighted(s).join("\n")).toContain(prefix);
      },
      { attributes: true },
    );

    tmux.keys("Enter");
    const again = await tmux.waitFor("the detail", (s) => !!detailId(s));
    expect(detailId(again)).toBe(selected);
    tmux.keys("Escape");
    await tmux.waitFor("the list again", (s) => detailId(s) === undefined);

    tmux.keys("A");
    await tmux.waitFor("the confirmation, of the one selected", (s) => {
      expect(s).toContain("Approve this activity?");
      expect(s).toMatch(new RegExp(`activity +${selected}`));
      expect(s).not.toContain(arrived);
    });
    tmux.keys("n");
    await tmux.waitFor("cancelled", (s) => s.includes("not approved: cancelled, nothing was sent"));
  }, 90_000);
});
