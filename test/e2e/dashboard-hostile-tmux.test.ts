import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeApi } from "./fake-api.js";
import { startHostileApi } from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

/** Turnkey's published test key pair (not a secret): the hostile server does not check stamps. */
const KEYS = {
  TURNKEY_API_PRIVATE_KEY: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
  TURNKEY_API_PUBLIC_KEY: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
};

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
  it("sets no title, writes no clipboard, shows every field escaped, formats no huge amount, and quits at once with a megabyte line wrapped", async () => {
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
    const titleBefore = tmux.title();

    // The picker: the app name and the deployment id, escaped.
    const picker = await tmux.waitFor(
      "the picker",
      (s) => s.includes("pick a deployment to watch") && s.includes("payments"),
    );
    expect(picker).toContain("\\x1b]0;PWNED-TITLE\\x07");
    await tmux.keys("Enter");

    const screen = await tmux.waitFor(
      "every pane with the hostile fields",
      (s) =>
        s.includes("● live") &&
        s.includes("INFO last line") &&
        /Bounce\\x1b/.test(s) &&
        s.includes("(amount too long") &&
        s.includes("(decimals 100000"),
      30_000,
    );
    // The title line (app name, deployment id), an activity's status (counts and row), an email event type.
    expect(screen.split("\n")[0]).toContain("payments\\x1b]0;PWNED-TITLE\\x07");
    expect(screen.split("\n")[0]).toContain("deployment dep-\\x1b");
    expect(screen).toMatch(/consensus_needed\\x1b]0;pwned-title\\x07/);
    expect(screen).toContain("Bounce\\x1b]0;PWNED-TITLE\\x07");

    // Wrap the megabyte line: the frame still comes, and q still quits at once.
    await tmux.keys("C-w");
    await tmux.waitFor("wrap on", (s) => s.includes("(wrap)") && s.includes("more characters"));

    expect(tmux.title()).toBe(titleBefore);
    expect(tmux.buffers()).toBe("");

    const quitAt = Date.now();
    await tmux.keys("q");
    const after = await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED"));
    expect(Date.now() - quitAt).toBeLessThan(5000);
    expect(after).toContain("TVCWATCH-EXITED 0");
    expect(tmux.title()).toBe(titleBefore);
    expect(tmux.buffers()).toBe("");
  }, 90_000);
});
