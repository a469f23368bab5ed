/**
 * The one way to stderr (src/text/stderr.ts): every line masked and escaped, and nothing else in
 * src/ writes to process.stderr. What may write to process.stdout is a short list, each entry
 * with why its text is inert.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { configuredSecrets, MASKED_KEY } from "../../src/text/key-material.js";
import { inertLines, MAX_STDERR_LINE } from "../../src/text/stderr.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The files of src/ whose text matches `pattern`, relative to src/. */
function matching(pattern: RegExp): string[] {
  return files(SRC)
    .filter((f) => pattern.test(readFileSync(f, "utf8")))
    .map((f) => relative(SRC, f))
    .sort();
}

/** ESC, BEL, every other C0 control but tab and newline, DEL and C1. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("inertLines", () => {
  it("escapes what a collector's status text or a deployment id may carry", () => {
    const hostile = "400 \u001b]0;PWNED\u0007\u001b[2J\u009b31mEVIL \u202eRTL\u200b";
    const out = inertLines(`OTLP: the collector did not take 29 lines: ${hostile}`);
    expect(out).toBe(
      "OTLP: the collector did not take 29 lines: 400 \\x1b]0;PWNED\\x07\\x1b[2J\\x9b31mEVIL \\u202eRTL\\u200b",
    );
  });

  it("masks the configured private key, whatever its line or case, and shows public keys whole", () => {
    // Turnkey's test fixture pair; the private half registered as configuration registers it.
    const key = "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c";
    configuredSecrets.add(`${key}:p256\n`);
    expect(inertLines(`first\nbad key ${key}:p256`)).toBe(`first\nbad key ${MASKED_KEY}:p256`);
    expect(inertLines(`0x${key.toUpperCase()} and ${key}`)).toBe(
      `0x${MASKED_KEY} and ${MASKED_KEY}`,
    );
    // A target public key (130 hex characters) is what an approver compares: whole.
    const target = `04${"d7172fc49c12a6af".repeat(8)}`;
    expect(target).toHaveLength(130);
    const prompt = `encrypted to target public key ${target}`;
    expect(inertLines(prompt)).toBe(prompt);
    const compressed = "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316";
    expect(inertLines(`public key ${compressed}`)).toBe(`public key ${compressed}`);
    // A fingerprint or a hash is no key either: it is what a person copies to vote.
    expect(inertLines(`sha256:${"ab".repeat(32)} ${"cd".repeat(32)}`)).toBe(
      `sha256:${"ab".repeat(32)} ${"cd".repeat(32)}`,
    );
  });

  it("keeps lines (LF, CRLF) and tabs; a lone CR is escaped; one final newline is dropped", () => {
    expect(inertLines("a\tb\r\nc\nd\n")).toBe("a\tb\nc\nd");
    expect(inertLines("over\rwrite")).toBe("over\\x0dwrite");
    expect(inertLines("")).toBe("");
  });

  it("cuts a line longer than MAX_STDERR_LINE, counting the rest", () => {
    const out = inertLines(`${"x".repeat(MAX_STDERR_LINE + 10)}\nnext`);
    expect(out).toBe(`${"x".repeat(MAX_STDERR_LINE)}… (10 more characters)\nnext`);
  });

  it("lets nothing raw through, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(inertLines(text)).not.toMatch(RAW);
      }),
    );
  });
});

describe("the seams, by construction", () => {
  it("only src/text/stderr.ts writes to process.stderr (or reaches it another way)", () => {
    expect(
      matching(/process\.stderr|\bconsole\.|from "(node:)?process"|writeSync\(\s*2\b/),
    ).toEqual(["text/stderr.ts"]);
  });

  it("process.stdout: only these files, each writing text that is inert", () => {
    const why: Record<string, string> = {
      // Their own sequences (alternate screen, bell, OSC 52 of base64) and Ink's frame of Safe text.
      "tui/app/run-dashboard.tsx": "Ink renders only Safe strings",
      "tui/app/run-open.tsx": "Ink renders only Safe strings (the dashboard over saved logs)",
      "ship/stdout-batch.ts": "lines made by formatEvent (sanitized text, escaped JSON)",
      "cli/commands/tail/tail-stdout.ts": "renderPlainWindow's lines (sanitized), the pipe's state",
      "cli/commands/tail/follow-many.ts": "flushes nothing but what stdout-batch wrote",
      "cli/commands/call/run-call.ts":
        "stringifyForTerminal (JSON escaped for terminals), the operations",
      "cli/commands/activity/activity-command.ts":
        "the activity table and lines (sanitized), JSON escaped",
      "cli/commands/doctor/doctor-command.ts":
        "the report (its fields sanitized in doctor/report.ts)",
      "cli/commands/keys/keys-command.ts": "the public key just generated (hex)",
      "cli/commands/lnav-format/lnav-format-command.ts":
        "the lnav format, JSON made from tvcwatch's own constants",
      "cli/commands/completion/completion-command.ts":
        "the completion scripts, made from the command table",
      "cli/commands/sim/run-sim.ts":
        "its own credentials, ids and names (sanitized: a --state file keeps names)",
      "cli/commands/watch/watch-command.ts": "reads isTTY only",
      "cli/commands/open/open-command.ts": "reads isTTY only",
      "cli/commands/tail/tail-options.ts": "reads isTTY only",
      "cli/main.ts": "listens for EPIPE only",
    };
    expect(matching(/process\.stdout/)).toEqual(Object.keys(why).sort());
  });
});
