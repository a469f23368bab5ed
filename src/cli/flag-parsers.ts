/**
 * Commander argument parsers: each turns a flag's text into a value or throws a one-line
 * InvalidArgumentError, which commander prints naming the flag.
 */
import { InvalidArgumentError } from "commander";
import { type FieldQuery, parseQuery } from "../logs/field-query.js";
import { parseFieldList } from "../logs/formats/field-list.js";
import { formatByteSize, parseByteSize } from "../text/byte-size.js";
import { formatDuration, parseDuration } from "../text/duration.js";
import { compilePattern, type Pattern } from "../text/pattern.js";
import { parseTimeBound, type TimeBound } from "../text/time-bound.js";

export function durationFlag(value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** What a flag's value was, short enough for a one-line message. */
function shown(value: string): string {
  return JSON.stringify(value.length > 24 ? `${value.slice(0, 20)}…` : value);
}

/** A bound as it would be typed: 250ms, 10m, 7d. */
function durationText(ms: number): string {
  const day = 86_400_000;
  return ms >= 2 * day && ms % day === 0 ? `${ms / day}d` : ms === 0 ? "0" : formatDuration(ms);
}

/** A duration from `minMs` to `maxMs` (both within what a Node timer can wait). */
export function boundedDurationFlag(minMs: number, maxMs: number) {
  return (value: string): number => {
    const ms = durationFlag(value);
    if (!(ms >= minMs && ms <= maxMs))
      throw new InvalidArgumentError(
        `expected a duration from ${durationText(minMs)} to ${durationText(maxMs)}, got ${shown(value)}`,
      );
    return ms;
  };
}

/** --since: at least a second, at most how long Turnkey keeps debug logs (7 days). */
export const sinceFlag = boundedDurationFlag(1000, 7 * 86_400_000);
/**
 * --since and --until of `tail` and `open`: a duration back (`10m`, 1s to 7d for --since), a
 * clock time or RFC 3339 (src/text/time-bound.ts); placed in time once every flag is known
 * (src/cli/time-range.ts), as a clock time is today in the local zone or, with --utc, in UTC.
 */
export function timeBoundFlag(minAgoMs: number, maxAgoMs = 7 * 86_400_000) {
  const range = boundedDurationFlag(minAgoMs, maxAgoMs);
  return (value: string): TimeBound => {
    let bound: TimeBound;
    try {
      bound = parseTimeBound(value);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
    if (bound.kind === "ago") range(value);
    return bound;
  };
}

/** --interval: no faster than 4 polls a second, no slower than one every 10 minutes. */
export const intervalFlag = boundedDurationFlag(250, 10 * 60_000);
/** --overlap: none, up to 5 minutes of lateness. */
export const overlapFlag = boundedDurationFlag(0, 5 * 60_000);

/** A duration that may be negative, like a clock skew: `-45s`. */
export function signedDurationFlag(value: string): number {
  const negative = value.trim().startsWith("-");
  const ms = durationFlag(negative ? value.trim().slice(1) : value);
  return negative ? -ms : ms;
}

export function integerFlag(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number, got ${JSON.stringify(value)}`);
    const n = Number(value);
    if (n < min || n > max)
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${value}`);
    return n;
  };
}

export function positiveNumberFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive number, got ${JSON.stringify(value)}`);
  return n;
}

export function fractionFlag(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(
      `expected a fraction from 0 to 1 (e.g. 0.2), got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** `MIN-MAX` milliseconds, e.g. `50-200`. */
export function rangeMsFlag(value: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(value.trim());
  if (!m)
    throw new InvalidArgumentError(
      `expected MIN-MAX in milliseconds (e.g. 50-200), got ${JSON.stringify(value)}`,
    );
  const min = Number(m[1]);
  const max = Number(m[2]);
  if (min > max) throw new InvalidArgumentError(`MIN must not exceed MAX in ${value}`);
  return [min, max];
}

/**
 * A pattern, read by the one matcher (src/text/pattern.ts: linear time, smart case: all lower
 * case matches either case); what it cannot take is said in one line.
 */
export function regexFlag(value: string): Pattern {
  try {
    return compilePattern(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** A repeatable pattern (as regexFlag). */
export function collectRegex(value: string, previous: Pattern[] | undefined): Pattern[] {
  return [...(previous ?? []), regexFlag(value)];
}

/** A repeatable field query (src/logs/field-query.ts); a malformed one names its token. */
export function collectQuery(value: string, previous: FieldQuery[] | undefined): FieldQuery[] {
  try {
    return [...(previous ?? []), parseQuery(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** `--fields`: field names separated by commas (src/logs/formats/field-columns.ts). */
export function fieldListFlag(value: string): string[] {
  try {
    return parseFieldList(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** A size (`64MiB`) from `min` to `max` bytes. */
export function byteSizeFlag(min: number, max: number) {
  return (value: string): number => {
    let bytes: number;
    try {
      bytes = parseByteSize(value);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
    if (bytes < min || bytes > max) {
      throw new InvalidArgumentError(
        `${value} is out of range: from ${formatByteSize(min)} to ${formatByteSize(max)}`,
      );
    }
    return bytes;
  };
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A value that must say something: `--base-url ""` is an error, not the default. */
export function textFlag(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError("must not be empty (leave the flag out for the default)");
  return value;
}

/** A repeatable flag whose every value must say something. */
export function collectText(value: string, previous: string[] | undefined): string[] {
  return collect(textFlag(value), previous);
}

// --- Bounded parsers for the simulator's flags -------------------------------------------------

/** A number from `min` to `max`, fractions allowed (a rate). */
export function boundedNumberFlag(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(
        `expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      );
    return n;
  };
}

/** A duration that may be negative (`-2m`), at most `maxMs` either way. */
export function boundedSignedDurationFlag(maxMs: number) {
  return (value: string): number => {
    const ms = signedDurationFlag(value);
    if (Math.abs(ms) > maxMs)
      throw new InvalidArgumentError(
        `expected a duration from -${formatDuration(maxMs)} to ${formatDuration(maxMs)}, got ${JSON.stringify(value)}`,
      );
    return ms;
  };
}

/** `MIN-MAX` milliseconds (`50-200`), neither above `maxMs`. */
export function boundedRangeMsFlag(maxMs: number) {
  return (value: string): [number, number] => {
    const range = rangeMsFlag(value);
    if (range[1] > maxMs)
      throw new InvalidArgumentError(
        `expected MIN-MAX milliseconds from 0 to ${maxMs}, got ${JSON.stringify(value)}`,
      );
    return range;
  };
}
