import { format } from "date-fns";

/**
 * RFC 3339 with nanoseconds, in the local zone (`2026-11-22T12:01:02.123456789+01:00`) or UTC
 * (`...Z`), from a proto timestamp's seconds and nanos (as text, or nanos as a number).
 */
export function formatRfc3339(seconds: string, nanos: string | number, utc: boolean): string {
  const [head, zone] = secondParts(seconds, utc);
  return head === undefined ? "invalid-timestamp" : `${head}.${nineDigits(nanos)}${zone}`;
}

/** The nanos field as nine digits: as received when it is digits already (the usual case). */
function nineDigits(value: string | number): string {
  const nanos = typeof value === "number" ? String(value) : value;
  const len = nanos.length;
  let digits = len > 0 && len <= 9;
  for (let i = 0; digits && i < len; i++) {
    const c = nanos.charCodeAt(i);
    digits = c >= 48 && c <= 57;
  }
  if (digits) return len === 9 ? nanos : nanos.padStart(9, "0");
  return String(Math.max(0, Math.min(999_999_999, Math.trunc(Number(nanos)) || 0))).padStart(
    9,
    "0",
  );
}

/** Lines come many to a second: the date part of the last second formatted is kept. */
const lastSecond = {
  utc: { key: "", parts: ["", ""] as [string | undefined, string] },
  local: { key: "", parts: ["", ""] as [string | undefined, string] },
};

function secondParts(seconds: string, utc: boolean): [string | undefined, string] {
  const cache = utc ? lastSecond.utc : lastSecond.local;
  if (cache.key === seconds) return cache.parts;
  const date = new Date(Number(seconds) * 1000);
  const parts: [string | undefined, string] = Number.isNaN(date.getTime())
    ? [undefined, ""]
    : utc
      ? [date.toISOString().slice(0, 19), "Z"]
      : [format(date, "yyyy-MM-dd'T'HH:mm:ss"), format(date, "xxx")];
  cache.key = seconds;
  cache.parts = parts;
  return parts;
}

/** RFC 3339 of epoch milliseconds, to the millisecond. */
export function formatMsRfc3339(ms: number, utc: boolean): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "invalid-timestamp";
  if (utc) return date.toISOString();
  return format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx");
}
