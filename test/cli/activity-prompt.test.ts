/**
 * The confirmation of `tvcwatch activity approve|reject` in a real terminal (tmux): it shows what
 * is decided (type, the whole fingerprint even where it wraps, intent, creator and votes by name,
 * quorum progress, what the vote does) and asks; y votes, anything else sends nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Activity } from "../../src/api/schemas.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { BIN, runCli } from "../helpers/run-cli.js";

const socket = `tvcwatch-activity-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-activity-prompt-"));
let sim: RunningSimulator;
let demo: string;
let session = 0;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

/** Runs a command in a new tmux window of `columns`; returns its name. */
function run(command: string[], columns: number): string {
  session += 1;
  const name = `s${session}`;
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    String(columns),
    "-y",
    "40",
    `${command.join(" ")}; echo TVCWATCH-EXITED $?; sleep 60`,
  );
  return name;
}

/** The screen, wrapped lines joined (-J): a line the terminal wrapped reads whole. */
const screen = (name: string) => tmux("capture-pane", "-p", "-J", "-t", name);

async function waitFor(name: string, what: RegExp, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    last = screen(name);
    if (what.test(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
}

beforeAll(async () => {
  try {
    execFileSync("tmux", ["-V"]);
  } catch {
    throw new Error("tmux is needed for this test: apt-get install tmux (.ci/run installs it)");
  }
  sim = await startSimulator({ port: 0, seed: 23 });
  demo = join(dir, "sim.json");
  writeFileSync(demo, JSON.stringify(sim.config), { mode: 0o600 });
});

afterAll(async () => {
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
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

/** The program in a clean Turnkey environment (the config file given is all it reads). */
const cliWith = (config: string, ...args: string[]) => [
  "env",
  ...[
    "TURNKEY_BASE_URL",
    "TURNKEY_ORGANIZATION_ID",
    "TURNKEY_API_PUBLIC_KEY",
    "TURNKEY_API_PRIVATE_KEY",
    "TVCWATCH_CONFIG",
  ].flatMap((v) => ["-u", v]),
  "TERM=xterm-256color",
  process.execPath,
  BIN,
  "--config",
  config,
  ...args,
];
const cliIn = (...args: string[]) => cliWith(demo, ...args);

describe("the confirmation on a terminal", () => {
  it("shows what is decided; n sends nothing; y approves and completes it", {
    timeout: 60_000,
  }, async () => {
    const activity = await seededAwaiting();
    const first = run(cliIn("activity", "approve", activity.id), 80);
    const shown = await waitFor(first, /Approve this activity\? \[y\/N\]/);
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
    tmux("send-keys", "-t", first, "n", "Enter");
    const cancelled = await waitFor(first, /TVCWATCH-EXITED \d+/);
    expect(cancelled).toContain("tvcwatch: not approved: cancelled, nothing was sent");
    expect(cancelled).toContain("TVCWATCH-EXITED 1");
    expect((await seededAwaiting()).votes).toHaveLength(1);

    const second = run(cliIn("activity", "approve", activity.id), 120);
    await waitFor(second, /Approve this activity\? \[y\/N\]/);
    tmux("send-keys", "-t", second, "y", "Enter");
    const done = await waitFor(second, /TVCWATCH-EXITED \d+/);
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
    const name = run(cliWith(lead, "activity", "reject", id), 120);
    const shown = await waitFor(name, /Reject this activity\? \[y\/N\]/);
    expect(shown).toMatch(/created +\d+s ago by oncall-root/);
    expect(shown).toMatch(
      /your vote +rejecting leaves too few root users to approve it: it is REJECTED/,
    );
    tmux("send-keys", "-t", name, "C-c");
    const ended = await waitFor(name, /TVCWATCH-EXITED \d+/);
    expect(ended).toContain("tvcwatch: not rejected: interrupted");
    expect(ended).toContain("TVCWATCH-EXITED 130");
  });
});
