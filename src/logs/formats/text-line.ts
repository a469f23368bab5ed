/**
 * `tail`'s text line, written and read here: `[replica 2/3] content` (sanitized, a replica colour
 * on a terminal), `[9463b1 0.8.0 canary replica 2/3] content` when following several, with or
 * without the RFC 3339 time of `--timestamps` (UTC or local; `-` and spaces for a line without
 * one); the gap line `--- gap: REASON (FROM to TO) ---`, FROM and TO as RFC 3339 (UTC, or local
 * with its offset); and, when read, grep's `--` between context groups.
 */

import { ansi, replicaColour } from "../../text/colour.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { formatMsRfc3339, formatRfc3339, parseRfc3339 } from "../../text/timestamp.js";
import { type GapMarker, isStamped, type LogLine, timestampSortKey } from "../model/log-line.js";
import type { LineRead } from "./line-read.js";

/** How a text line is written: the time of `--timestamps` (UTC or local), colour, the content. */
export interface TextLineFormat {
  timestamps: boolean;
  utc: boolean;
  colour: boolean;
  /** How a line's content is made printable (default: sanitized); `--highlight` marks it. */
  content?: ((content: string) => string) | undefined;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** In place of the timestamp of a line that has none, as wide as one (UTC ends in Z, local in +hh:mm). */
const NO_TS_LOCAL = "-".padEnd("2026-01-02T03:04:05.123456789+00:00".length);
const NO_TS_UTC = "-".padEnd("2026-01-02T03:04:05.123456789Z".length);

/** How a gap line starts (what tells it from a log line). */
export const GAP_LINE_PREFIX = "--- gap: ";

/** The gap as a line of text (without colour). */
export function formatGapLine(gap: GapMarker, utc: boolean): string {
  return `${GAP_LINE_PREFIX}${gap.reason} (${formatMsRfc3339(gap.from, utc)} to ${formatMsRfc3339(gap.to, utc)}) ---`;
}

/** A log line as `tail` prints it in text. */
export function formatTextLine(line: LogLine, f: TextLineFormat): string {
  const label = renderReplicaLabel(line.replicaLabel, f.colour);
  const content = f.content ? f.content(line.content) : sanitizeForTerminal(line.content);
  if (!f.timestamps) return `${label} ${content}`;
  const time = isStamped(line)
    ? formatRfc3339(line.seconds, line.nanos, f.utc)
    : f.utc
      ? NO_TS_UTC
      : NO_TS_LOCAL;
  return `${time} ${label} ${content}`;
}

/** A gap as `tail` prints it in text: dim on a terminal. */
export function formatTextGap(gap: GapMarker, f: TextLineFormat): string {
  const text = formatGapLine(gap, f.utc);
  return f.colour ? `\u001b[2m${text}\u001b[22m` : text;
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

// ---------------------------------------------------------------------------------------------
// Reading

const GAP_LINE = /^--- gap: ([\s\S]*) \((\S+) to (\S+)\) ---$/;

/** The gap a line of text states; undefined when it is not a gap line. */
export function readGapLine(text: string): GapMarker | undefined {
  const m = GAP_LINE.exec(text);
  const from = m && parseRfc3339(m[2] as string);
  const to = m && parseRfc3339(m[3] as string);
  if (!m || !from || !to) return undefined;
  const toMs = timestampSortKey(to.seconds, to.nanos);
  return {
    kind: "gap",
    from: timestampSortKey(from.seconds, from.nanos),
    to: toMs,
    reason: m[1] as string,
    sortKey: toMs,
  };
}

/**
 * A label `tail` prefixed with a deployment's short id when following several, and its version
 * and role when known (`0c7e55 0.8.0 canary replica 2/3`).
 */
export const DEPLOYMENT_LABEL = /^(\S+)(?: \S+){0,2} (replica \d+\s*\/\s*\d+)$/;

/** A line as `tail` prints it in text (without colour); undefined when it is not one. */
export function readTextLine(text: string): LineRead | undefined {
  let at = 0;
  let time: { seconds: number; nanos: number } | undefined;
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const space = text.indexOf(" ");
    if (space < 0 || space > 40) return undefined;
    time = parseRfc3339(text.slice(0, space));
    if (!time) return undefined;
    at = space + 1;
  } else if (c === 45 /* - */) {
    if (text === "--") return { kind: "skip" };
    if (text.startsWith(GAP_LINE_PREFIX)) return readTextGap(text);
    at = 1;
    while (text.charCodeAt(at) === 32) at++;
    if (at < 2) return undefined;
  }
  if (text.charCodeAt(at) !== 91 /* [ */) return undefined;
  let close = text.indexOf("] ", at + 1);
  if (close < 0) {
    if (text.charCodeAt(text.length - 1) !== 93 /* ] */) return undefined;
    close = text.length - 1;
  }
  const replicaLabel = text.slice(at + 1, close);
  const content = text.slice(close + 2);
  const prefixed = DEPLOYMENT_LABEL.exec(replicaLabel);
  const line: LogLine = {
    kind: "line",
    replicaLabel,
    seconds: time ? String(time.seconds) : undefined,
    nanos: time ? time.nanos : undefined,
    sortKey: time ? timestampSortKey(time.seconds, time.nanos) : Number.NaN,
    content,
    late: false,
    ...(prefixed ? { deploymentId: prefixed[1] as string } : {}),
  };
  return { kind: "line", line, level: undefined };
}

function readTextGap(text: string): LineRead | undefined {
  const gap = readGapLine(text);
  return gap ? { kind: "gap", gap } : undefined;
}

/** Whether a line reads as `tail` text (for telling the format): a replica label, a gap, `--`. */
export function looksLikeTailText(text: string): boolean {
  const read = readTextLine(text);
  if (!read) return false;
  return read.kind !== "line" || /replica \d+\s*\/\s*\d+/.test(read.line.replicaLabel);
}
