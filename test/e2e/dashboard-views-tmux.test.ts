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
    { timeoutMs: 30_000 },
  );
  return tmux;
}

/** The help's rows shown, "a-b of n" in its heading; undefined when it all fits. */
const helpRange = (s: string) => /↑↓ (\d+-\d+ of \d+)/.exec(s)?.[1];

/** PgDn through the help until `text` is on screen; each screen seen, settled. */
async function pageHelpUntil(tmux: Tmux, text: string): Promise<string[]> {
  const seen: string[] = [];
  let screen = await tmux.waitFor("the help", (s) => s.includes("tvcwatch keys"));
  for (let i = 0; i < 12 && !screen.includes(text); i++) {
    seen.push(screen);
    const range = helpRange(screen);
    tmux.keys("PageDown");
    screen = await tmux.waitFor("the next page of the help", (s) => helpRange(s) !== range);
  }
  seen.push(screen);
  expect(screen).toContain(text);
  return seen;
}

/** A detail's rows shown, "a-b of n" in its heading; undefined when it all fits. */
const detailRange = (s: string) => /↑↓ (\d+)-(\d+) of (\d+) · Esc closes/.exec(s);

/**
 * Scrolls an open detail until `holds` is true of the screen: a page at a time (PgDn) while
 * `near` is not, then a row at a time (↓), so a wrapped value is seen whole on one screen. The
 * decoding comes first, so a field below it may be pages down at 80x24. The last screen seen.
 */
async function scrollDetailUntil(
  tmux: Tmux,
  what: string,
  holds: (s: string) => boolean,
  near: (s: string) => boolean,
): Promise<string> {
  let screen = await tmux.waitFor(`${what} open`, (s) => s.includes("Esc closes"));
  for (let i = 0; i < 80 && !holds(screen); i++) {
    const range = detailRange(screen);
    if (!range || range[2] === range[3]) break;
    tmux.keys(near(screen) ? "Down" : "PageDown");
    screen = await tmux.waitFor(`${what}, scrolled`, (s) => detailRange(s)?.[1] !== range[1]);
  }
  return screen;
}

