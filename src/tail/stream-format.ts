/**
 * How `tvcwatch tail` prints events: text (`[replica 2/3] content`, sanitized, optional RFC 3339
 * time, replica colour on a terminal) or JSON (one object per line, content exactly as received;
 * JSON escaping makes it safe).
 */
import { ansi, replicaColour } from "../text/colour.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { formatMsRfc3339, formatRfc3339 } from "../text/timestamp.js";
import type { LogEvent } from "./log-line.js";

export interface StreamFormat {
  output: "text" | "json";
  timestamps: boolean;
  utc: boolean;
  colour: boolean;
}

/** In place of the timestamp of a line that has none, as wide as one (UTC ends in Z, local in +hh:mm). */
const NO_TS_LOCAL = "-".padEnd("2026-01-02T03:04:05.123456789+00:00".length);
const NO_TS_UTC = "-".padEnd("2026-01-02T03:04:05.123456789Z".length);

export function formatEvent(event: LogEvent, f: StreamFormat): string {
  if (f.output === "json") {
    if (event.kind === "gap") {
      return JSON.stringify({
        event: "gap",
        from: formatMsRfc3339(event.from, true),
        to: formatMsRfc3339(event.to, true),
        reason: event.reason,
      });
    }
    return JSON.stringify({
      replicaLabel: event.replicaLabel,
      ts: event.ts ?? null,
      content: event.content,
    });
  }
  if (event.kind === "gap") {
    const text = `--- gap: ${event.reason} (${formatMsRfc3339(event.from, f.utc)} to ${formatMsRfc3339(event.to, f.utc)}) ---`;
    return f.colour ? `\u001b[2m${text}\u001b[22m` : text;
  }
  const label = replicaLabel(event.replicaLabel, f.colour);
  const content = sanitizeForTerminal(event.content);
  if (!f.timestamps) return `${label} ${content}`;
  const time = event.ts ? formatRfc3339(event.ts, f.utc) : f.utc ? NO_TS_UTC : NO_TS_LOCAL;
  return `${time} ${label} ${content}`;
}

/** The rendered `[replica i/K]` label: labels repeat line after line, so the last one is kept. */
const lastLabel = { text: "", colour: false, rendered: "" };

function replicaLabel(label: string, colour: boolean): string {
  if (label === lastLabel.text && colour === lastLabel.colour) return lastLabel.rendered;
  const plain = `[${sanitizeForTerminal(label)}]`;
  lastLabel.text = label;
  lastLabel.colour = colour;
  lastLabel.rendered = colour ? ansi(replicaColour(label), plain) : plain;
  return lastLabel.rendered;
}
