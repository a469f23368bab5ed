/** Doctor's line on the server's clock, read from the round trip's Date header. */
import type { CheckResult } from "./check.js";
import { fail, pass, skip } from "./check.js";
import { CLOCK_TOLERANCE_MS, clockOffset, describeOffset } from "./clock-offset.js";
import type { ReachedApi } from "./round-trip-check.js";

export function serverClockCheck(reached: ReachedApi | undefined): CheckResult {
  if (!reached)
    return skip("clock", "server clock", "no answer from the API to read its clock from");
  const measured = clockOffset(reached.whoami.meta);
  if (!measured) return skip("clock", "server clock", "the API's answer carried no Date header");
  const { offsetMs, uncertaintyMs } = measured;
  const text = `the server's clock ${describeOffset(offsetMs, uncertaintyMs)}`;
  const data = { offsetMs, uncertaintyMs };
  return Math.abs(offsetMs) - uncertaintyMs > CLOCK_TOLERANCE_MS
    ? fail(
        "clock",
        "server clock",
        text,
        "if this machine's clock is wrong, sync it (e.g. timedatectl set-ntp true); tail is unaffected, but activity timestamps (timestampMs) and the times shown are off by as much",
        data,
      )
    : pass("clock", "server clock", text, data);
}