describe("the demo's views in a real terminal", () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
    [200, 60],
  ] as const) {
    describe(`at ${columns}x${rows}`, () => {
      let tmux: Tmux;
      beforeAll(async () => {
        tmux = await openDemo(columns, rows);
      }, 60_000);

      it("the title names the deployment's app, its version and role whole", {
        timeout: 60_000,
      }, async () => {
        // The title learns the deployment's app name from the API, then names it, its version and
        // role whole at every width (at 80 columns without the word "deployment", the id cut to six
        // characters when the health needs the room); its replicas
        // health follows once polled, whether or not it came first.
        await tmux.waitFor("the app's name in the title", (s) =>
          expect(s.split("\n")[0]).toMatch(
            /^tvcwatch · demo \(simulated\) · payments-signer · (deployment )?[0-9a-f]{6}\S* \(0\.7\.2 live\)( · \d+\/\d+ ready)?\s*$/,
          ),
        );
      });

      it("paused, filters, a search and a hidden replica stay on the status line", {
        timeout: 60_000,
      }, async () => {
        // What changes what you see stays on the status line, at every width. (2 hides replica 2
        // once its lines came: a replica not seen yet is said not to exist.)
        await tmux.waitFor("replica 2's lines", (s) => /[║│]\[2\] [^\s▁▂▃▄▅▆▇█!]/.test(s));
        tmux.keys("f");
        tmux.type("ERROR");
        tmux.keys("Enter", "Space", "/");
        tmux.type("timeout");
        tmux.keys("Enter", "2");
        await tmux.waitFor("paused with filters, a search and replica 2 hidden", (s) => {
          const status = lastLine(s);
          for (const part of ["⏸", "+/ERROR/", "search /timeout/", "hidden 2", "?"]) {
            expect(status).toContain(part);
          }
          expect(s).toMatch(/⏸ (paused|\d[\d,]* new line)/);
        });
      });

      it("a replica that does not exist is named; an empty view says why", {
        timeout: 60_000,
      }, async () => {
        // A replica that does not exist says which do; an empty view says why.
        tmux.keys("7");
        await tmux.waitFor("the replica answer", (s) => lastLine(s).includes("no replica 7"));
        // Each Esc is waited for: Esc and the next key sent together read as one Alt-key.
        tmux.keys("Escape");
        await tmux.waitFor("the search cleared", (s) => !lastLine(s).includes("search /"));
        tmux.keys("Space", "f");
        tmux.type("no-such-line-anywhere");
        tmux.keys("Enter");
        await tmux.waitFor("the empty view's reason", (s) =>
          /no line matches (\+\/ERROR\/ )?\+\/no-such-line-anywhere\//.test(
            logPane(s, columns).replace(/[║│]\n[║│]/g, " "),
          ),
        );
        tmux.keys("Escape");
        await tmux.waitFor("the filter removed", (s) => !lastLine(s).includes("no-such-line"));
        tmux.keys("2");
        await tmux.waitFor("replica 2 shown again", (s) => !lastLine(s).includes("hidden"));
      });

      it("the help fits, scrolls and explains the marks", { timeout: 60_000 }, async () => {
        // The help fits, scrolls, and explains the marks.
        tmux.keys("?");
        await tmux.waitFor("the help, within the terminal", (s) => {
          expect(s).toContain("tvcwatch keys");
          expect(s).toContain("quit");
          expect(s.replace(/\n+$/, "").split("\n").length).toBeLessThanOrEqual(rows - 1);
        });
        await pageHelpUntil(tmux, "hide / show replica N");
        // The legend (longer than a screen at 80x24): its heading, then its last marks.
        const seen = await pageHelpUntil(tmux, "CONS FAIL PEND");
        expect(seen.some((s) => s.includes("what the marks mean"))).toBe(true);
        tmux.keys("Escape");
        await tmux.waitFor("the help closed", (s) => !s.includes("tvcwatch keys"));
      });

      it("details: an activity (the whole fingerprint), an email, a transfer", {
        timeout: 60_000,
      }, async () => {
        // Details: an activity (the whole fingerprint), an email, a transfer.
        tmux.keys("Tab");
        await tmux.waitFor("activities focused", (s) => s.includes("▸ Activities"));
        tmux.keys("Enter");
        const wholeFingerprint = (s: string) =>
          /^sha256:[0-9a-f]{64}$/.test(fieldValue(s, "fingerprint")) &&
          /votes +(none|(approved|rejected) by )/.test(s);
        const detail = await scrollDetailUntil(tmux, "the activity detail", wholeFingerprint, (s) =>
          /^[│║] ?(fingerprint|updated|created|status) /m.test(s),
        );
        expect(fieldValue(detail, "fingerprint")).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(detail).toMatch(/votes +(none|(approved|rejected) by )/);
        tmux.keys("Escape");
        await tmux.waitFor("the detail closed", (s) => !s.includes("fingerprint"));
        tmux.keys("Tab");
        await tmux.waitFor("email focused", (s) => s.includes("▸ Email"));
        tmux.keys("Enter");
        await tmux.waitFor("the email detail", (s) => {
          expect(s).toContain("Email to");
          expect(s).toMatch(/message id +\S/);
        });
        tmux.keys("Escape");
        await tmux.waitFor("the detail closed", (s) => !s.includes("Email to"));
        tmux.keys("Tab");
        await tmux.waitFor("Solana focused", (s) => s.includes("▸ Solana"));
        tmux.keys("Enter");
        await tmux.waitFor("the transfer detail", (s) => {
          expect(s).toContain("Solana transfer");
          expect(fieldValue(s, "signature").length).toBeGreaterThan(40);
        });
        tmux.keys("Escape");
        await tmux.waitFor("the panes again", (s) => !s.includes("Solana transfer"));
      });

      it("D goes back to the picker, which says why the others cannot be tailed", {
        timeout: 60_000,
      }, async () => {
        // D: back to the picker, which says why the others cannot be tailed; Enter comes back.
        tmux.keys("D");
        await tmux.waitFor("the picker, loaded", (s) => {
          expect(s).toContain("pick a deployment to watch");
          expect(s).toContain("● debug mode: its logs can be read");
          expect(s).toMatch(/○ .*not in debug mode/);
        });
        tmux.keys("Enter");
        await tmux.waitFor(
          "the dashboard again",
          (s) =>
            s.includes("● live") &&
            s.startsWith("tvcwatch · demo") &&
            !s.includes("pick a deployment to watch"),
        );
      });

      it("q exits 0", async () => {
        tmux.keys("q");
        await tmux.waitFor("the program to exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
      });
    });
  }

  it("names voters in an activity's detail", async () => {
    const tmux = await openDemo(160, 48);
    tmux.keys("Tab");
    await tmux.waitFor("activities focused", (s) => s.includes("▸ Activities"));
    // Open activities until one with votes shows them by name (rows move as new ones arrive).
    let found = "";
    for (let row = 0; row < 40 && !found; row++) {
      tmux.keys("Enter");
      let detail = await tmux.waitFor("a detail", (s) => s.includes("fingerprint"));
      // The decoding comes first: the votes may be a page further down.
      if (!/(approved|rejected) by \S+ \(user /.test(detail) && /↑↓ 1-\d+ of/.test(detail)) {
        tmux.keys("PageDown");
        detail = await tmux.waitFor("the detail's next page", (s) => !/↑↓ 1-\d+ of/.test(s));
      }
      if (/(approved|rejected) by \S+ \(user /.test(detail)) found = detail;
      tmux.keys("Escape");
      await tmux.waitFor("the list again", (s) => !s.includes("fingerprint"));
      tmux.keys("Down");
    }
    expect(found).toMatch(/(approved|rejected) by [\w-]+ \(user [^)]+\)/);
  }, 150_000);

  it("honours NO_COLOR: no colour on screen, the focused pane still marked", async () => {
    const plain = await openDemo(120, 40, { NO_COLOR: "1" });
    await plain.waitFor(
      "the screen without colour",
      (screen) => {
        expect(screen).toContain("▸ Logs");
        // No foreground or background colour in any SGR tmux writes for the screen.
        const colours = [...screen.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) =>
          (m[1] ?? "").split(";").filter((p) => /^(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)$/.test(p)),
        );
        expect(colours).toEqual([]);
      },
      { attributes: true },
    );
    const coloured = await openDemo(120, 40);
    await coloured.waitFor(
      "the screen in colour",
      (screen) => expect(screen).toMatch(/\u001b\[[0-9;]*3[0-7][0-9;]*m/),
      { attributes: true },
    );
  }, 120_000);
});
