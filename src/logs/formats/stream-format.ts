/**
 * How `tvcwatch tail` prints events: text (`[replica 2/3] content`, sanitized, optional RFC 3339
 * time, replica colour on a terminal) or JSON (one object per line, content exactly as received;
 * JSON escaping, extended to C1, bidi and zero-width characters, makes it safe).
 *
 * A JSON line is `{deploymentId?, replicaLabel, ts, content, time, level}`: `ts` the timestamp's
 * {seconds, nanos} texts as received (null without one), then what other tools read without
 * knowing that shape: `time`, the same instant as RFC 3339 in UTC with nanoseconds (null without
 * a timestamp, or one no RFC 3339 time can say), and `level`, the level the filters read in the
 * content (../text/log-level.ts levelOfContent, as the filters read it: trace, debug, info, warn, error, fatal; null when it states
 * none). A gap is `{event: "gap", from, to, reason, time, level: null}`, its `time` being where it
 * sorts (its `to`). A line whose deployment Turnkey's records describe (one followed alone or
 * among several) adds `deploymentVersion` (its QOS version) and `deploymentRole` (`live`, or
 * `canary` when its app names another deployment live), each only when known; `replica` and
 * `replicas`, the numbers in a `replica 2/3` label (the replica's number, which stays when
 * replicas join or leave, and the count then; only when the label says them: `replicaLabel` keeps
 * the server's text). A line continuing
 * an event (a stack frame, ../line-groups.ts) carries its event's `level` and adds
 * `"continues": true`. New fields only ever come after these.
 */

import { ansi, replicaColour } from "../../text/colour.js";
import { levelOfContent } from "../../text/log-level.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { escapeJsonForTerminal, stringifyForTerminal } from "../../text/terminal-json.js";
import {
  formatMsRfc3339,
  formatRfc3339,
  msToUtcRfc3339,
  utcRfc3339,
} from "../../text/timestamp.js";
import type { DeploymentDescription } from "../model/deployment-labels.js";
import { isStamped, type LogEvent, type LogLine } from "../model/log-line.js";
import { replicaPosition } from "../replicas.js";
import type { FieldColumns } from "./field-columns.js";
import { formatGapLine } from "./gap-line.js";

export interface StreamFormat {
  output: "text" | "json";
  timestamps: boolean;
  utc: boolean;
  colour: boolean;
  /** How a line's content is made printable in text (default: sanitized); `--highlight` marks it. */
  content?: ((content: string) => string) | undefined;
  /** `--fields`: text lines as columns of these fields (./field-columns.ts), in place of the line. */
  columns?: FieldColumns | undefined;
}

/** In place of the timestamp of a line that has none, as wide as one (UTC ends in Z, local in +hh:mm). */
const NO_TS_LOCAL = "-".padEnd("2026-01-02T03:04:05.123456789+00:00".length);
const NO_TS_UTC = "-".padEnd("2026-01-02T03:04:05.123456789Z".length);

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
 * One event as `tail` prints it; `deployment` is what its deployment is, when known (JSON);
 * `head` the first line of the event a line continues (JSON: its level, and `continues`;
 * columns: printed whole under it).
 */
export function formatEvent(
  event: LogEvent,
  f: StreamFormat,
  deployment?: DeploymentDescription,
  head?: LogLine,
): string {
  if (f.output === "json") {
    if (event.kind === "gap") {
      return stringifyForTerminal({
        event: "gap",
        from: formatMsRfc3339(event.from, true),
        to: formatMsRfc3339(event.to, true),
        reason: event.reason,
        time: msToUtcRfc3339(event.sortKey) ?? null,
        level: null,
      });
    }
    // The same text JSON.stringify makes of {replicaLabel, ts: {seconds, nanos} | null, content,
    // time, level}, with
    // less work: only the strings go through it.
    const stamped = isStamped(event);
    const ts = stamped
      ? `{"seconds":${jsonString(event.seconds)},"nanos":${jsonString(String(event.nanos))}}`
      : "null";
    const rfc3339 = stamped ? utcRfc3339(event.seconds, event.nanos) : undefined;
    // Digits, '-', 'T', ':', '.' and 'Z' only: nothing to escape.
    const time = rfc3339 === undefined ? "null" : `"${rfc3339}"`;
    const level = levelOfContent((head ?? event).content);
    const from =
      event.deploymentId === undefined ? "" : `"deploymentId":${jsonString(event.deploymentId)},`;
    return `{${from}"replicaLabel":${jsonString(event.replicaLabel)},"ts":${ts},"content":${jsonString(event.content)},"time":${time},"level":${level === undefined ? "null" : `"${level}"`}${describedFields(deployment)}${positionFields(event.replicaLabel)}${head ? ',"continues":true' : ""}}`;
  }
  if (event.kind === "gap") {
    const text = formatGapLine(event, f.utc);
    return f.colour ? `\u001b[2m${text}\u001b[22m` : text;
  }
  if (f.columns) return f.columns.row(event, head);
  const label = renderReplicaLabel(event.replicaLabel, f.colour);
  const content = f.content ? f.content(event.content) : sanitizeForTerminal(event.content);
  if (!f.timestamps) return `${label} ${content}`;
  const time = isStamped(event)
    ? formatRfc3339(event.seconds, event.nanos, f.utc)
    : f.utc
      ? NO_TS_UTC
      : NO_TS_LOCAL;
  return `${time} ${label} ${content}`;
}

/**
 * Rendered `[replica i/K]` labels. Replicas take turns line by line, so a few are kept; labels
 * arrive as fresh strings in every response, and comparing a few beats hashing each one.
 */
const renderedLabels: { text: string; colour: boolean; rendered: string }[] = [];

export function renderReplicaLabel(label: string, colour: boolean): string {
  for (let i = 0; i < renderedLabels.length; i++) {
    const r = renderedLabels[i] as (typeof renderedLabels)[number];
    if (r.text === label && r.colour === colour) return r.rendered;
  }
  const plain = `[${sanitizeForTerminal(label)}]`;
  const rendered = colour ? ansi(replicaColour(label), plain) : plain;
  if (renderedLabels.length >= 16) renderedLabels.pop();
  renderedLabels.unshift({ text: label, colour, rendered });
  return rendered;
}
