/**
 * An error no command caught (thrown in a callback, a rejected promise nobody awaited) reaches
 * stderr as every other message does (src/cli/main.ts, src/text/stderr.ts): one line, escaped,
 * the configured private key masked (a hex string that is not it is shown), exit 1; not Node's raw print of it and its stack.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bundle = fileURLToPath(new URL("../../dist/bundle/main.js", import.meta.url));

function run(after: string): { status: number | null; stderr: string } {
  const script = `const { main } = await import(${JSON.stringify(bundle)}); await main(["node", "tvcwatch", "--version"]); ${after}`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe("errors no command caught", () => {
  it("an exception thrown later: one escaped line, exit 1", () => {
    const r = run(
      `setTimeout(() => { throw new Error("boom \\u001b]0;PWNED\\u0007 ${"ab".repeat(32)}"); });`,
    );
    expect(r.stderr).toBe(
      `tvcwatch: unexpected error: boom \\x1b]0;PWNED\\x07 ${"ab".repeat(32)}\n`,
    );
    expect(r.status).toBe(1);
  });

  it("a rejection nobody awaited: the same", () => {
    const r = run(`Promise.reject(new Error("rejected \\u009b2J\\nsecond line"));`);
    expect(r.stderr).toBe("tvcwatch: unexpected error: rejected \\x9b2J\n");
    expect(r.status).toBe(1);
  });
});
