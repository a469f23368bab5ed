/**
 * `tail -o json`'s line, written and read here: one JSON object per line, content exactly as
 * received; JSON escaping, extended to C1, bidi and zero-width characters, makes it safe.
 *
 * A line is `{deploymentId?, replicaLabel, ts, content, time, level}`: `ts` the timestamp's
 * {seconds, nanos} texts as received (null without one), then what other tools read without
 * knowing that shape: `time`, the same instant as RFC 3339 in UTC with nanoseconds (null without
 * a timestamp, or one no RFC 3339 time can say), and `level`, the level the filters read in the
 * content (../../text/log-level.ts levelOfContent, as the filters read it: trace, debug, info,
 * warn, error, fatal; null when it states none). A gap is `{event: "gap", from, to, reason, time,
 * level: null}`, its `time` being where it sorts (its `to`). A line whose deployment Turnkey's
 * records describe (one followed alone or among several) adds `deploymentVersion` (its QOS
 * version) and `deploymentRole` (`live`, or `canary` when its app names another deployment live),
 * each only when known; `replica` and `replicas`, the numbers in a `replica 2/3` label (the
 * replica's number, which stays when replicas join or leave, and the count then; only when the
 * label says them: `replicaLabel` keeps the server's text). A line continuing an event (a stack
 * frame, ../line-groups.ts) carries its event's `level` and adds `"continues": true`. New fields
 * only ever come after these.
 *
 * Reading takes a parsed value and passes other fields over, so later additions read too; a line
 * without `ts` is placed at its `time` (another program's NDJSON).
 */

import { LOG_LEVELS, type LogLevel, levelOfContent } from "../../text/log-level.js";
import { escapeJsonForTerminal, stringifyForTerminal } from "../../text/terminal-json.js";
import { formatMsRfc3339, msToUtcRfc3339, parseRfc3339, utcRfc3339 } from "../../text/timestamp.js";
import type { DeploymentDescription } from "../model/deployment-labels.js";
import {
  type GapMarker,
  isStamped,
  type LogLine,
  packNanos,
  timestampSortKey,
} from "../model/log-line.js";
import { replicaPosition } from "../replicas.js";
import type { LineRead } from "./line-read.js";

// ---------------------------------------------------------------------------------------------
// Writing

function jsonString(text: string): string {
  return escapeJsonForTerminal(JSON.stringify(text));
}

/** `,"deploymentVersion":"0.8.0","deploymentRole":"canary"`, each only when known. */
function describedFields(d: DeploymentDescription | undefined): string {
  if (!d) return "";
  const version = d.version === undefined ? "" : `,"deploymentVersion":${jsonString(d.version)}`;
  const role = d.role === undefined ? "" : `,"deploymentRole":"${d.role}"`;
  return version + role;
}

/** `,"replica":2,"replicas":3` from a `replica 2/3` label; nothing when it says neither. */
function positionFields(label: string): string {
  const p = replicaPosition(label);
  return p ? `,"replica":${p.replica},"replicas":${p.replicas}` : "";
}

/**
 * A log line as `tail -o json` prints it; `deployment` is what its deployment is, when known;
 * `head` the first line of the event the line continues (its level, and `continues`).
 */
export function formatJsonLine(
  line: LogLine,
  deployment?: DeploymentDescription,
  head?: LogLine,
): string {
  // The same text JSON.stringify makes of {replicaLabel, ts: {seconds, nanos} | null, content,
  // time, level}, with less work: only the strings go through it.
  const stamped = isStamped(line);
  const ts = stamped
    ? `{"seconds":${jsonString(line.seconds)},"nanos":${jsonString(String(line.nanos))}}`
    : "null";
  const rfc3339 = stamped ? utcRfc3339(line.seconds, line.nanos) : undefined;
  // Digits, '-', 'T', ':', '.' and 'Z' only: nothing to escape.
  const time = rfc3339 === undefined ? "null" : `"${rfc3339}"`;
  const level = levelOfContent((head ?? line).content);
  const from =
    line.deploymentId === undefined ? "" : `"deploymentId":${jsonString(line.deploymentId)},`;
  return `{${from}"replicaLabel":${jsonString(line.replicaLabel)},"ts":${ts},"content":${jsonString(line.content)},"time":${time},"level":${level === undefined ? "null" : `"${level}"`}${describedFields(deployment)}${positionFields(line.replicaLabel)}${head ? ',"continues":true' : ""}}`;
}

/** A gap as `tail -o json` prints it. */
export function formatJsonGap(gap: GapMarker): string {
  return stringifyForTerminal({
    event: "gap",
    from: formatMsRfc3339(gap.from, true),
    to: formatMsRfc3339(gap.to, true),
    reason: gap.reason,
    time: msToUtcRfc3339(gap.sortKey) ?? null,
    level: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function timeOfRfc3339(text: unknown): { seconds: number; nanos: number } | undefined {
  return typeof text === "string" ? parseRfc3339(text) : undefined;
}

function msOf(t: { seconds: number; nanos: number }): number {
  return timestampSortKey(t.seconds, t.nanos);
}

function readJsonGap(value: Record<string, unknown>): LineRead | undefined {
  const from = timeOfRfc3339(value.from);
  const to = timeOfRfc3339(value.to);
  if (!from || !to) return undefined;
  const at = timeOfRfc3339(value.time) ?? to;
  return {
    kind: "gap",
    gap: {
      kind: "gap",
      from: msOf(from),
      to: msOf(to),
      reason: typeof value.reason === "string" ? value.reason : "",
      sortKey: msOf(at),
    },
  };
}

/**
 * A parsed NDJSON value as `tail -o json` writes it: a line or a gap; undefined for anything
 * else. `level` is the line's `level` field: a level, null when it says none, undefined when it
 * has none (or one tvcwatch does not write).
 */
export function readJsonLine(value: unknown): LineRead | undefined {
  if (!isRecord(value)) return undefined;
  if (value.event === "gap") return readJsonGap(value);
  const { replicaLabel, content, ts, deploymentId } = value;
  if (typeof replicaLabel !== "string" || typeof content !== "string") return undefined;
  let seconds: string | undefined;
  let nanos: number | string | undefined;
  let sortKey = Number.NaN;
  if (isRecord(ts) && (typeof ts.seconds === "string" || typeof ts.seconds === "number")) {
    const n = ts.nanos;
    if (typeof n === "string" || typeof n === "number") {
      seconds = String(ts.seconds);
      nanos = packNanos(String(n));
      sortKey = timestampSortKey(Number(seconds), Number(nanos));
    }
  }
  if (seconds === undefined) {
    const time = timeOfRfc3339(value.time);
    if (time) {
      seconds = String(time.seconds);
      nanos = time.nanos;
      sortKey = msOf(time);
    }
  }
  const level =
    value.level === null
      ? null
      : (LOG_LEVELS as readonly unknown[]).includes(value.level)
        ? (value.level as LogLevel)
        : undefined;
  const line: LogLine = {
    kind: "line",
    replicaLabel,
    seconds,
    nanos,
    sortKey: Number.isFinite(sortKey) ? sortKey : Number.NaN,
    content,
    late: false,
    ...(typeof deploymentId === "string" ? { deploymentId } : {}),
  };
  return { kind: "line", line, level };
}
