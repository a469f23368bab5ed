import { format } from "date-fns";

/**
 * RFC 3339 with nanoseconds, in the local zone (`2026-11-22T12:01:02.123456789+01:00`) or UTC
 * (`...Z`), from a proto timestamp's seconds and nanos.
 */
export function formatRfc3339(ts: { seconds: string; nanos: string }, utc: boolean): string {
  const seconds = Number(ts.seconds);
  const nanos = String(Math.max(0, Math.min(999_999_999, Number(ts.nanos) || 0))).padStart(9, "0");
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return "invalid-timestamp";
  if (utc) return `${date.toISOString().slice(0, 19)}.${nanos}Z`;
  return `${format(date, "yyyy-MM-dd'T'HH:mm:ss")}.${nanos}${format(date, "xxx")}`;
}

/** RFC 3339 of epoch milliseconds, to the millisecond. */
export function formatMsRfc3339(ms: number, utc: boolean): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "invalid-timestamp";
  if (utc) return date.toISOString();
  return format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx");
}
