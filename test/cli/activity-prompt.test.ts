/**
 * The confirmation of `tvcwatch activity approve|reject` in a real terminal (tmux): it shows what
 * is decided (type, the whole fingerprint even where it wraps, intent, creator and votes by name,
 * quorum progress, what the vote does) and asks; y votes, anything else sends nothing.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Activity } from "../../src/api/schemas.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { requireTmux, Tmux } from "../e2e/tmux.js";
import { runCli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-activity-prompt-"));
let sim: RunningSimulator;
let demo: string;
const terminals: Tmux[] = [];

/** `tvcwatch <args>` in a terminal of `columns` x 40 of its own. */
function run(args: string[], columns: number): Tmux {
  const t = new Tmux();
  terminals.push(t);
  t.start(args, { columns, rows: 40 });
  return t;
}

/** The screen once `what` is on it, wrapped lines read whole. */
beforeAll(async () => {
  requireTmux();
  sim = await startSimulator({ port: 0, seed: 23 });
  demo = join(dir, "sim.json");
  writeFileSync(demo, JSON.stringify(sim.config), { mode: 0o600 });
});

afterAll(async () => {
  for (const t of terminals) t.kill();
  await sim?.close();
});

/** The seeded activity sre-lead submitted (and so approved): the demo key's vote completes it. */
async function seededAwaiting(): Promise<Activity> {
  const r = await runCli([
    "--config",
    demo,
    "activity",
    "list",
    "--status",
    "consensus",
    "--type",
    "set_organization_feature",
    "-o",
    "json",
  ]);
  const { activities } = JSON.parse(r.stdout) as { activities: Activity[] };
  const found = activities.find(
    (a) =>
      (a.intent.setOrganizationFeatureIntent as { name?: string }).name ===
      "FEATURE_NAME_WEBAUTHN_ORIGINS",
  );
  if (!found) throw new Error("the seeded WebAuthn-origins activity is not awaiting votes");
  return found;
}

/** The program's arguments with `config` as all it reads (the terminal's environment is clean). */
const cliWith = (config: string, ...args: string[]) => ["--config", config, ...args];
const cliIn = (...args: string[]) => cliWith(demo, ...args);

describe("the confirmation on a terminal", () => {
  it("shows what is decided; n sends nothing; y approves and completes it", {
    timeout: 60_000,
  }, async () => {
    const activity = await seededAwaiting();
    const first = run(cliIn("activity", "approve", activity.id), 80);
    const shown = await first.waitFor(
      "the vote's question",
      (screen) => /Approve this activity\? \[y\/N\]/.test(screen),
      { joined: true },
    );
    // At 80 columns the fingerprint wraps, whole.
    expect(shown).toContain(`fingerprint  ${activity.fingerprint}`);
    expect(shown).toContain("set_organization_feature (ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE)");
    expect(shown).toMatch(/created +\d+m ago by sre-lead/);
    expect(shown).toMatch(/votes +approved by sre-lead \(by submitting it\) \d+m ago/);
    expect(shown).toMatch(/CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for oncall-root/);
    expect(shown).toMatch(/name +FEATURE_NAME_WEBAUTHN_ORIGINS/);
    expect(shown).toMatch(
      /your vote +approving makes it 2 of 2: the quorum is reached and the activity runs/,
    );
    first.keys("n", "Enter");
    const cancelled = await first.waitFor(
      "the exit status",
      (screen) => /TVCWATCH-EXITED \d+/.test(screen),
      { joined: true },
    );
    expect(cancelled).toContain("tvcwatch: not approved: cancelled, nothing was sent");
    expect(cancelled).toContain("TVCWATCH-EXITED 1");
    expect((await seededAwaiting()).votes).toHaveLength(1);

    const second = run(cliIn("activity", "approve", activity.id), 120);
    await second.waitFor(
      "the vote's question",
      (screen) => /Approve this activity\? \[y\/N\]/.test(screen),
      { joined: true },
    );
    second.keys("y", "Enter");
    const done = await second.waitFor(
      "the exit status",
      (screen) => /TVCWATCH-EXITED \d+/.test(screen),
      { joined: true },
    );
    expect(done).toContain(`approved activity ${activity.id}: COMPLETED`);
    expect(done).toContain("TVCWATCH-EXITED 0");
  });

  it("reject asks too, saying a rejection decides it; Ctrl-C cancels (exit 130)", {
    timeout: 60_000,
  }, async () => {
    const submitted = await runCli([
      "--config",
      demo,
      "call",
      "set_organization_feature",
      "--body",
      '{"name":"FEATURE_NAME_SMS_AUTH","value":"true"}',
    ]);
    const { id } = JSON.parse(submitted.stdout).activity as Activity;
    const lead = join(dir, "lead.json");
    writeFileSync(
      lead,
      JSON.stringify({
        ...sim.config,
        apiPublicKey: sim.service.scenario.secondRootKey.publicKey,
        apiPrivateKey: sim.service.scenario.secondRootKey.privateKey,
      }),
      { mode: 0o600 },
    );
    const voter = run(cliWith(lead, "activity", "reject", id), 120);
    const shown = await voter.waitFor(
      "the vote's question",
      (screen) => /Reject this activity\? \[y\/N\]/.test(screen),
      { joined: true },
    );
    expect(shown).toMatch(/created +\d+s ago by oncall-root/);
    expect(shown).toMatch(
      /your vote +rejecting leaves too few root users to approve it: it is REJECTED/,
    );
    voter.keys("C-c");
    const ended = await voter.waitFor(
      "the exit status",
      (screen) => /TVCWATCH-EXITED \d+/.test(screen),
      { joined: true },
    );
    expect(ended).toContain("tvcwatch: not rejected: interrupted");
    expect(ended).toContain("TVCWATCH-EXITED 130");
  });
});
