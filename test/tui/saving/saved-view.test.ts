import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { savedFormat, savedView } from "../../../src/tui/saving/saved-view.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

describe("a saved view", () => {
  const store = new LogStore();
  store.append([
    line(0, 1, "ERROR boom \u001b[31mred"),
    line(1, 2, '{"level":"info","msg":"ok"}'),
    { kind: "replica", replicaLabel: "replica 2/3", text: "replica 2/3 joined", sortKey: 0 },
  ]);
  const rows = store.slice(0, store.size());
  const filters = { ...initialUiState, include: ["boom|ok"], minLevel: "info" as const };

  it("is NDJSON for .ndjson and .json names, text otherwise", () => {
    expect(savedFormat("x.ndjson")).toBe("ndjson");
    expect(savedFormat("x.JSON")).toBe("ndjson");
    expect(savedFormat("incident.log")).toBe("text");
  });

  it("as NDJSON: a header object, then the lines as tail -o json prints them", () => {
    const text = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    const [header, ...lines] = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(header.tvcwatch).toMatchObject({
      deploymentId: "dep-1",
      filters: { include: ["boom|ok"], exclude: null, minLevel: "info", context: 0 },
      lines: 2,
      gaps: 0,
      range: { kind: "view" },
    });
    expect(header.tvcwatch.from).toMatch(/Z$/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      replicaLabel: "replica 1/3",
      content: "ERROR boom \u001b[31mred",
      level: "error",
    });
    expect(lines[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(lines[1]).toMatchObject({ level: "info" });
  });

  it("as text: a # header naming the deployment, filters and time range, then sanitized lines", () => {
    const text = savedView(rows, "text", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    const [header, first, second, rest] = text.split("\n");
    expect(header).toMatch(
      /^# tvcwatch · deployment dep-1 · filters: \+\/boom\|ok\/ level>=info · the view · \S+Z to \S+Z · 2 lines$/,
    );
    expect(first).toMatch(/Z \[replica 1\/3\] ERROR boom /);
    expect(first).not.toContain("\u001b");
    expect(second).toContain('{"level":"info","msg":"ok"}');
    expect(rest).toBe("");
  });

  it("counts log lines apart from gap markers, in the header and in what it returns", () => {
    const withGap = new LogStore();
    withGap.append([
      line(0, 1, "INFO a"),
      { kind: "gap", from: 0, to: 1000, reason: "outage", sortKey: line(1, 1, "").sortKey },
      line(2, 1, "INFO b"),
    ]);
    const all = withGap.slice(0, withGap.size());
    const json = savedView(all, "ndjson", {
      deploymentId: "dep-1",
      filters,
      savedAt: 0,
      range: { kind: "minutes", minutes: 5 },
    });
    expect(json).toMatchObject({ lines: 2, markers: 1 });
    const rows = json.text.trimEnd().split("\n");
    expect(rows).toHaveLength(4);
    expect(JSON.parse(rows[0] as string).tvcwatch).toMatchObject({
      lines: 2,
      gaps: 1,
      range: { kind: "minutes", minutes: 5 },
    });
    const text = savedView(all, "text", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    expect(text.split("\n")[0]).toMatch(/ · 2 lines · 1 gaps$/);
  });
});
