/**
 * Commander argument parsers: each turns a flag's text into a value or throws a one-line
 * InvalidArgumentError, which commander prints naming the flag.
 */
import { InvalidArgumentError } from "commander";
import { formatByteSize, parseByteSize } from "../text/byte-size.js";
import { parseDuration } from "../text/duration.js";

export function durationFlag(value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

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

export function regexFlag(value: string): RegExp {
  try {
    return new RegExp(value);
  } catch (err) {
    throw new InvalidArgumentError(`invalid regular expression: ${(err as Error).message}`);
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
