import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/run-cli.js";

/** The whole program as a user meets it: tmux runs `tvcwatch demo`, send-keys types, capture-pane reads. */
const socket = `tvcwatch-test-${process.pid}`;
const session = "demo";

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

const screen = () => tmux("capture-pane", "-p", "-t", session);

async function waitFor(
  what: string,
  test: (s: string) => boolean,
  timeoutMs = 15_000,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    last = screen();
    if (test(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
}

async function keys(...k: string[]): Promise<void> {
  for (const key of k) {
    tmux("send-keys", "-t", session, key);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const logRows = (s: string) => s.split("\n").filter((l) => /│\[\d\] /.test(l));

beforeAll(() => {
  try {
    execFileSync("tmux", ["-V"]);
  } catch {
    throw new Error(
      "tmux is needed for the terminal end-to-end test: apt-get install tmux (.ci/run installs it)",
    );
  }
  const env = Object.entries({ TERM: "xterm-256color", NO_COLOR: "" })
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "120",
    "-y",
    "40",
    `env ${env} ${process.execPath} ${BIN} demo --seed 3; echo TVCWATCH-EXITED $?; sleep 120`,
  );
});

afterAll(() => {
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
});

describe("tvcwatch demo in a real terminal", () => {
  it("shows every pane live, answers keys, and restores the screen on q", async () => {
    const first = await waitFor(
      "lines in every pane",
      (s) =>
        logRows(s).length > 10 &&
        /consensus_needed \d+/.test(s) &&
        /@example\.com/.test(s) &&
        /net [+-]/.test(s) &&
        s.includes("● live"),
    );
    // The live area stays shorter than the 40-row terminal (Ink redraws everything otherwise).
    expect(first.replace(/\n+$/, "").split("\n").length).toBeLessThanOrEqual(39);

    await keys("?");
    await waitFor(
      "the help",
      (s) => s.includes("tvcwatch keys") && s.includes("show or hide replica N"),
    );
    await keys("Escape");
    await waitFor("the help to close", (s) => !s.includes("tvcwatch keys"));

    await keys("Space");
    await waitFor(
      "pause with a count of new lines",
      (s) => /paused/.test(s) && /\d+ new lines/.test(s),
      20_000,
    );
    await keys("Space");
    await waitFor("follow again", (s) => /following/.test(s) && !/new lines/.test(s));

    await keys("f", "E", "R", "R", "O", "R", "Enter");
    const filtered = await waitFor(
      "the include filter",
      (s) => s.includes("+/ERROR/") && logRows(s).length > 0,
      30_000,
    );
    expect(logRows(filtered).every((l) => /ERROR|"level":"error"/i.test(l))).toBe(true);
    await keys("Escape");

    await keys("1");
    const hidden = await waitFor("replica 1 hidden", (s) => s.includes("hidden 1"));
    expect(logRows(hidden).some((l) => l.includes("│[1] "))).toBe(false);

    await keys("q");
    const after = await waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED"));
    expect(after).toContain("TVCWATCH-EXITED 0");
    // The alternate screen was left: nothing of the dashboard remains.
    expect(after).not.toContain("Activities");
    expect(after).not.toContain("● live");
  }, 90_000);
});
