import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import {
  isJsonHeader,
  MAX_BUNDLE_ITEMS,
  readJsonHeader,
  readTextHeader,
  type SavedVote,
} from "../../../src/logs/saved/saved-header.js";
import { savedView } from "../../../src/tui/saving/saved-view.js";
import { bundleFields } from "../../../src/tui/saving/ticket-bundle.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../../tui/fixtures.js";

describe("the header of a saved view", () => {
  const store = new LogStore();
  store.append([line(0, 1, "ERROR boom"), line(1, 2, "INFO ok")]);
  const rows = store.slice(0, store.size());
  const filters = {
    ...initialUiState,
    include: ["boom|ok", "o"],
    exclude: "heartbeat",
    where: ["latencyMs > 300 and service = signer"],
    minLevel: "warn" as const,
    context: 2,
    hiddenReplicas: [3],
    onlyDeployment: { id: "dep-2", label: "dep-2" } as typeof initialUiState.onlyDeployment,
  };

  it("restores the filters S wrote in NDJSON", () => {
    const text = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    const value = JSON.parse(text.split("\n")[0] as string) as unknown;
    expect(isJsonHeader(value)).toBe(true);
    expect(readJsonHeader(value as { tvcwatch: unknown })).toEqual({
      deploymentId: "dep-1",
      savedAt: "1970-01-01T00:00:00.000Z",
      filters: {
        include: ["boom|ok", "o"],
        exclude: "heartbeat",
        where: ["latencyMs > 300 and service = signer"],
        minLevel: "warn",
        context: 2,
        hiddenReplicas: [3],
        onlyReplica: undefined,
        onlyDeployment: "dep-2",
      },
      from: expect.stringMatching(/Z$/),
      to: expect.stringMatching(/Z$/),
      lines: 2,
      gaps: 0,
      range: { kind: "view" },
      problems: [],
    });
  });

  it("records the replica shown alone (o), reads it back and says it in the text header", () => {
    const alone = { ...filters, hiddenReplicas: [], onlyReplica: 2 };
    const json = savedView(rows, "ndjson", { deploymentId: "dep-1", filters: alone, savedAt: 0 });
    const value = JSON.parse(json.text.split("\n")[0] as string);
    expect(value.tvcwatch.filters.onlyReplica).toBe(2);
    expect(readJsonHeader(value).filters?.onlyReplica).toBe(2);
    // Every replica shown: null in the header, undefined read back.
    const all = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    const none = JSON.parse(all.split("\n")[0] as string);
    expect(none.tvcwatch.filters.onlyReplica).toBeNull();
    expect(readJsonHeader(none).filters?.onlyReplica).toBeUndefined();
    const text = savedView(rows, "text", { deploymentId: "dep-1", filters: alone, savedAt: 0 });
    expect(text.text.split("\n")[0]).toContain(
      " context 2 only replica 2 only deployment dep-2 · ",
    );
    for (const wrong of [0, 1000, 2.5, "2", true]) {
      const h = readJsonHeader({ tvcwatch: { filters: { onlyReplica: wrong } } });
      expect(h.filters?.onlyReplica).toBeUndefined();
      expect(h.problems).toEqual(["filters.onlyReplica is not a replica number from 1 to 999"]);
    }
  });

  it("restores a header's patterns the one matcher takes, and says which it leaves out and why", () => {
    const h = readJsonHeader({
      tvcwatch: { filters: { include: ["^(a+)+$", "(a)\\1", "err("], exclude: "x(?=y)" } },
    });
    // Linear time whatever the pattern: the catastrophic one is restored as written.
    expect(h.filters?.include).toEqual(["^(a+)+$"]);
    expect(h.filters?.exclude).toBeUndefined();
    expect(h.problems).toEqual([
      'filters.include "(a)\\\\1": regex refused: a backreference (\\1) is JavaScript-only (patterns are RE2: linear time)',
      'filters.include "err(": invalid regex: missing closing ): `err(`',
      'filters.exclude "x(?=y)": regex refused: lookahead ((?=) is JavaScript-only (patterns are RE2: linear time)',
    ]);
  });

  it("reads a bundle's replicas, follow figures, outages and votes", () => {
    const vote = {
      activityId: "act-1",
      type: "ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT",
      fingerprint: "sha256:abc",
      decision: "approve",
      time: "2026-11-27T05:00:00.000Z",
    };
    const written = savedView(rows, "ndjson", {
      deploymentId: "dep-1",
      filters,
      savedAt: 0,
      range: { kind: "marks" },
      bundle: bundleFields(rows, undefined, [vote as SavedVote]),
    }).text;
    const h = readJsonHeader(JSON.parse(written.split("\n")[0] as string));
    expect(h).toMatchObject({
      bundle: true,
      range: { kind: "marks" },
      replicas: [
        { replicaLabel: "replica 1/3", lines: 1 },
        { replicaLabel: "replica 2/3", lines: 1 },
      ],
      outages: [],
      votes: [vote],
      problems: [],
    });
    expect(h.follow).toBeUndefined();
  });

  it("reads outages with and without failed polls (a gap marker has none), each checked", () => {
    const gap = { from: "a", to: "b", reason: "gone" };
    const noAnswer = { from: "c", to: "d", reason: "no answer: HTTP 503", failedPolls: 9 };
    const ongoing = { ...noAnswer, failedPolls: 2, ongoing: true };
    const h = readJsonHeader({
      tvcwatch: {
        bundle: true,
        outages: [
          gap,
          noAnswer,
          ongoing,
          { ...noAnswer, failedPolls: -1 },
          { ...noAnswer, failedPolls: "9" },
          { ...noAnswer, ongoing: "yes" },
          { ...gap, failedPolls: null, ongoing: false },
        ],
      },
    });
    expect(h.outages).toEqual([gap, noAnswer, ongoing, gap]);
    expect(h.problems).toEqual(["outages: 3 of 7 could not be read"]);
  });

  it("reports a bundle's bad fields, each once, and keeps what it can read", () => {
    const good = {
      activityId: "a",
      type: "t",
      fingerprint: "f",
      decision: "reject",
      time: "2026-11-27T05:00:00Z",
    };
    const h = readJsonHeader({
      tvcwatch: {
        bundle: true,
        gaps: "two",
        range: { kind: "minutes" },
        replicas: "all of them",
        follow: { phase: "live", lateLines: -3, linesEmitted: 12 },
        outages: Array.from({ length: MAX_BUNDLE_ITEMS + 1 }, () => ({})),
        votes: [
          good,
          { ...good, decision: "abstain" },
          { ...good, fingerprint: "x".repeat(5000) },
          7,
        ],
      },
    });
    expect(h.bundle).toBe(true);
    expect(h.votes).toEqual([good]);
    expect(h.follow).toEqual({ phase: "live", linesEmitted: 12 });
    expect(h.replicas).toBeUndefined();
    expect(h.outages).toBeUndefined();
    expect(h.problems).toEqual([
      "gaps is not a count",
      "range is not one of all, view, marks, minutes (minutes with a count)",
      `replicas is not a list of at most ${MAX_BUNDLE_ITEMS}`,
      "follow.lateLines is not a count",
      `outages is not a list of at most ${MAX_BUNDLE_ITEMS}`,
      "votes: 3 of 4 could not be read",
    ]);
    expect(readJsonHeader({ tvcwatch: { bundle: "yes" } }).problems).toEqual([
      "bundle is not true",
    ]);
  });

  it("names the deployment, range and count of a text one (its filters are words only)", () => {
    const text = savedView(rows, "text", { deploymentId: "dep-1", filters, savedAt: 0 }).text;
    expect(readTextHeader(text.split("\n")[0] as string)).toMatchObject({
      deploymentId: "dep-1",
      filters: undefined,
      lines: 2,
      from: expect.stringMatching(/Z$/),
    });
    expect(readTextHeader("# something else")).toBeUndefined();
  });

  it("keeps the text header one line whatever its words hold: a control is written as its escape", () => {
    const text = savedView(rows, "text", {
      deploymentId: "dep\n2026-11-27T05:00:00Z [replica 1/1] injected",
      filters: { ...filters, include: ["a\rb"] },
      savedAt: 0,
    }).text;
    const [first = "", ...rest] = text.split("\n");
    expect(first).toContain("deployment dep\\x0a2026-11-27T05:00:00Z [replica 1/1] injected · ");
    expect(first).toContain("+/a\\x0db/");
    expect(rest.filter((l) => l.includes("injected"))).toEqual([]);
    expect(rest.filter((l) => l !== "")).toHaveLength(2);
  });

  it("leaves the deployment out when the lines are of none known, in text and in NDJSON, and reads both back", () => {
    const header = { deploymentId: undefined, filters, savedAt: 0 };
    const first = savedView(rows, "text", header).text.split("\n")[0] as string;
    expect(first).toMatch(/^# tvcwatch · filters: /);
    expect(readTextHeader(first)).toMatchObject({
      deploymentId: undefined,
      lines: 2,
      from: expect.stringMatching(/Z$/),
    });
    const json = JSON.parse(savedView(rows, "ndjson", header).text.split("\n")[0] as string);
    expect(json.tvcwatch.deploymentId).toBeNull();
    expect(readJsonHeader(json)).toMatchObject({ deploymentId: undefined, lines: 2, problems: [] });
  });

  it("records the columns shown (|) and reads them back; a malformed list is said and left out", () => {
    const shown = { ...filters, columns: ["time", "level", "msg"] };
    const json = savedView(rows, "ndjson", { deploymentId: "dep-1", filters: shown, savedAt: 0 });
    const value = JSON.parse(json.text.split("\n")[0] as string);
    expect(value.tvcwatch.filters.columns).toEqual(["time", "level", "msg"]);
    expect(readJsonHeader(value).filters?.columns).toEqual(["time", "level", "msg"]);
    const plain = savedView(rows, "ndjson", { deploymentId: "dep-1", filters, savedAt: 0 });
    expect(JSON.parse(plain.text.split("\n")[0] as string).tvcwatch.filters).not.toHaveProperty(
      "columns",
    );
    const bad = readJsonHeader({ tvcwatch: { filters: { columns: ["msg", "msg"] } } });
    expect(bad.filters?.columns).toBeUndefined();
    expect(bad.problems).toEqual(['filters.columns: field "msg" is named twice']);
  });

  it("leaves out and says what is of the wrong type or out of bounds", () => {
    const h = readJsonHeader({
      tvcwatch: {
        deploymentId: 7,
        lines: -1,
        filters: {
          include: ["ok", 3],
          exclude: null,
          where: ["a = 1", "a >"],
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
      where: ["a = 1"],
      minLevel: undefined,
      context: 0,
      hiddenReplicas: [],
      onlyReplica: undefined,
      onlyDeployment: undefined,
    });
    expect(h.deploymentId).toBeUndefined();
    expect(h.problems).toEqual([
      "deploymentId is not a string of at most 1024 characters",
      "lines is not a count",
      "filters.include is not a list of at most 64 patterns of at most 4096 characters",
      'filters.where "a >": expected a value, found the end of the query at column 4',
      "filters.minLevel is not one of trace, debug, info, warn, error, fatal",
      "filters.context is not a number of lines from 0 to 10000",
      "filters.hiddenReplicas is not a list of replica numbers",
    ]);
    expect(isJsonHeader({ tvcwatch: {}, replicaLabel: "x" })).toBe(false);
  });
});
