/**
 * `--since` and `--until` (src/text/time-bound.ts) placed in time once every flag is known, and
 * checked together, each refusal one line: `--until` with a follow (it would end what follows) or
 * in the future, a start in the future or after the end, `--until` with `--tail` (which counts
 * back from now, not from the end).
 *
 * For `tail`, a duration back stays what it always was, a window the server measures
 * (`sinceSeconds`); a time (a clock time, RFC 3339) is compared with the lines' own timestamps,
 * the first window reaching back far enough for it, a margin included for the server's clock.
 */
import { format, formatISO, subDays } from "date-fns";
import type { TimeRange } from "../tail/follower.js";
import { instantOf, type TimeBound } from "../text/time-bound.js";
import { CliError } from "./cli-error.js";

/** The history a tail starts with when neither --since nor --tail says (before --until, if given). */
export const DEFAULT_SINCE_MS = 600_000;
/** How far back Turnkey keeps debug logs: the most a window reaches. */
export const RETENTION_MS = 7 * 86_400_000;
/** How much further back a window for a time reaches: the server's clock may be ahead of ours. */
export const SINCE_CLOCK_MARGIN_MS = 60_000;

export interface TimeRangeFlags {
  since?: TimeBound | undefined;
  until?: TimeBound | undefined;
  utc?: boolean | undefined;
  follow?: boolean | undefined;
  tail?: number | undefined;
}

/** `tail`'s first window and range (undefined: every line of the windows). */
export interface TailWindow {
  sinceMs: number | undefined;
  tailLines: number | undefined;
  range: TimeRange | undefined;
}

/** A time as the person sees it: in their zone (or UTC), with the date when it is not today. */
function shownAt(ms: number, now: number, utc: boolean): string {
  const shift = utc ? new Date(ms).getTimezoneOffset() * 60_000 : 0;
  const at = new Date(ms + shift);
  const today = new Date(now + shift).toDateString() === at.toDateString();
  return `${format(at, today ? "HH:mm:ss" : "yyyy-MM-dd HH:mm:ss")}${utc ? " UTC" : ""}`;
}

/** The same time of day, a day earlier, as RFC 3339: what to type for yesterday's. */
function dayBefore(ms: number, utc: boolean): string {
  return utc
    ? new Date(ms - 86_400_000).toISOString().replace(".000Z", "Z")
    : formatISO(subDays(new Date(ms), 1));
}

function refuse(message: string): never {
  throw new CliError(message, 2);
}

/**
 * The range the flags give, as instants (epoch ms on this machine's clock), checked; `until` may
 * stay a duration back (`agoMs`) for a caller that measures it on the server's clock.
 */
export function checkedRange(
  flags: TimeRangeFlags,
  now: number,
): { from: number | undefined; until: number | undefined } {
  const utc = flags.utc === true;
  const { since, until } = flags;
  const from = since && instantOf(since, now, utc);
  const to = until && instantOf(until, now, utc);
  if (until && flags.follow)
    refuse(
      `--until ${until.text} ends what is read, and -f follows new lines: leave one of them out`,
    );
  if (since && from !== undefined && from > now) {
    const other =
      since.kind === "clock" ? ` (for an earlier day give its date: ${dayBefore(from, utc)})` : "";
    refuse(`--since ${since.text} is in the future: it is ${shownAt(now, now, utc)} now${other}`);
  }
  if (until && to !== undefined && to > now)
    refuse(`--until ${until.text} is in the future: it is ${shownAt(now, now, utc)} now`);
  if (since && until && from !== undefined && to !== undefined && from > to)
    refuse(`--since ${since.text} is after --until ${until.text}: nothing is between them`);
  return { from, until: to };
}

/** `tail`'s first window and the range of lines it hands on, from --since, --until and --tail. */
export function tailWindow(flags: TimeRangeFlags, now: number): TailWindow {
  const { since, until } = flags;
  const { from, until: to } = checkedRange(flags, now);
  if (until && flags.tail !== undefined)
    refuse("--tail counts back from now, not from --until: give --since with --until instead");
  if (from !== undefined && now - from > RETENTION_MS)
    refuse(`--since ${since?.text} is more than 7d ago: Turnkey keeps debug logs 7 days`);
  const end: TimeRange["until"] =
    until === undefined
      ? undefined
      : until.kind === "ago"
        ? { agoMs: until.ms }
        : { atMs: to as number };
  if (
    since?.kind === "ago" ||
    (since === undefined && until?.kind !== "clock" && until?.kind !== "instant")
  ) {
    // A window the server measures: --since's, else the last 10 minutes (before --until).
    const sinceMs =
      since?.ms ?? (flags.tail === undefined ? DEFAULT_SINCE_MS + (until?.ms ?? 0) : undefined);
    return { sinceMs, tailLines: flags.tail, range: end && { until: end } };
  }
  // A time: the lines' own timestamps decide; the window reaches back to it, and a margin.
  const fromMs = from ?? (to as number) - DEFAULT_SINCE_MS;
  const sinceMs = Math.min(RETENTION_MS, Math.max(1000, now - fromMs + SINCE_CLOCK_MARGIN_MS));
  return { sinceMs, tailLines: flags.tail, range: { fromMs, until: end } };
}

/**
 * The dashboard's first window (`watch`, `demo`): `--since` as `tail -f` takes it (a duration
 * back, measured by the server; a time, from the lines' own timestamps), 10 minutes without it;
 * `--until` refused, the dashboard following new lines.
 */
export function followWindow(
  flags: Pick<TimeRangeFlags, "since" | "until">,
  now: number,
): { sinceMs: number; range: TimeRange | undefined } {
  if (flags.until)
    refuse(
      `--until ${flags.until.text}: the dashboard follows new lines; read a range with tail --since … --until …, or open FILE --until …`,
    );
  const w = tailWindow({ since: flags.since, follow: true }, now);
  return { sinceMs: w.sinceMs ?? DEFAULT_SINCE_MS, range: w.range };
}
