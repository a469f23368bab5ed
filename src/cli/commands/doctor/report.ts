/**
 * Doctor's findings for a person (one line each: ✓, ✗ or -, what was checked, what was found,
 * and for a failure the fix) or for a script (`-o json`). Every line is sanitized for the
 * terminal: it carries server-provided names and IDs.
 */
import { sanitizeForTerminal } from "../../../text/sanitize.js";
import { stringifyForTerminal } from "../../../text/terminal-json.js";
import type { CheckResult, CheckStatus } from "./check.js";

const MARKS: Record<CheckStatus, { mark: string; sgr: string }> = {
  pass: { mark: "✓", sgr: "32" },
  fail: { mark: "✗", sgr: "31" },
  skip: { mark: "-", sgr: "2" },
};

export function doctorPassed(results: readonly CheckResult[]): boolean {
  return results.every((r) => r.status !== "fail");
}

export function summaryLine(results: readonly CheckResult[]): string {
  const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
  const failed = count("fail");
  const skipped = count("skip");
  const skippedText = skipped ? `, ${skipped} skipped` : "";
  return failed === 0
    ? `all ${count("pass")} checks passed${skippedText}`
    : `${failed} of ${results.length - skipped} checks failed${skippedText}`;
}

export function formatReportText(results: readonly CheckResult[], colour: boolean): string {
  const width = Math.min(24, Math.max(...results.map((r) => r.title.length)));
  const lines = results.map((r) => {
    const { mark, sgr } = MARKS[r.status];
    const shown = colour ? `\u001b[${sgr}m${mark}\u001b[0m` : mark;
    const fix = r.fix ? ` — fix: ${r.fix}` : "";
    return `${shown} ${sanitizeForTerminal(`${r.title.padEnd(width)}  ${r.message}${fix}`)}`;
  });
  return `${lines.join("\n")}\n${summaryLine(results)}\n`;
}

export function formatReportJson(results: readonly CheckResult[], pretty: boolean): string {
  return `${stringifyForTerminal({ ok: doctorPassed(results), checks: results }, pretty ? 2 : undefined)}\n`;
}
