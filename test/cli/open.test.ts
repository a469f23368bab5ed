/**
 * `tvcwatch open` as a user meets it without a terminal: every file is checked before anything
 * else (a missing one, a directory, a device: exit 2, one line naming it), then standard output
 * must be a terminal (else one line saying what reads saved lines without one). It needs no
 * configuration (runCli gives it an empty one). The dashboard itself is tested in
 * test/tui/controller/saved-dashboard.test.ts and test/e2e/open-tmux.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-open-cli-"));
const saved = join(dir, "incident.ndjson");
writeFileSync(
  saved,
  `${JSON.stringify({ replicaLabel: "replica 1/3", ts: { seconds: "1795758000", nanos: "0" }, content: "INFO hello" })}\n`,
);

const oneLine = (text: string) => text.trimEnd().split("\n");

describe("tvcwatch open", () => {
  it("a missing file: exit 2, one line naming it", async () => {
    const missing = join(dir, "nope.ndjson");
    const r = await runCli(["open", saved, missing]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`tvcwatch: log file ${missing} does not exist`]);
    expect(r.stdout).toBe("");
  });

  it("--since / --until: a bare number is refused naming units, a start after the end in one line; exit 2", async () => {
    const bare = await runCli(["open", saved, "--since", "90"]);
    expect(bare.code).toBe(2);
    expect(oneLine(bare.stderr)[0]).toContain("'90' is invalid. 90 what? e.g. 90s or 90m");
    const word = await runCli(["open", saved, "--until", "yesterday"]);
    expect(word.code).toBe(2);
    expect(oneLine(word.stderr)[0]).toContain('"yesterday" is not a time');
    const crossed = await runCli(["open", saved, "--since", "20:40", "--until", "20:30"]);
    expect(crossed.code).toBe(2);
    expect(oneLine(crossed.stderr)).toHaveLength(1);
    expect(crossed.stderr).toMatch(
      /^tvcwatch: --since 20:40 \(\d{4}-\d\d-\d\d 20:40:00\) is after --until 20:30 \(\d{4}-\d\d-\d\d 20:30:00\): nothing is between them\n$/,
    );
  });

  it("a directory or a device: exit 2, one line naming it and what it is", async () => {
    const d = await runCli(["open", dir]);
    expect(d.code).toBe(2);
    expect(oneLine(d.stderr)).toEqual([
      `tvcwatch: log file ${dir} is a directory, not a regular file`,
    ]);
    const z = await runCli(["open", "/dev/zero"]);
    expect(z.code).toBe(2);
    expect(oneLine(z.stderr)).toEqual([
      "tvcwatch: log file /dev/zero is a character device, not a regular file",
    ]);
  });

  it("an unreadable file: exit 2, one line naming it", async () => {
    if (process.getuid?.() === 0) {
      // root reads a file whatever its mode: a path through a file stands in (ENOTDIR).
      const r = await runCli(["open", join(saved, "inside")]);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(join(saved, "inside"));
      return;
    }
    const locked = join(dir, "locked.ndjson");
    writeFileSync(locked, "x\n", { mode: 0o000 });
    const r = await runCli(["open", locked]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(locked);
  });

  it("without a terminal: exit 2, one line saying what reads saved lines without one", async () => {
    const r = await runCli(["open", saved]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([
      "tvcwatch: open needs a terminal (standard output is none); without one read the file with less, grep or jq (NDJSON), or lnav (tvcwatch lnav-format prints its format)",
    ]);
  });

  it("- with lines piped in but no terminal: the same line, the pipe read without a hang", async () => {
    const r = await runCli(["open", "-"], { input: "INFO piped\n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("open needs a terminal");
  });

  it("no file named, or - twice: a usage error, exit 2", async () => {
    const none = await runCli(["open"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'file'");
    const twice = await runCli(["open", "-", "-"], { input: "x\n" });
    expect(twice.code).toBe(2);
    expect(oneLine(twice.stderr)).toEqual(["tvcwatch: - (standard input) is named twice"]);
  });

  it("is listed in the help, and its own help shows how to pipe into it", async () => {
    const top = await runCli(["--help"]);
    expect(top.stdout).toMatch(/open \[options\] <file\.\.\.>\s+read saved logs/);
    const own = await runCli(["open", "--help"]);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain("tvcwatch tail -f -o json | tvcwatch open -");
    expect(own.stdout).toContain("--follow");
  });

  it("completes files after open", async () => {
    const r = await runCli(["completion", "bash"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("'open/#0') echo 'file' ;;");
  });
});
