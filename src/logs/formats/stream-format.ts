/**
 * How `tvcwatch tail` prints events: text (./text-line.ts: `[replica 2/3] content`, sanitized,
 * optional RFC 3339 time, replica colour on a terminal), JSON (./ndjson-line.ts: one object per
 * line, content exactly as received) or columns of `--fields` (./field-columns.ts). Each format's
 * module writes and reads its lines.
 */

import type { DeploymentDescription } from "../model/deployment-labels.js";
import type { LogEvent, LogLine } from "../model/log-line.js";
import type { FieldColumns } from "./field-columns.js";
import { formatJsonGap, formatJsonLine } from "./ndjson-line.js";
import { formatTextGap, formatTextLine, type TextLineFormat } from "./text-line.js";

export interface StreamFormat extends TextLineFormat {
  output: "text" | "json";
  /** `--fields`: text lines as columns of these fields (./field-columns.ts), in place of the line. */
  columns?: FieldColumns | undefined;
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
    return event.kind === "gap" ? formatJsonGap(event) : formatJsonLine(event, deployment, head);
  }
  if (event.kind === "gap") return formatTextGap(event, f);
  if (f.columns) return f.columns.row(event, head);
  return formatTextLine(event, f);
}
