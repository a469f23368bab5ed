/**
 * The follower's state in words, for `tail`'s stderr and the dashboard's status line:
 * `live`, `retrying in 3s, attempt 4: connection refused by 127.0.0.1:8787`, and the figures
 * (rate, latency, window, overlap and late lines) marked stale while the follow is not live.
 */
import { sanitizeForTerminal } from "../text/sanitize.js";
import type { FollowerState } from "./follower.js";

function seconds(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10}s`;
  return `${Math.round(ms / 1000)}s`;
}

function count(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: n < 10 ? 1 : 0 });
}

/** The follow's phase in one line: `live`, or when the next try is and why the last failed. */
export function formatFollowerStatus(s: FollowerState, nowMono: number): string {
  switch (s.phase) {
    case "starting":
      return "connecting";
    case "live":
      return "live";
    case "retrying": {
      const reason = sanitizeForTerminal(s.lastError ?? "the poll failed");
      const attempt = `attempt ${s.retries + 1}`;
      if (s.nextPollAt === undefined || s.nextPollAt <= nowMono)
        return `retrying now, ${attempt}: ${reason}`;
      const wait = Math.max(1, Math.ceil((s.nextPollAt - nowMono) / 1000));
      const asked = s.retryAfter ? " (the server's Retry-After)" : "";
      return `retrying in ${wait}s${asked}, ${attempt}: ${reason}`;
    }
    case "failed":
      return `stopped: ${sanitizeForTerminal(s.lastError ?? "the follow failed")}`;
    default:
      return "stopped";
  }
}

/**
 * The figures behind the phase: lines/s, poll latency, the window and its overlap, late lines,
 * entries the server sent per line. While not live they describe the last successful poll, and
 * say so (`stale, last poll 12s ago`).
 */
export function formatFollowerFigures(s: FollowerState, nowMono: number): string {
  const parts: string[] = [`${count(s.linesPerSecond)} lines/s`];
  if (s.lastPollLatencyMs !== undefined) parts.push(`poll ${Math.round(s.lastPollLatencyMs)}ms`);
  if (s.lastWindowSeconds !== undefined) parts.push(`window ${s.lastWindowSeconds}s`);
  const a = s.arrival;
  parts.push(
    a.measured
      ? `overlap ${seconds(a.overlapMs)}`
      : `overlap ${seconds(a.overlapMs)} (no Date header: lateness not measured)`,
  );
  const late =
    a.lateLines === 0
      ? "late lines 0"
      : `late lines ${count(a.lateLines)}${a.recentLateMs > 0 ? ` (up to ${seconds(a.recentLateMs)} in the last minute)` : ""}`;
  parts.push(late);
  if (a.lagging)
    parts.push(
      `${sanitizeForTerminal(a.lagging.replicaLabel)} ${seconds(a.lagging.behindMs)} behind`,
    );
  if (s.linesEmitted > 0)
    parts.push(`${(s.entriesServed / s.linesEmitted).toFixed(2)} entries per line`);
  const text = parts.join(" · ");
  if (s.phase === "live" || s.lastSuccessAt === undefined) return text;
  return `stale, last poll ${seconds(nowMono - s.lastSuccessAt)} ago: ${text}`;
}

/** With verbose, how often the follow's figures are written while it is live. */
const VERBOSE_EVERY_MS = 10_000;

/**
 * The follow's status as it changes, one line each (`tail` writes them on stderr): every failed
 * poll (`retrying in 3s, attempt 4: <reason>`), the return (`live again after 15s`), and when
 * verbose the figures (rate, latency, window, overlap, late lines, entries per line) when the
 * follow starts and every 10 s.
 */
export class StatusReporter {
  private last: FollowerState | undefined;
  private downSince: number | undefined;
  private figuresAt: number | undefined;

  constructor(
    private readonly verbose: boolean,
    private readonly write: (line: string) => void,
  ) {}

  /** The follower's state now (`nowMono` on its monotonic clock). */
  see(s: FollowerState, now: number): void {
    const prev = this.last;
    this.last = s;
    if (s.phase === "retrying") {
      // One line per failed poll (or retried attempt), when its next try is known.
      if (
        prev?.phase === "retrying" &&
        prev.retries === s.retries &&
        prev.nextPollAt === s.nextPollAt
      )
        return;
      this.downSince ??= now;
      this.write(formatFollowerStatus(s, now));
      return;
    }
    if (s.phase !== "live") return;
    if (this.downSince !== undefined) {
      this.write(`live again after ${Math.max(1, Math.round((now - this.downSince) / 1000))}s`);
      this.downSince = undefined;
    }
    if (
      this.verbose &&
      (this.figuresAt === undefined || now - this.figuresAt >= VERBOSE_EVERY_MS)
    ) {
      this.figuresAt = now;
      this.write(`live · ${formatFollowerFigures(s, now)}`);
    }
  }
}
