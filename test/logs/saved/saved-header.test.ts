import { describe, expect, it } from "vitest";
import {
  isJsonHeader,
  readJsonHeader,
  readTextHeader,
} from "../../../src/logs/saved/saved-header.js";
import { LogStore } from "../../../src/tail/log-store.js";
import { savedView } from "../../../src/tui/saved-view.js";
import { initialUiState } from "../../../src/tui/ui-state.js";
import { line } from "../../tui/fixtures.js";

describe("the header of a saved view", () => {
  const store = new LogStore();
  store.append([line(0, 1, "ERROR boom"), line(1, 2, "INFO ok")]);
  const rows = store.slice(0, store.size());
  const filters = {
    ...initialUiState,
    include: ["boom|ok", "o"],
    exclude: "heartbeat",
    minLevel: "warn" as const,
    context: 2,
    hiddenReplicas: [3],
    onlyDeployment: { id: "dep-2", label: "dep-2" } as typeof initialUiState.onlyDeployment,
  };

  it("restores the filters S wrote in NDJSON", () => {
    const text = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 });
    const value = JSON.parse(text.split("\n")[0] as string) as unknown;
    expect(isJsonHeader(value)).toBe(true);
    expect(readJsonHeader(value as { tvcwatch: unknown })).toEqual({
      deploymentId: "dep-1",
      savedAt: "1970-01-01T00:00:00.000Z",
      filters: {
        include: ["boom|ok", "o"],
        exclude: "heartbeat",
        minLevel: "warn",
        context: 2,
        hiddenReplicas: [3],
        onlyDeployment: "dep-2",
      },
      from: expect.stringMatching(/Z$/),
      to: expect.stringMatching(/Z$/),
      lines: 2,
      problems: [],
    });
  });

  it("names the deployment, range and count of a text one (its filters are words only)", () => {
    const text = savedView(rows, "text", { deploymentId: "dep-1", filters, savedAt: 0 });
    expect(readTextHeader(text.split("\n")[0] as string)).toMatchObject({
      deploymentId: "dep-1",
      filters: undefined,
      lines: 2,
      from: expect.stringMatching(/Z$/),
    });
    expect(readTextHeader("# something else")).toBeUndefined();
  });

  it("leaves out and says what is of the wrong type or out of bounds", () => {
    const h = readJsonHeader({
      tvcwatch: {
        deploymentId: 7,
        lines: -1,
        filters: {
          include: ["ok", 3],
          exclude: null,
          minLevel: "loud",
          context: 1e9,
          hiddenReplicas: [1, "2"],
          onlyDeployment: null,
        },
      },
    });
    expect(h.filters).toEqual({
      include: [],
      exclude: undefined,
      minLevel: undefined,
      context: 0,
      hiddenReplicas: [],
      onlyDeployment: undefined,
    });
    expect(h.deploymentId).toBeUndefined();
    expect(h.problems).toEqual([
      "deploymentId is not a string of at most 1024 characters",
      "lines is not a count",
      "filters.include is not a list of at most 64 patterns of at most 4096 characters",
      "filters.minLevel is not one of trace, debug, info, warn, error, fatal",
      "filters.context is not a number of lines from 0 to 10000",
      "filters.hiddenReplicas is not a list of replica numbers",
    ]);
    expect(isJsonHeader({ tvcwatch: {}, replicaLabel: "x" })).toBe(false);
  });
});
