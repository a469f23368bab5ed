/**
 * `open --since / --until`: the same forms as `tail`'s (src/text/time-bound.ts), placed on the
 * saved lines' clock, as a postmortem reads them: a duration counts back from the newest line
 * read (`--since 15m`: the last 15 minutes of the incident, whenever the file is opened), a clock
 * time is on the newest line's day, in the local zone (as the dashboard shows times), and RFC
 * 3339 is that instant. With no line read yet (a pipe), from now. A start after the end is
 * refused in one line; an end after the newest line is not (a followed file grows).
 */
import type { TimeWindow } from "../../../logs/line-filter.js";
import { instantOf, type TimeBound } from "../../../text/time-bound.js";
import { localDateTime } from "../../../text/timestamp.js";
import { CliError } from "../../cli-error.js";

/** The range the view opens with, and what the status line says of it. */
export type OpenRange = TimeWindow & { words: string };

function shown(ms: number): string {
  return localDateTime(new Date(ms), " ");
}

/** The range of `--since` and `--until`, `newestMs` the newest line's time (undefined: none yet). */
export function openRange(
  flags: { since?: TimeBound | undefined; until?: TimeBound | undefined },
  newestMs: number | undefined,
  now: number,
): OpenRange | undefined {
  const { since, until } = flags;
  if (!since && !until) return undefined;
  const base = newestMs ?? now;
  const fromMs = since && instantOf(since, base, false);
  const untilMs = until && instantOf(until, base, false);
  if (fromMs !== undefined && untilMs !== undefined && fromMs > untilMs)
    throw new CliError(
      `--since ${since?.text} (${shown(fromMs)}) is after --until ${until?.text} (${shown(untilMs)}): nothing is between them`,
      2,
    );
  const words = [since && `since ${since.text}`, until && `until ${until.text}`]
    .filter((w): w is string => w !== undefined)
    .join(" ");
  return { fromMs, untilMs, words };
}
