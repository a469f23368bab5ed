/**
 * Durations as people type them: `500ms`, `45s`, `10m`, `1h`, `1h30m`, `2d`. A bare number is
 * seconds. Returns milliseconds; throws an Error with a one-line message otherwise.
 */
const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

export function parseDuration(text: string): number {
  const input = text.trim();
  if (/^\d+(\.\d+)?$/.test(input)) return Math.round(Number(input) * 1000);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = part.exec(input); match; match = part.exec(input)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? "s"] ?? 1000);
    consumed = part.lastIndex;
  }
  if (input.length === 0 || consumed !== input.length) {
    throw new Error(`${JSON.stringify(text)} is not a duration (examples: 500ms, 45s, 10m, 1h30m)`);
  }
  return Math.round(total);
}

/** A short human form of a duration: 850ms, 12s, 3m20s, 2h5m. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
}

/** A compact age: 12s, 4m, 3h, 2d; "?" when the time is not a time. */
export function shortAge(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
