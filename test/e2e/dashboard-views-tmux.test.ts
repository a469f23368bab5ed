import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * The demo in tmux at 80x24, 120x40 and 200x60, as on-call meets it: the title names the
 * deployment's app; the status line keeps paused, filters, search and hidden replicas at every
 * width; an empty log says why; a replica that does not exist is named; the help fits and
 * scrolls; activities, emails and transfers open detail views (the whole fingerprint, voters by
 * name); D goes back to the picker, which says why a deployment cannot be tailed; NO_COLOR is
 * honoured with the focus still marked.
 */

const sessions: Tmux[] = [];

beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
const logPane = (s: string, width: number) =>
  s
    .split("\n")
    .slice(1, -1)
    .map((l) => l.slice(0, width))
    .join("\n");

/** A detail view's field: its first row and the wrapped rows under it, joined. */
function fieldValue(screen: string, label: string): string {
  const lines = screen.split("\n").map((l) => l.replace(/^[│║] ?/, "").replace(/ ?[│║]$/, ""));
  const at = lines.findIndex((l) => l.startsWith(`${label} `));
  const first = lines[at];
  if (first === undefined) return "";
  const column = label.length + first.slice(label.length).search(/\S/);
  const parts = [first.slice(column).trim()];
  for (const l of lines.slice(at + 1)) {
    if (l.slice(0, column).trim() !== "" || l.slice(column).trim() === "") break;
    parts.push(l.slice(column).trim());
  }
  return parts.join("");
}

async function openDemo(columns: number, rows: number, env: Record<string, string> = {}) {
  const tmux = new Tmux();
  sessions.push(tmux);
  tmux.start(["demo", "--seed", "5"], { columns, rows }, env);
  await tmux.waitFor(
    "the demo with every pane",
    (s) => s.includes("● live") && /consensus \d+/.test(s) && /\[\d\] /.test(s),
    30_000,
  );
  return tmux;
}

