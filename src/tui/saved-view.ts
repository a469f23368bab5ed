/**
 * `S`: the view written to a file, as `tail` would print it: NDJSON for a name ending in
 * `.ndjson` or `.json` (the lines as `tail -o json` prints them), text otherwise (with times).
 * The first line records where the lines come from: the deployment, the filters and the time
 * range (`#` comment in text, a `tvcwatch` object in NDJSON).
 */
import type { StoredRow } from "../tail/log-store.js";
import { formatEvent } from "../tail/stream-format.js";
import { formatMsRfc3339 } from "../text/timestamp.js";
import type { UiState } from "./ui-state.js";

export type SavedFormat = "ndjson" | "text";

export function savedFormat(path: string): SavedFormat {
  return /\.(nd)?json$/i.test(path) ? "ndjson" : "text";
}

export type ViewFilters = Pick<
  UiState,
  "include" | "exclude" | "minLevel" | "context" | "hiddenReplicas" | "onlyDeployment"
>;

function filterWords(f: ViewFilters): string {
  const parts = [
    ...f.include.map((i) => `+/${i}/`),
    ...(f.exclude ? [`-/${f.exclude}/`] : []),
    ...(f.minLevel ? [`level>=${f.minLevel}`] : []),
    ...(f.context > 0 ? [`context ${f.context}`] : []),
    ...(f.hiddenReplicas.length > 0 ? [`hidden replicas ${f.hiddenReplicas.join(",")}`] : []),
    ...(f.onlyDeployment ? [`only deployment ${f.onlyDeployment.id}`] : []),
  ];
  return parts.length > 0 ? parts.join(" ") : "none (everything buffered)";
}

/** The file's text: the header line, then one line per row. */
export function savedView(
  rows: readonly StoredRow[],
  format: SavedFormat,
  header: { deploymentId: string; filters: ViewFilters; savedAt: number },
): string {
  rows = rows.filter((r) => r.event.kind !== "replica");
  const first = rows[0]?.event.sortKey;
  const last = rows.at(-1)?.event.sortKey;
  const range =
    first === undefined || last === undefined
      ? undefined
      : { from: formatMsRfc3339(first, true), to: formatMsRfc3339(last, true) };
  const out: string[] = [];
  if (format === "ndjson") {
    const f = header.filters;
    out.push(
      JSON.stringify({
        tvcwatch: {
          deploymentId: header.deploymentId,
          savedAt: formatMsRfc3339(header.savedAt, true),
          filters: {
            include: f.include,
            exclude: f.exclude ?? null,
            minLevel: f.minLevel ?? null,
            context: f.context,
            hiddenReplicas: f.hiddenReplicas,
            onlyDeployment: f.onlyDeployment?.id ?? null,
          },
          from: range?.from ?? null,
          to: range?.to ?? null,
          lines: rows.length,
        },
      }),
    );
  } else {
    const span = range ? `${range.from} to ${range.to}` : "no lines";
    out.push(
      `# tvcwatch · deployment ${header.deploymentId} · filters: ${filterWords(header.filters)} · ${span} · ${rows.length} lines`,
    );
  }
  const look = {
    output: format === "ndjson" ? ("json" as const) : ("text" as const),
    timestamps: true,
    utc: true,
    colour: false,
  };
  for (const { event } of rows) if (event.kind !== "replica") out.push(formatEvent(event, look));
  return `${out.join("\n")}\n`;
}
