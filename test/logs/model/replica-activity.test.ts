import { describe, expect, it } from "vitest";
import type { LogLine } from "../../../src/logs/model/log-line.js";
import { QUIET_FLOOR_MS, ReplicaActivity } from "../../../src/logs/model/replica-activity.js";

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

function at(ms: number, label: string, content = "INFO ok"): LogLine {
  return {
    kind: "line",
    replicaLabel: label,
    seconds: String(Math.floor(ms / 1000)),
    nanos: (ms % 1000) * 1e6,
    sortKey: ms,
    content,
    late: false,
  };
}

/** Lines every `every` ms from `from` to `to` for each label. */
function steady(from: number, to: number, every: number, labels: string[]): LogLine[] {
  const out: LogLine[] = [];
  for (let t = from; t < to; t += every) for (const l of labels) out.push(at(t, l));
  return out;
}

describe("replica activity", () => {
  it("counts lines and errors per replica and per interval", () => {
    const a = new ReplicaActivity(10_000);
    a.observe([
      at(T0, "replica 1/2"),
      at(T0 + 1_000, "replica 1/2", "ERROR boom"),
      at(T0 + 12_000, "replica 1/2", '{"level":"error","msg":"x"}'),
      at(T0 + 12_500, "replica 2/2", "WARN slow"),
    ]);
    const [one, two] = a.snapshot(3);
    expect(one).toMatchObject({ label: "replica 1/2", lines: 3, errors: 2, stopped: false });
    expect(one?.buckets).toEqual([0, 2, 1]);
    expect(one?.errorBuckets).toEqual([0, 1, 1]);
    expect(two).toMatchObject({ lines: 1, errors: 0 });
    expect(two?.buckets).toEqual([0, 0, 1]);
  });

  it("marks a replica that stops sending while others go on, and its return", () => {
    const a = new ReplicaActivity();
    const labels = ["replica 1/3", "replica 2/3", "replica 3/3"];
    expect(a.observe(steady(T0, T0 + 10_000, 250, labels))).toEqual([]);
    // Replica 2 goes quiet for 6 s: the others' lines show it.
    const quiet = a.observe(steady(T0 + 10_000, T0 + 16_000, 250, ["replica 1/3", "replica 3/3"]));
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatchObject({ kind: "replica", replicaLabel: "replica 2/3" });
    expect(quiet[0]?.text).toMatch(/^replica 2\/3 stopped sending \(last line 12:00:09Z\)$/);
    expect(quiet[0]?.sortKey).toBeGreaterThan(T0 + 9_750);
    expect(a.snapshot().find((r) => r.label === "replica 2/3")?.stopped).toBe(true);
    const back = a.observe(steady(T0 + 16_000, T0 + 17_000, 250, labels));
    expect(back.map((m) => m.text)).toEqual(["replica 2/3 back after 6.3s silent (restarted?)"]);
    expect(a.snapshot().find((r) => r.label === "replica 2/3")?.stopped).toBe(false);
  });

  it("does not call a replica stopped within its usual gaps, nor any when all are quiet", () => {
    const a = new ReplicaActivity();
    // A slow replica (a line every 5 s) beside a fast one.
    const lines = [
      ...steady(T0, T0 + 60_000, 5_000, ["replica 1/2"]),
      ...steady(T0, T0 + 60_000, 100, ["replica 2/2"]),
    ].sort((x, y) => x.sortKey - y.sortKey);
    expect(a.observe(lines)).toEqual([]);
    expect(QUIET_FLOOR_MS).toBeGreaterThan(0);
    // Everyone silent, then everyone back: nothing stopped (no line was newer).
    expect(a.observe(steady(T0 + 60_000, T0 + 61_000, 100, ["replica 2/2"]))).toEqual([]);
  });

  it("marks a replica that joins and a change of the replica count", () => {
    const a = new ReplicaActivity();
    a.observe(steady(T0, T0 + 5_000, 250, ["replica 1/2", "replica 2/2"]));
    const scaled = a.observe([at(T0 + 5_000, "replica 1/3"), at(T0 + 5_100, "replica 3/3")]);
    expect(scaled.map((m) => m.text)).toEqual(["replicas: 2 → 3", "replica 3/3 joined"]);
    // The first replicas seen are not joiners; the count change is said once.
    expect(a.observe([at(T0 + 5_200, "replica 2/3")])).toEqual([]);
  });
});

describe("replica activity, a silence inside one batch", () => {
  it("marks both the stop and the return when they come in one response", () => {
    const a = new ReplicaActivity();
    const lines = [
      ...steady(T0, T0 + 10_000, 250, ["replica 1/2"]),
      ...steady(T0, T0 + 3_000, 250, ["replica 2/2"]),
      ...steady(T0 + 7_000, T0 + 10_000, 250, ["replica 2/2"]),
    ].sort((x, y) => x.sortKey - y.sortKey);
    expect(a.observe(lines).map((m) => m.text)).toEqual([
      "replica 2/2 stopped sending (last line 12:00:02Z)",
      "replica 2/2 back after 4.3s silent (restarted?)",
    ]);
  });
});

describe("replica activity, lines given as columns", () => {
  it("observeRows makes the markers, counts and sparkline observe makes of the same lines", () => {
    const errorText = (i: number) => (i % 7 === 0 ? "ERROR boom" : "INFO ok");
    // Steady replicas; one goes quiet and comes back; the count changes; one joins.
    const lines = [
      ...steady(T0, T0 + 20_000, 250, ["replica 1/2"]),
      ...steady(T0, T0 + 6_000, 250, ["replica 2/2"]),
      ...steady(T0 + 12_000, T0 + 20_000, 250, ["replica 2/2"]),
      ...steady(T0 + 20_000, T0 + 30_000, 300, ["replica 1/3", "replica 3/3"]),
    ]
      .sort((x, y) => x.sortKey - y.sortKey)
      .map((l, i) => ({ ...l, content: errorText(i) }));
    const events = new ReplicaActivity(5_000);
    const rows = new ReplicaActivity(5_000);
    const said: string[][] = [[], []];
    // In batches, as a saved log's catch-up gives them.
    for (let from = 0; from < lines.length; from += 37) {
      const batch = lines.slice(from, from + 37);
      said[0]?.push(...events.observe(batch).map((m) => `${m.sortKey} ${m.text}`));
      const keys = Float64Array.from(batch, (l) => l.sortKey);
      const errors = Uint8Array.from(batch, (l) => (l.content.startsWith("ERROR") ? 1 : 0));
      const labels = batch.map((l) => l.replicaLabel);
      said[1]?.push(
        ...rows
          .observeRows(batch.length, labels, keys, errors)
          .map((m) => `${m.sortKey} ${m.text}`),
      );
    }
    const texts = said[0]?.map((t) => t.replace(/^\S+ /, ""));
    expect(texts).toContain("replicas: 2 → 3");
    expect(texts).toContain("replica 3/3 joined");
    expect(texts?.some((t) => t.includes("stopped sending"))).toBe(true);
    expect(said[1]).toEqual(said[0]);
    const shown = (a: ReplicaActivity) =>
      a.snapshot(8).map((s) => ({ ...s, buckets: s.buckets, errorBuckets: s.errorBuckets }));
    expect(shown(rows)).toEqual(shown(events));
    expect(rows.getVersion()).toBe(events.getVersion());
  });
});
