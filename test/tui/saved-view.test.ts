import { describe, expect, it } from "vitest";
import { LogStore } from "../../src/tail/log-store.js";
import { savedFormat, savedView } from "../../src/tui/saved-view.js";
import { initialUiState } from "../../src/tui/ui-state.js";
import { line } from "./fixtures.js";

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
    const text = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 });
    const [header, ...lines] = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(header.tvcwatch).toMatchObject({
      deploymentId: "dep-1",
      filters: { include: ["boom|ok"], exclude: null, minLevel: "info", context: 0 },
      lines: 2,
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
    const text = savedView(rows, "text", { deploymentId: "dep-1", filters, savedAt: 0 });
    const [header, first, second, rest] = text.split("\n");
    expect(header).toMatch(
      /^# tvcwatch · deployment dep-1 · filters: \+\/boom\|ok\/ level>=info · \S+Z to \S+Z · 2 lines$/,
    );
    expect(first).toMatch(/Z \[replica 1\/3\] ERROR boom /);
    expect(first).not.toContain("\u001b");
    expect(second).toContain('{"level":"info","msg":"ok"}');
    expect(rest).toBe("");
  });
});
