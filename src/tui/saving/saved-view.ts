/**
 * `S`: the lines of a range written to a file, as `tail` would print them: NDJSON for a name
 * ending in `.ndjson` or `.json` (the lines as `tail -o json` prints them), text otherwise (with
 * times). The first line records where the lines come from: the deployment, the filters (with
 * `open --since / --until`'s range as the flags gave it), the range and its time span, how many log lines and how many gap markers follow (`#` comment in
 * text, a `tvcwatch` object in NDJSON, both written and read by src/logs/saved/saved-header.ts). A ticket
 * bundle (./ticket-bundle.ts) adds its fields to that object.
 */

import { formatEvent } from "../../logs/formats/stream-format.js";
import type { StoredRow } from "../../logs/model/log-store.js";
import {
  type BundleHeaderFields,
  formatJsonHeader,
  formatTextHeader,
} from "../../logs/saved/saved-header.js";
import type { SavedFormat } from "../../logs/saved/saved-line.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { UiState } from "../state/ui-state.js";
import { countRows, rangeRecord, rangeWords, type SaveRange } from "./save-range.js";

/** The formats `S` writes (of those src/logs/saved reads): NDJSON, or text. */
export type WrittenFormat = Exclude<SavedFormat, "plain">;

export function savedFormat(path: string): WrittenFormat {
  return /\.(nd)?json$/i.test(path) ? "ndjson" : "text";
}

export type ViewFilters = Pick<
  UiState,
  | "include"
  | "exclude"
  | "where"
  | "columns"
  | "minLevel"
  | "context"
  | "hiddenReplicas"
  | "onlyReplica"
  | "onlyDeployment"
  | "timeRange"
>;

function filterWords(f: ViewFilters): string {
  const parts = [
    ...f.include.map((i) => `+/${i}/`),
    ...(f.exclude ? [`-/${f.exclude}/`] : []),
    ...f.where.map((q) => `=[${q}]`),
    ...(f.columns ? [`columns ${f.columns.join(",")}`] : []),
    ...(f.minLevel ? [`level>=${f.minLevel}`] : []),
    ...(f.context > 0 ? [`context ${f.context}`] : []),
    ...(f.hiddenReplicas.length > 0 ? [`hidden replicas ${f.hiddenReplicas.join(",")}`] : []),
    ...(f.onlyReplica !== undefined ? [`only replica ${f.onlyReplica}`] : []),
    ...(f.onlyDeployment ? [`only deployment ${f.onlyDeployment.id}`] : []),
    // The range `open --since / --until` gave, as the flags gave it.
    ...(f.timeRange ? [f.timeRange.words] : []),
  ];
  return parts.length > 0 ? parts.join(" ") : "none (everything buffered)";
}

export interface SavedViewHeader {
  /** Undefined when the lines are of no deployment known. */
  deploymentId: string | undefined;
  filters: ViewFilters;
  savedAt: number;
  /** Which lines (default: the view). */
  range?: SaveRange | undefined;
  /** A bundle's own fields, after the others in the NDJSON header. */
  bundle?: BundleHeaderFields | undefined;
}

/** What was written: the file's text, and how many log lines and markers it holds. */
export interface SavedText {
  text: string;
  lines: number;
  markers: number;
}

/** The file's text: the header line, then one line per row (replica lifecycle markers left out). */
export function savedView(
  rows: readonly StoredRow[],
  format: WrittenFormat,
  header: SavedViewHeader,
): SavedText {
  rows = rows.filter((r) => r.event.kind === "line" || r.event.kind === "gap");
  const { lines, markers } = countRows(rows);
  const first = rows[0]?.event.sortKey;
  const last = rows.at(-1)?.event.sortKey;
  const span =
    first === undefined || last === undefined
      ? undefined
      : { from: formatMsRfc3339(first, true), to: formatMsRfc3339(last, true) };
  const range = header.range ?? { kind: "view" };
  const out: string[] = [];
  if (format === "ndjson") {
    const f = header.filters;
    out.push(
      formatJsonHeader(
        {
          deploymentId: header.deploymentId ?? null,
          savedAt: formatMsRfc3339(header.savedAt, true),
          filters: {
            include: f.include,
            exclude: f.exclude ?? null,
            where: f.where,
            minLevel: f.minLevel ?? null,
            context: f.context,
            hiddenReplicas: f.hiddenReplicas,
            onlyReplica: f.onlyReplica ?? null,
            onlyDeployment: f.onlyDeployment?.id ?? null,
            ...(f.columns ? { columns: f.columns } : {}),
            // Recorded as given, not restored: the lines saved are within it already.
            ...(f.timeRange ? { timeRange: f.timeRange.words } : {}),
          },
          from: span?.from ?? null,
          to: span?.to ?? null,
          lines,
          gaps: markers,
          range: rangeRecord(range),
        },
        header.bundle,
      ),
    );
  } else {
    out.push(
      formatTextHeader({
        deploymentId: header.deploymentId,
        filters: filterWords(header.filters),
        range: rangeWords(range),
        span,
        lines,
        gaps: markers,
      }),
    );
  }
  const look = {
    output: format === "ndjson" ? ("json" as const) : ("text" as const),
    timestamps: true,
    utc: true,
    colour: false,
  };
  // The side panes' events are the panes' records, not the log's lines: not written among them.
  for (const { event } of rows)
    if (event.kind !== "replica" && event.kind !== "event") out.push(formatEvent(event, look));
  return { text: `${out.join("\n")}\n`, lines, markers };
}