describe("the demo's views in a real terminal", () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
    [200, 60],
  ] as const) {
    it(`at ${columns}x${rows}: title, status line, empty views, help, details, picker`, async () => {
      const tmux = await openDemo(columns, rows);
      // The title learns the deployment's app name from the API, then names it.
      const first = await tmux.waitFor("the app's name in the title", (s) =>
        (s.split("\n")[0] ?? "").includes("payments-signer"),
      );
      expect(first.split("\n")[0]).toMatch(
        /^tvcwatch · demo \(simulated\) · payments-signer · deployment /,
      );

      // What changes what you see stays on the status line, at every width.
      await tmux.keys("f");
      await tmux.type("ERROR");
      await tmux.keys("Enter", "Space", "/");
      await tmux.type("timeout");
      await tmux.keys("Enter", "2");
      const filtered = await tmux.waitFor("paused with filters", (s) => lastLine(s).includes("⏸"));
      const status = lastLine(filtered);
      for (const part of ["⏸", "+/ERROR/", "search /timeout/", "hidden 2", "?"]) {
        expect(status, filtered).toContain(part);
      }
      expect(filtered, filtered).toMatch(/⏸ (paused|\d[\d,]* new line)/);

      // A replica that does not exist says which do; an empty view says why.
      await tmux.keys("7");
      await tmux.waitFor("the replica answer", (s) => lastLine(s).includes("no replica 7"));
      await tmux.keys("Escape", "Space", "f");
      await tmux.type("no-such-line-anywhere");
      await tmux.keys("Enter");
      await tmux.waitFor("the empty view's reason", (s) =>
        /no line matches (\+\/ERROR\/ )?\+\/no-such-line-anywhere\//.test(
          logPane(s, columns).replace(/[║│]\n[║│]/g, " "),
        ),
      );
      await tmux.keys("Escape", "2");
      await tmux.waitFor("filters cleared", (s) => !lastLine(s).includes("hidden"));

      // The help fits, scrolls, and explains the marks.
      await tmux.keys("?");
      const help = await tmux.waitFor("the help", (s) => s.includes("tvcwatch keys"));
      expect(help.replace(/\n+$/, "").split("\n").length).toBeLessThanOrEqual(rows - 1);
      expect(help).toContain("quit");
      for (let i = 0; i < 6 && !tmux.screen().includes("hide / show replica N"); i++) {
        await tmux.keys("PageDown");
      }
      await tmux.waitFor("the replica keys in the help", (s) =>
        s.includes("hide / show replica N"),
      );
      // The legend (longer than a screen at 80x24): its heading, then its last marks.
      const seen: string[] = [];
      for (let i = 0; i < 10 && !tmux.screen().includes("CONS FAIL PEND"); i++) {
        seen.push(tmux.screen());
        await tmux.keys("PageDown");
      }
      seen.push(await tmux.waitFor("the legend's end", (s) => s.includes("CONS FAIL PEND")));
      expect(seen.some((s) => s.includes("what the marks mean"))).toBe(true);
      await tmux.keys("Escape");

      // Details: an activity (the whole fingerprint), an email, a transfer.
      await tmux.keys("Tab");
      await tmux.waitFor("activities focused", (s) => s.includes("▸ Activities"));
      await tmux.keys("Enter");
      const activity = await tmux.waitFor("the activity detail", (s) => s.includes("fingerprint"));
      expect(fieldValue(activity, "fingerprint"), activity).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(activity).toMatch(/votes +(none|(approved|rejected) by )/);
      await tmux.keys("Escape", "Tab", "Enter");
      const email = await tmux.waitFor("the email detail", (s) => s.includes("Email to"));
      expect(email).toMatch(/message id +\S/);
      await tmux.keys("Escape", "Tab", "Enter");
      const transfer = await tmux.waitFor("the transfer detail", (s) =>
        s.includes("Solana transfer"),
      );
      expect(fieldValue(transfer, "signature").length).toBeGreaterThan(40);
      await tmux.keys("Escape");

      // D: back to the picker, which says why the others cannot be tailed; Enter comes back.
      await tmux.keys("D");
      const picker = await tmux.waitFor(
        "the picker",
        (s) => s.includes("pick a deployment to watch") && /○ /.test(s),
      );
      expect(picker).toContain("● debug mode: its logs can be read");
      expect(picker).toMatch(/○ .*not in debug mode/);
      await tmux.keys("Enter");
      await tmux.waitFor(
        "the dashboard again",
        (s) => s.includes("● live") && s.startsWith("tvcwatch · demo"),
      );

      await tmux.keys("q");
      const after = await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED"));
      expect(after).toContain("TVCWATCH-EXITED 0");
    }, 150_000);
  }

  it("names voters in an activity's detail", async () => {
    const tmux = await openDemo(160, 48);
    await tmux.keys("Tab");
    // Open activities until one with votes shows them by name (rows move as new ones arrive).
    let found = "";
    for (let row = 0; row < 12 && !found; row++) {
      await tmux.keys("Enter");
      const detail = await tmux.waitFor("a detail", (s) => s.includes("fingerprint"));
      if (/(approved|rejected) by \S+ \(user /.test(detail)) found = detail;
      await tmux.keys("Escape", "Down");
    }
    expect(found).toMatch(/(approved|rejected) by [\w-]+ \(user [^)]+\)/);
  }, 150_000);

  it("honours NO_COLOR: no colour on screen, the focused pane still marked", async () => {
    const plain = await openDemo(120, 40, { NO_COLOR: "1" });
    const screen = plain.screenWithAttributes();
    expect(screen).toContain("▸ Logs");
    // No foreground or background colour in any SGR tmux writes for the screen.
    const colours = [...screen.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) =>
      (m[1] ?? "").split(";").filter((p) => /^(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)$/.test(p)),
    );
    expect(colours).toEqual([]);
    const coloured = await openDemo(120, 40);
    expect(coloured.screenWithAttributes()).toMatch(/\u001b\[[0-9;]*3[0-7][0-9;]*m/);
  }, 120_000);
});
