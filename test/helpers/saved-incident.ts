/**
 * A saved incident for `!`: two minutes of the simulator's incident (replica 2's errors rise from
 * 30 s until it crashes at 45 s), written as the dashboard's S writes it, with replica 2's
 * background error, the one every replica prints all day, printed in its baseline and again at
 * the start of the bucket where its errors rose, 10 s before the storm's first error: the
 * heatmap's first error of that bucket is the background one, the incident's the storm's.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packNanos, timestampSortKey } from "../../src/logs/model/log-line.js";
import type { StoredRow } from "../../src/logs/model/log-store.js";
import { Random } from "../../src/sim/random.js";
import { DebugLogs, INCIDENT_ERRORS_FROM_MS } from "../../src/sim/traffic/debug-logs.js";
import { savedView } from "../../src/tui/saving/saved-view.js";
import { initialUiState } from "../../src/tui/state/ui-state.js";

export const INCIDENT_START = Date.UTC(2026, 10, 27, 5, 0, 0);
/** The background error, as the demo's incident showed it before the new one. */
export const BACKGROUND_ERROR =
  "ERROR ledger: unhandled rejection: Error: upstream timeout after 5000ms";
/** The incident's first error (the simulator's storm prints it or its heap message). */
export const STORM_ERROR =
  /^ERROR signer: (upstream timeout after 5000ms \(pool exhausted|enclave heap)/;
/** Where the background error is printed again: the rise's bucket (20 s buckets) has begun. */
export const BACKGROUND_IN_RISE_MS = 20_500;

function row(id: number, ms: number, label: string, content: string): StoredRow {
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms % 1000) * 1e6;
  return {
    id,
    bytes: 0,
    event: {
      kind: "line",
      replicaLabel: label,
      seconds: String(seconds),
      nanos: packNanos(String(nanos)),
      sortKey: timestampSortKey(seconds, nanos),
      content,
      late: false,
    },
  };
}

/** The saved incident's rows, in time order. */
export function incidentRows(seed = 33): StoredRow[] {
  const logs = new DebugLogs(new Random(seed), {
    replicas: 3,
    logRate: 8,
    retentionMs: 86_400_000,
    ingestLagMs: 0,
    startMs: INCIDENT_START,
    incident: true,
  });
  let key = INCIDENT_START;
  const rows: StoredRow[] = logs.query(INCIDENT_START + 120_000, 0, 0).map((e, i) => {
    const ts = e.line.ts;
    if (ts) key = timestampSortKey(Number(ts.seconds), Number(ts.nanos));
    return {
      id: i + 1,
      bytes: 0,
      event: {
        kind: "line",
        replicaLabel: e.replicaLabel,
        seconds: ts?.seconds,
        nanos: ts ? packNanos(ts.nanos) : undefined,
        sortKey: key,
        content: e.line.content,
        late: false,
      },
    };
  });
  const label = rows.find(
    (r) => r.event.kind === "line" && r.event.replicaLabel.startsWith("replica 2/"),
  )?.event;
  if (label?.kind !== "line") throw new Error("the simulator's incident has no replica 2");
  let id = rows.length;
  for (const ms of [4_000, 11_000, BACKGROUND_IN_RISE_MS]) {
    rows.push(row(++id, INCIDENT_START + ms, label.replicaLabel, BACKGROUND_ERROR));
  }
  // Stable: a planted line keeps after the simulator's of the same instant.
  rows.sort((a, b) => a.event.sortKey - b.event.sortKey);
  rows.forEach((r, i) => {
    r.id = i + 1;
  });
  if (INCIDENT_ERRORS_FROM_MS <= BACKGROUND_IN_RISE_MS)
    throw new Error("the storm starts too early");
  return rows;
}

/** Writes the saved incident (NDJSON with S's header) in a new directory; its path. */
export function writeSavedIncident(seed = 33): { path: string; lines: number } {
  const rows = incidentRows(seed);
  const path = join(mkdtempSync(join(tmpdir(), "tvcwatch-incident-")), "incident.ndjson");
  writeFileSync(
    path,
    savedView(rows, "ndjson", {
      deploymentId: "96951283-6a89-4ac4-a9de-b2b6af1aa297",
      filters: initialUiState,
      savedAt: INCIDENT_START + 125_000,
    }).text,
  );
  return { path, lines: rows.length };
}
