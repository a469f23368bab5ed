/**
 * `!` over a saved incident (`tvcwatch open`), without a terminal: the file read by the
 * saved-log reader, the key pressed on the controller. In the bucket where replica 2's errors
 * rose, its background error (printed in its baseline too) comes first; `!` goes past it to the
 * incident's first error and says which rule picked it. The heatmap keeps its own rule.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorHeatmap } from "../../../src/logs/error-heatmap.js";
import type { StoredRow } from "../../../src/logs/model/log-store.js";
import { type OpenedLogs, openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import {
  readBundleIncident,
  type SavedDashboard,
  savedDashboard,
} from "../../../src/tui/controller/saved-dashboard.js";
import type { Segment } from "../../../src/tui/rows/segment.js";
import {
  BACKGROUND_ERROR,
  BACKGROUND_IN_RISE_MS,
  INCIDENT_START,
  STORM_ERROR,
  writeSavedIncident,
} from "../../helpers/saved-incident.js";
import { stoppedClock } from "../render-dashboard.js";

const running: { o: OpenedLogs; d: SavedDashboard }[] = [];
afterEach(() => {
  for (const { o, d } of running.splice(0)) {
    d.stop();
    o.close();
  }
});

const text = (segments: readonly Segment[]) => segments.map((s) => s.text).join("");

async function open(path: string, columns: number, rows: number) {
  const o = await openSavedLogs([path]);
  await o.indexed;
  const d = savedDashboard(
    o,
    { clock: stoppedClock(INCIDENT_START + 200_000), quit: vi.fn() },
    { columns, rows },
    {},
    await readBundleIncident(o.log.header()),
  );
  running.push({ o, d });
  return { c: d.controller, log: o.log };
}

const contentOf = (row: StoredRow | undefined) =>
  row?.event.kind === "line" ? row.event.content : undefined;

describe("! over a saved incident", () => {
  it("lands on the new error, not the background error before it in the same bucket", async () => {
    const { path } = writeSavedIncident();
    const { c, log } = await open(path, 160, 48);
    // The heatmap's rule: the rise's first error is the background one.
    const map = errorHeatmap(log);
    expect(map?.rise?.replica.name).toBe("replica 2");
    expect(map?.rise?.from).toBe(INCIDENT_START + 20_000);
    const first = log.at(map?.rise?.index ?? -1);
    expect(contentOf(first)).toBe(BACKGROUND_ERROR);
    expect(first?.event.sortKey).toBe(INCIDENT_START + BACKGROUND_IN_RISE_MS);

    c.press("!", {});
    const row = log.rowById(c.state.cursor ?? -1);
    expect(contentOf(row)).toMatch(STORM_ERROR);
    expect(row?.event.kind === "line" && row.event.replicaLabel).toMatch(/^replica 2\//);
    expect(c.state.notice).toMatch(
      /^replica 2: first message new to it · errors rose at 05:00:20: \d+ errors in 20s/,
    );
    // The heatmap says the same and keeps its rule.
    c.press("H", {});
    const body = c.getSnapshot().body;
    if (body.kind !== "heatmap") throw new Error(`no heatmap: ${body.kind}`);
    const rows = body.rows.map(text).join(" ");
    expect(rows).toMatch(/errors first rose on replica 2 at 05:00:20/);
    expect(rows).toMatch(/! goes to its first error of a message not in its baseline/);
  });

  it("at 80x24 the status line says the rule", async () => {
    const { path } = writeSavedIncident();
    const { c } = await open(path, 80, 24);
    c.press("!", {});
    expect(text(c.getSnapshot().status)).toContain("replica 2: first message new to it");
  });
});
