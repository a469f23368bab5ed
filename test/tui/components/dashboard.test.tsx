import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { deploymentChoice } from "../../../src/feeds/deployment-list.js";
import { activity, JWT, line, stampLogin, voter } from "../fixtures.js";
import { type DashboardSetup, renderDashboard } from "../render-dashboard.js";

const LINES = Array.from({ length: 60 }, (_, i) =>
  line(i, (i % 3) + 1, i % 10 === 0 ? `ERROR failure number ${i}` : `INFO request ${i}`),
);

/** The dashboard over 60 lines (every tenth an error); at a size when one is given. */
async function setup(columns?: number, rows?: number, options: DashboardSetup = {}) {
  const size = columns !== undefined && rows !== undefined ? { columns, rows } : undefined;
  return renderDashboard({ lines: LINES, size, ...options });
}

describe("the dashboard", () => {
  it("fits 80x24: the live area is shorter than the terminal, side panes below the log", async () => {
    const { frame } = await setup(80, 24);
    const lines = frame().split("\n");
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(frame()).toContain("INFO request 59");
    expect(frame()).toMatch(/Activities[\s\S]*Email[\s\S]*Solana/);
    expect(frame()).toContain("● live");
  });

  it("puts the side panes beside the log from 120 columns, and hides them when narrow", async () => {
    const wide = await setup(160, 48);
    const row = wide
      .frame()
      .split("\n")
      .find((l) => l.includes("Logs"));
    expect(row).toContain("Activities");
    expect(wide.frame().split("\n").length).toBeLessThanOrEqual(47);
    const narrow = await setup(50, 20);
    expect(narrow.frame()).not.toContain("Activities");
  });

  it("shows activity counts, email timelines and exact Solana amounts", async () => {
    const { frame } = await setup(160, 48);
    expect(frame()).toContain("consensus 1 · failed 1 · completed 1");
    expect(frame()).toContain("Send → Bounce +800ms (Permanent / smtp; 550 user unknown)");
    expect(frame()).toContain("1.5 SOL");
    expect(frame()).toContain("net +1.5 SOL");
  });

  it("says which flag turns an unconfigured pane on", async () => {
    const { frame } = await setup(160, 48, { parts: { email: false, solana: false } });
    expect(frame()).toContain("--email ADDR");
    expect(frame()).toContain("--sol-address ADDR");
  });

  it("? shows the help with every key", async () => {
    const { frame, type } = await setup();
    await type("?");
    expect(frame()).toContain("tvcwatch keys");
    // Past the first page, found with / (live as typed, kept by Enter).
    await type("/1-9");
    expect(frame()).toContain("hide / show replica N");
    await type("\r");
    expect(frame()).toContain('tvcwatch keys · "1-9"');
    expect(frame()).not.toContain("quit");
    await type("\u001b");
    expect(frame()).toContain("quit");
    await type("\u001b");
    expect(frame()).not.toContain("tvcwatch keys");
  });

  it("Space pauses, counts new lines, and follows again", async () => {
    const { frame, type, store, settled } = await setup();
    await type(" ");
    store.append([line(100, 1, "INFO arrived while paused"), line(101, 2, "INFO another")]);
    await settled();
    expect(frame()).toContain("2 new lines");
    expect(frame()).not.toContain("arrived while paused");
    await type(" ");
    expect(frame()).toContain("arrived while paused");
    expect(frame()).toContain("following");
  });

  it("f filters by regex, F excludes, an invalid regex keeps the prompt open, Esc clears one at a time", async () => {
    const { frame, type } = await setup();
    await type("f");
    await type("ERROR");
    await type("\r");
    const logLines = frame()
      .split("\n")
      .filter((l) => /\[\d\]/.test(l));
    expect(logLines.length).toBe(6);
    expect(logLines.every((l) => l.includes("ERROR"))).toBe(true);
    expect(frame()).toContain("+/ERROR/");
    await type("F");
    await type("number 5");
    await type("\r");
    expect(frame()).not.toContain("failure number 50");
    await type("\u001b");
    expect(frame()).not.toContain("+/ERROR/");
    expect(frame()).toContain("-/number 5/");
    await type("\u001b");
    expect(frame()).toContain("INFO request 59");
    await type("f");
    await type("(");
    await type("\r");
    expect(frame()).toMatch(/include f \/\(▏ +invalid regex: missing closing \)/);
  });

  it("1-9 hide and show a replica", async () => {
    const { frame, type } = await setup();
    await type("1");
    expect(frame()).not.toMatch(/\[1\] /);
    expect(frame()).toContain("hidden 1");
    await type("1");
    expect(frame()).toMatch(/\[1\] /);
  });

  it("T shows timestamps and Ctrl-W wraps long lines", async () => {
    const { frame, type, store, settled } = await setup(80, 30, { parts: { email: false } });
    store.append([line(200, 1, `INFO ${"x".repeat(150)} END`)]);
    await settled();
    expect(frame()).not.toContain("END");
    await type("\u0017");
    expect(frame()).toContain("END");
    await type("T");
    expect(frame()).toMatch(/\d\d:\d\d:\d\d\.\d{6}/);
  });

  it("arrows, PgUp, g and G scroll; / and N find matches", async () => {
    const { frame, type } = await setup();
    await type("g");
    expect(frame()).toContain("INFO request 1 ");
    expect(frame()).toContain("paused");
    await type("G");
    expect(frame()).toContain("INFO request 59");
    await type("\u001b[A");
    // ↑ pauses with the cursor on the line above the newest: the view stays.
    expect(frame()).toMatch(/\[\d\]>.*request 58/);
    expect(frame()).toContain("INFO request 59");
    await type("\u001b[5~");
    expect(frame()).not.toContain("INFO request 59");
    expect(frame()).toContain("paused");
    await type("G");
    await type("/");
    await type("request 3\r");
    await type("N");
    expect(frame()).toContain("request 39");
  });

  it("s hides the side panes, Tab moves focus, Enter opens activity details", async () => {
    const { frame, type } = await setup(160, 48);
    await type("\t");
    await type("\r");
    expect(frame()).toContain("Activity sign_transaction v2");
    expect(frame()).toContain("fingerprint  sha256:a1");
    expect(frame()).toContain("can approve  yes");
    await type("\u001b");
    await type("s");
    expect(frame()).not.toContain("Activities");
  });

  it("the activity detail shows stamp_login's session redacted, never the JWT", async () => {
    const session = JWT;
    const { frame, type } = await setup(160, 48, { parts: { activities: [stampLogin] } });
    await type("\t");
    await type("\r");
    expect(frame()).toContain("stamp_login");
    expect(frame()).toContain(`[redacted: ${session.length} characters]`);
    expect(frame()).not.toContain(session.slice(0, 16));
  });

  it("email and Solana rows are selectable, each with a detail view of every field", async () => {
    const { frame, type } = await setup(160, 48);
    await type("\t");
    await type("\t");
    expect(frame()).toMatch(/▸ Email/);
    await type("\r");
    expect(frame()).toContain("Email to alice@example.com");
    expect(frame()).toMatch(/diagnosticCode +smtp; 550 user unknown/);
    await type("\u001b");
    await type("\t");
    await type("\r");
    expect(frame()).toContain("Solana transfer in");
    expect(frame()).toContain("Sender111111111111111111111111111111");
    expect(frame()).toMatch(/amount +1\.5 SOL/);
  });

  it("the activity detail wraps the whole fingerprint and names voters", async () => {
    const long = activity("a-long", "CONSENSUS_NEEDED", 10_000);
    long.fingerprint = `sha256:${"0123456789abcdef".repeat(8)}`;
    long.votes = [
      {
        id: "v",
        userId: "u-9",
        activityId: "a-long",
        selection: "VOTE_SELECTION_APPROVED",
        user: voter("u-9", "sre-lead"),
      },
    ];
    const { frame, type } = await setup(80, 24, { parts: { activities: [long] } });
    await type("\t");
    await type("\r");
    const shown = frame().replace(/[│ ]+\n[│ ]+/g, "");
    expect(shown).toContain(long.fingerprint);
    expect(frame()).toContain("approved by sre-lead (user u-9)");
  });

  it("says why the log is empty, and which replicas exist when a number has none", async () => {
    const { frame, type } = await setup();
    await type("7");
    expect(frame()).toContain("no replica 7 (only 1, 2, 3)");
    await type("1");
    await type("2");
    await type("3");
    expect(frame()).toContain("all replicas hidden: press 1, 2, 3 to show them");
    expect(frame()).toContain("hidden 1,2,3");
    await type("1");
    await type("fnothing-like-this\r");
    expect(frame()).toMatch(
      /no line matches \+\/nothing-like-this\/ \(60 lines hidden by the filters/,
    );
  });

  it("without colours, the focused pane is still marked", async () => {
    const { frame } = await setup(160, 48, { colour: false });
    expect(frame()).toMatch(/║▸ Logs/);
  });

  it("D goes back to the picker when there is one, and says so when there is none", async () => {
    const picker = vi.fn();
    const withPicker = await setup(undefined, undefined, { picker });
    await withPicker.type("D");
    expect(picker).toHaveBeenCalledOnce();
    const none = await setup();
    await none.type("D");
    expect(none.frame()).toContain("no deployment picker here");
  });

  it("the title names the deployment's app when it is known", async () => {
    const id = "5b2da4c2-cff8-46d5-a965-5ff6edeeb4f2";
    const named = deploymentChoice(
      { id: "app", organizationId: "o", name: "payments-signer", liveDeploymentId: id },
      { id, organizationId: "o", appId: "app", debugMode: true },
    );
    const prefix = "demo (simulated) · ";
    const known = await setup(120, 40, {
      heading: { kind: "deployments", prefix, deploymentId: id, deployment: named },
    });
    expect(known.frame().split("\n")[0]).toBe(
      `tvcwatch · demo (simulated) · payments-signer · deployment ${id} (live)`,
    );
    const narrow = await setup(60, 20, {
      heading: { kind: "deployments", prefix, deploymentId: id },
    });
    expect(narrow.frame().split("\n")[0]).toBe(
      "tvcwatch · demo (simulated) · deployment 5b2da4c2…",
    );
    // The app's name learned later (the app asks the API) is in the title from then on.
    const wide = await setup(120, 40, {
      heading: { kind: "deployments", prefix, deploymentId: id },
    });
    wide.controller.named(named);
    await wide.settled();
    expect(wide.frame().split("\n")[0]).toContain("payments-signer · deployment");
  });

  it("a paused view keeps its lines while new ones are counted", async () => {
    const { frame, type, store, settled } = await setup();
    await type("\u001b[A");
    const before = frame()
      .split("\n")
      .filter((l) => /\[\d\] /.test(l));
    store.append(Array.from({ length: 30 }, (_, i) => line(100 + i, 1, `INFO later ${i}`)));
    await settled();
    const after = frame()
      .split("\n")
      .filter((l) => /\[\d\] /.test(l));
    expect(frame()).toContain("⏸ 30 new lines · Space follows");
    expect(after.slice(0, -1)).toEqual(before.slice(0, after.length - 1));
  });

  it("q quits", async () => {
    const { type, quit } = await setup();
    await type("q");
    expect(quit).toHaveBeenCalledOnce();
  });

  it("renders hostile log lines escaped", async () => {
    const { frame, store, settled } = await setup();
    store.append([line(300, 2, "\u001b]52;c;aGk=\u0007 clipboard \u001b[2J")]);
    await settled();
    expect(frame()).toContain("\\x1b]52;c;aGk=\\x07 clipboard \\x1b[2J");
  });

  it("S writes a new file owner-only, and never through a name that exists (a symlink included)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-save-"));
    const { frame, type } = await setup(160, 48);
    const file = join(dir, "view.log");
    // Enter at the first prompt: the view; then the name.
    await type("S");
    await type("\r");
    await type(`${file}\r`);
    await vi.waitFor(() => expect(frame()).toContain(`saved 60 lines (the view) to ${file}`));
    expect(readFileSync(file, "utf8")).toContain("INFO request 59");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const victim = join(dir, "victim");
    writeFileSync(victim, "someone else's\n");
    const planted = join(dir, "planted.log");
    symlinkSync(victim, planted);
    await type("S");
    await type("\r");
    await type(`${planted}\r`);
    await vi.waitFor(() => expect(frame()).toContain(`not saved: ${planted} exists`));
    expect(readFileSync(victim, "utf8")).toBe("someone else's\n");
  });
});
