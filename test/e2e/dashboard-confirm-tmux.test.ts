import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeApi } from "./fake-api.js";
import {
  CROWDED_ACTIVITY_ID,
  CROWDED_FINGERPRINT,
  CROWDED_TARGET_KEY,
  calmDashboard,
  KEYS,
  startCrowdedVoteApi,
} from "./fake-api.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * The vote confirmation at 80x24 in a real terminal (issue #28): an export_wallet with 40 votes.
 * What is decided (verb, type, id, the whole fingerprint, the quorum, what leaves Turnkey and to
 * which key) stays on screen while PgDn and ↑ scroll the votes; stray keys do nothing; y votes.
 */

let api: FakeApi;
const tmux = new Tmux();

beforeAll(async () => {
  requireTmux();
  api = await startCrowdedVoteApi();
});

afterAll(async () => {
  tmux.kill();
  await api?.close();
});

/** The screen's text with the frame's borders and all spaces out: wrapped values joined. */
const flat = (s: string) => s.replace(/[\s│╭╮╰╯─]/g, "");

/** Where the details are scrolled: rows `from`-`to` of `of`, as the rule above them says. */
function scrolled(s: string): { from: number; to: number; of: number } {
  const m = /PgUp PgDn: (\d+)-(\d+) of (\d+) rows below/.exec(s);
  return { from: Number(m?.[1] ?? 0), to: Number(m?.[2] ?? 0), of: Number(m?.[3] ?? 0) };
}

/** Every part of what is decided is on this screen, and the question with its keys. */
function decidedShown(s: string): boolean {
  return (
    s.includes("you approve  export_wallet (ACTIVITY_TYPE_EXPORT_WALLET)") &&
    s.includes(`activity     ${CROWDED_ACTIVITY_ID}`) &&
    flat(s).includes(CROWDED_FINGERPRINT) &&
    s.includes("quorum       1 of 2 root users approved") &&
    flat(s).includes(
      `themnemonicofwalletwallet-7(everyaccount'skey)leavesTurnkey,encryptedtotargetpublickey${CROWDED_TARGET_KEY}`,
    ) &&
    s.includes("Approve this activity?  y approves · n or Esc cancels")
  );
}

describe("the vote confirmation at 80x24, in a real terminal", () => {
  // One program, walked feature by feature: each it goes on from the screen the one before left.
  let screen = "";

  it("keeps what is decided on screen while 40 votes scroll", async () => {
    tmux.start(calmDashboard(api, "--no-bell"), { columns: 80, rows: 24 }, KEYS);
    await tmux.waitFor("the activity awaiting my vote", (s) => s.includes("⚑ 1"), {
      timeoutMs: 30_000,
    });
    tmux.keys("Tab", "A");
    screen = await tmux.waitFor("the confirmation", decidedShown);
    const voters = new Set<string>();
    const collect = (s: string) => {
      for (const m of s.matchAll(/voter-(\d+)/g)) voters.add(m[1] as string);
    };
    collect(screen);
    for (const key of [...Array(8).fill("PageDown"), "Up", "Up", "Down"]) {
      const before = scrolled(screen);
      tmux.keys(key);
      // PgDn at the end moves nothing: the details' last row is then on screen.
      screen = await tmux.waitFor(`the details scrolled by ${key}, what is decided kept`, (s) => {
        const now = scrolled(s);
        expect(now.from !== before.from || (key === "PageDown" && now.to === now.of)).toBe(true);
        expect(decidedShown(s)).toBe(true);
      });
      collect(screen);
    }
    expect(voters.size).toBe(39);
  }, 90_000);

  it("does nothing on keys that are not the vote's", async () => {
    // Keys that are not the vote's do nothing: no vote, no cancel. ↑ after them shows they
    // were all read (keys are read in order).
    const before = scrolled(screen);
    tmux.keys("x", "q", "Enter", "Tab", "A", "Up");
    await tmux.waitFor("the stray keys read, what is decided still shown", (s) => {
      expect(scrolled(s).from).toBe(before.from - 1);
      expect(decidedShown(s)).toBe(true);
    });
  }, 60_000);

  it("votes on y and says the result", async () => {
    tmux.keys("y");
    await tmux.waitFor("the result", (s) => {
      expect(s).toContain(`approved activity ${CROWDED_ACTIVITY_ID}: COMPLETED`);
      expect(s).toContain("any key closes");
    });
  }, 60_000);
});
