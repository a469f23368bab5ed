import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeApi } from "./fake-api.js";
import { KEYS, startHostileApi } from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

let api: FakeApi;
const tmux = new Tmux();

beforeAll(async () => {
  requireTmux();
  api = await startHostileApi();
});

afterAll(async () => {
  tmux.kill();
  await api?.close();
});

describe("the dashboard against a hostile server, in a real terminal", () => {
  // One program, walked feature by feature: each it goes on from the screen the one before left.
  let titleBefore = "";

  it("shows the picker's fields escaped", async () => {
    tmux.start(
      [
        "--base-url",
        api.url,
        "--organization",
        "org-1",
        "--email",
        "ops@example.com",
        "--sol-address",
        "Addr11111111",
      ],
      { columns: 120, rows: 40 },
      KEYS,
      [["set-clipboard", "on"]],
    );
    titleBefore = tmux.title();

    // The picker: the app name and the deployment id, escaped.
    await tmux.waitFor("the picker, its fields escaped", (s) => {
      expect(s).toContain("pick a deployment to watch");
      expect(s).toContain("payments");
      expect(s).toContain("\\x1b]0;PWNED-TITLE\\x07");
    });
  }, 60_000);

  it("shows every pane's fields escaped, and formats no huge amount", async () => {
    tmux.keys("Enter");
    await tmux.waitFor(
      "every pane with the hostile fields, escaped",
      (s) => {
        expect(s).toContain("● live");
        expect(s).toContain("INFO last line");
        expect(s).toContain("(amount too long");
        expect(s).toContain("(decimals 100000");
        // The title line (app name, deployment id), an activity's status (counts and row), an
        // email event type.
        expect(s.split("\n")[0]).toContain("payments\\x1b]0;PWNED-TITLE\\x07");
        expect(s.split("\n")[0]).toContain("deployment dep-\\x1b");
        expect(s).toMatch(/consensus_needed\\x1b]0;pwned-title\\x07/);
        expect(s).toContain("Bounce\\x1b]0;PWNED-TITLE\\x07");
      },
      { timeoutMs: 30_000 },
    );
  }, 60_000);

  it("wraps a megabyte line, and sets no title and writes no clipboard", async () => {
    // Wrap the megabyte line: the frame still comes.
    tmux.keys("C-w");
    await tmux.waitFor("wrap on", (s) => s.includes("(wrap)") && s.includes("more characters"));

    expect(tmux.title()).toBe(titleBefore);
    expect(tmux.buffers()).toBe("");
  }, 60_000);

  it("quits at once on q with the megabyte line wrapped, still with no title or clipboard set", async () => {
    // At once: within 5 s, however big the line wrapped.
    tmux.keys("q");
    await tmux.waitFor("the program to exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"), {
      timeoutMs: 5000,
    });
    expect(tmux.title()).toBe(titleBefore);
    expect(tmux.buffers()).toBe("");
  }, 60_000);
});
