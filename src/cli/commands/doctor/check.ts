/** One finding of `tvcwatch doctor`: a line with ✓, ✗ or - and, when it failed, the fix. */

export type CheckStatus = "pass" | "fail" | "skip";

export interface CheckResult {
  /** Stable name for scripts: `config-file`, `setting.baseUrl`, `api`, `clock`, ... */
  id: string;
  /** What was checked, as the line starts: `base URL`, `API round trip`. */
  title: string;
  status: CheckStatus;
  /** What was found, one line. */
  message: string;
  /** What to do about a failure, one line. */
  fix?: string;
  /** The measured values, for `-o json`. */
  data?: Record<string, unknown>;
}

export const pass = (
  id: string,
  title: string,
  message: string,
  data?: Record<string, unknown>,
): CheckResult => ({ id, title, status: "pass", message, ...(data ? { data } : {}) });

export const fail = (
  id: string,
  title: string,
  message: string,
  fix: string,
  data?: Record<string, unknown>,
): CheckResult => ({ id, title, status: "fail", message, fix, ...(data ? { data } : {}) });

export const skip = (id: string, title: string, message: string): CheckResult => ({
  id,
  title,
  status: "skip",
  message,
});
