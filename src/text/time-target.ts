/**
 * A time to go to, as on-call types it: `-5m`, `-90s`, `-1h30m` (before `now`), `14:02` or
 * `14:02:10.5` (in the local zone, as the dashboard shows times, on the day of `reference`), or
 * a full RFC 3339 time. Returns epoch ms, or a one-line reason.
 */
export type TimeTarget = { ms: number } | { error: string };

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const RELATIVE = /^-((?:\d+(?:\.\d+)?[smhd])+)$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

export function parseTimeTarget(text: string, now: number, reference: number): TimeTarget {
  const t = text.trim();
  const rel = RELATIVE.exec(t);
  if (rel) {
    let ms = 0;
    for (const m of (rel[1] as string).matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) {
      ms += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    }
    return { ms: now - ms };
  }
  const clock = CLOCK.exec(t);
  if (clock) {
    const [h, m, s] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
    if (h > 23 || m > 59 || s > 59) return { error: `time: ${t} is not a time of day` };
    const day = new Date(reference);
    const ms = new Date(day.getFullYear(), day.getMonth(), day.getDate(), h, m, s).getTime();
    return { ms: ms + Math.round(Number(clock[4] ?? 0) * 1000) };
  }
  if (RFC3339.test(t)) {
    const ms = Date.parse(t.replace(" ", "T"));
    if (Number.isFinite(ms)) return { ms };
  }
  return { error: "time: give -5m, -90s, 14:02:10 (local, as shown) or 2026-11-25T14:02:10Z" };
}
