/**
 * Saved lines with each replica's lifecycle among them (src/logs/saved/marked-log.ts): the
 * markers a live follow would show, in place; rows, ids and times that agree with each other;
 * the search's rows as decoding every row finds them; lines that come later observed as they
 * come, and everything observed again when the order changed before them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorHeatmap } from "../../../src/logs/error-heatmap.js";
import type { StoreEvent } from "../../../src/logs/model/log-line.js";
import { MarkedLog } from "../../../src/logs/saved/marked-log.js";
import { type OpenedLogs, openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import { WorkBudget } from "../../../src/logs/work-budget.js";
import { compilePattern, type Pattern } from "../../../src/text/pattern.js";
import { waitFor } from "../../helpers/wait-for.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-marked-"));
let files = 0;
const opened: OpenedLogs[] = [];
const marks: MarkedLog[] = [];
afterEach(() => {
  for (const m of marks.splice(0)) m.close();
  for (const o of opened.splice(0)) o.close();
});

const START = Date.UTC(2026, 10, 27, 5, 0, 0);

/** NDJSON as `tail -o json` prints it: one line every half second from each replica. */
function ndjson(options: { silent?: (replica: number, i: number) => boolean; count?: number }) {
  const out: string[] = [];
  for (let i = 0; i < (options.count ?? 300); i++) {
    for (const r of [1, 2, 3]) {
      if (options.silent?.(r, i)) continue;
      const ms = START + i * 500 + r;
      const level = r === 3 && i % 10 === 0 ? "ERROR" : "INFO";
      out.push(
        JSON.stringify({
          replicaLabel: `replica ${r}/3`,
          ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
          content: `${level} line ${i} of replica ${r}`,
        }),
      );
    }
  }
  return `${out.join("\n")}\n`;
}

/** `text` written to a file of its own and opened, its index possibly still being read. */
async function opening(text: string): Promise<OpenedLogs> {
  const path = join(dir, `f${++files}.ndjson`);
  writeFileSync(path, text);
  const o = await openSavedLogs([path]);
  opened.push(o);
  return o;
}

async function open(text: string) {
  const o = await opening(text);
  await o.indexed;
  const m = new MarkedLog(o.log);
  marks.push(m);
  return { o, m };
}

const eventText = (e: StoreEvent | undefined) =>
  e === undefined ? "" : e.kind === "line" ? e.content : e.kind === "gap" ? e.reason : e.text;

/**
 * A MarkedLog of `o`'s lines whose every slice does one batch, no more (a budget spent at once),
 * each next slice kept in `slices` to be run by hand; `spent` is such a budget.
 */
function inSlices(o: OpenedLogs) {
  let tick = 0;
  const spent = () => WorkBudget.of(0, () => tick++);
  const slices: (() => void)[] = [];
  const m = new MarkedLog(o.log, {
    budget: spent,
    later: (run) => {
      slices.push(run);
      return () => {};
    },
  });
  marks.push(m);
  return { m, slices, spent };
}

describe("MarkedLog", () => {
  it("shows a replica that stops sending and comes back where a live follow would", async () => {
    const { m, o } = await open(ndjson({ silent: (r, i) => r === 2 && i > 100 && i < 200 }));
    const all = m.slice(0, m.size()).map((r) => eventText(r.event));
    expect(m.size()).toBe(o.log.size() + 2);
    // The status line's count against the cap is the files' lines, the markers not among them.
    expect(m.cappedSize()).toBe(o.log.size());
    const stopped = all.findIndex((t) => t.startsWith("replica 2/3 stopped sending"));
    const back = all.findIndex((t) => t.startsWith("replica 2/3 back after"));
    expect(stopped).toBeGreaterThan(0);
    // The marker comes after the replica's last line before the silence, and before its return.
    expect(all.slice(0, stopped)).toContain("INFO line 100 of replica 2");
    expect(all.slice(stopped, back)).not.toContain("INFO line 200 of replica 2");
    expect(all[back + 1]).toBe("INFO line 200 of replica 2");
    expect(all[back]).toMatch(/back after 50\.0s silent/);
  });

  it("counts each replica's lines and errors, and knows the replica numbers", async () => {
    const { m } = await open(ndjson({}));
    const stats = m.snapshot();
    expect(stats.map((s) => [s.label, s.lines, s.errors])).toEqual([
      ["replica 1/3", 300, 0],
      ["replica 2/3", 300, 0],
      ["replica 3/3", 300, 30],
    ]);
    expect(stats[2]?.errorBuckets.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect([...m.replicaNumbers()].sort()).toEqual([1, 2, 3]);
  });

  it("agrees with itself: each row's id finds it, times find the first row at or after them", async () => {
    const { m } = await open(ndjson({ silent: (r, i) => r !== 1 && i > 50 && i < 120 }));
    let before = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < m.size(); i++) {
      const row = m.at(i);
      if (!row) throw new Error(`no row ${i}`);
      expect(m.indexOfId(row.id)).toBe(i);
      expect(m.rowById(row.id)?.event).toBe(row.event);
      expect(row.event.sortKey).toBeGreaterThanOrEqual(before);
      before = row.event.sortKey;
    }
    for (const i of [0, 7, 150, m.size() - 1]) {
      const key = (m.at(i) as { event: StoreEvent }).event.sortKey;
      const first = m.firstAtOrAfter(key);
      expect((m.at(first) as { event: StoreEvent }).event.sortKey).toBeGreaterThanOrEqual(
        key - 0.01,
      );
      if (first > 0)
        expect((m.at(first - 1) as { event: StoreEvent }).event.sortKey).toBeLessThan(key);
    }
    expect(m.at(-1)).toBeUndefined();
    expect(m.at(m.size())).toBeUndefined();
  });

  it("a search within a budget stops, and goes on where it stopped to the same rows", async () => {
    const { m } = await open(ndjson({ silent: (r, i) => r === 2 && i > 100 && i < 200 }));
    const pattern = compilePattern("line 1\\d of");
    const whole = [...(m.matching(pattern) ?? [])];
    const { m: again } = await open(ndjson({ silent: (r, i) => r === 2 && i > 100 && i < 200 }));
    let calls = 1;
    let t = 0;
    const spent = () => WorkBudget.of(0, () => t++);
    let rows = again.matching(pattern, spent());
    while (rows === undefined) {
      calls += 1;
      rows = again.matching(pattern, spent());
    }
    expect(calls).toBeGreaterThan(1);
    expect([...rows]).toEqual(whole);
  });

  it("a search reading while the markers are placed goes on where it was, to the rows with them", async () => {
    const { o } = await open(ndjson({ count: 20 }));
    const path = o.log.files[0]?.name as string;
    const more = await openSavedLogs([path], { follow: true, pollMs: 10 });
    opened.push(more);
    await more.indexed;
    // Observing in slices of one batch, each run when the test says.
    const queued: (() => void)[] = [];
    let t = 0;
    const followed = new MarkedLog(more.log, {
      budget: () => WorkBudget.of(0, () => t++),
      later: (run) => {
        queued.push(run);
        return () => queued.splice(queued.indexOf(run), 1);
      },
    });
    marks.push(followed);
    // Lines enough for several batches, and a replica silent among them (a marker).
    writeFileSync(path, ndjson({ count: 20_000, silent: (r, i) => r === 2 && i > 100 && i < 900 }));
    await waitFor(() => queued.length > 0, "lines followed, observed in slices", {
      timeoutMs: 10_000,
      everyMs: 10,
    });
    const pattern = compilePattern("of replica 2|stopped");
    const spent = () => WorkBudget.of(0, () => t++);
    // Read in slices until some lines are read (and not all).
    let reading = followed.matching(pattern, spent());
    while (reading === undefined && (followed.searchProgress(pattern)?.read ?? 0) === 0)
      reading = followed.matching(pattern, spent());
    expect(reading).toBeUndefined();
    const before = followed.searchProgress(pattern)?.read ?? 0;
    expect(before).toBeGreaterThan(0);
    const version = followed.getVersion();
    while (queued.length > 0) queued.shift()?.();
    expect(followed.getVersion()).toBeGreaterThan(version);
    // The saved rows are the same: the search goes on from what it read.
    expect(followed.searchProgress(pattern)?.read).toBe(before);
    let rows = followed.matching(pattern, spent());
    while (rows === undefined) rows = followed.matching(pattern, spent());
    const expected: number[] = [];
    for (let i = 0; i < followed.size(); i++)
      if (pattern.test(eventText(followed.at(i)?.event))) expected.push(i);
    expect(expected.some((i) => (followed.at(i)?.id ?? 0) < 0)).toBe(true);
    expect([...rows]).toEqual(expected);
  });

  it("finds a search's rows as decoding every row does, markers included", async () => {
    const { m } = await open(ndjson({ silent: (r, i) => r === 2 && i > 100 && i < 200 }));
    for (const pattern of ["line 1\\d of", "replica 2", "ERROR", "nothing like this"].map(
      compilePattern,
    )) {
      const expected: number[] = [];
      for (let i = 0; i < m.size(); i++)
        if (pattern.test(eventText(m.at(i)?.event))) expected.push(i);
      expect([...(m.matching(pattern) ?? [])]).toEqual(expected);
    }
  });

  it("gives the error heatmap its rows from the index: the same heatmap and onset, decoding only the onset's errors", async () => {
    const out: string[] = [];
    for (let i = 0; i < 2400; i++) {
      for (const r of [1, 2, 3]) {
        if (r === 2 && i > 600 && i < 900) continue;
        const ms = START + i * 500 + r;
        const rising = r === 3 && i >= 2000;
        const content = rising
          ? `ERROR upstream timeout id=${i}`
          : i % 40 === r
            ? `ERROR disk slow ${i}`
            : `INFO line ${i} of replica ${r}`;
        out.push(
          JSON.stringify({
            replicaLabel: `replica ${r}/3`,
            ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
            content,
          }),
        );
      }
    }
    const { o, m } = await open(`${out.join("\n")}\n`);
    const decoded = errorHeatmap(m, { levelOfLine: o.log.levelOfLine });
    expect(decoded?.rise?.onset?.shape).toContain("upstream timeout");
    const at = vi.spyOn(o.log, "at");
    const indexed = m.heatmapSource();
    const heatmap = errorHeatmap(indexed.source, indexed.options);
    const reads = at.mock.calls.length;
    at.mockRestore();
    expect(heatmap).toEqual(decoded);
    // Replica 3's errors up to the rise's end at most, not every row.
    const errorsOfThree = out.filter(
      (l) => l.includes("replica 3/3") && l.includes("ERROR"),
    ).length;
    expect(reads).toBeLessThanOrEqual(errorsOfThree);
    expect(reads).toBeLessThan(m.size() / 10);
  });

  it("observes lines that come later, and observes again when the order changed before them", async () => {
    const { m, o } = await open(ndjson({ count: 20 }));
    const path = o.log.files[0]?.name as string;
    expect(m.snapshot()[0]?.lines).toBe(20);
    // A stream appended to as a followed file would be: new lines at the end.
    const more = await openSavedLogs([path], { follow: true, pollMs: 10 });
    opened.push(more);
    await more.indexed;
    const followed = new MarkedLog(more.log);
    marks.push(followed);
    let told = 0;
    followed.subscribe(() => told++);
    const later = START + 20 * 500 + 1;
    const line = (ms: number, content: string) =>
      `${JSON.stringify({ replicaLabel: "replica 1/3", ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) }, content })}\n`;
    writeFileSync(path, ndjson({ count: 20 }) + line(later, "INFO appended"));
    await waitFor(() => followed.snapshot()[0]?.lines === 21, "21 lines followed", {
      timeoutMs: 5000,
      everyMs: 10,
    });
    // A line older than what was observed: the order changes before it, all observed again.
    writeFileSync(
      path,
      ndjson({ count: 20 }) + line(later, "INFO appended") + line(START + 3, "INFO late"),
    );
    await waitFor(() => followed.snapshot()[0]?.lines === 22, "22 lines followed", {
      timeoutMs: 5000,
      everyMs: 10,
    });
    const all = followed.slice(0, followed.size()).map((r) => eventText(r.event));
    expect(all.indexOf("INFO late")).toBeLessThan(all.indexOf("INFO line 1 of replica 1"));
    expect(told).toBeGreaterThanOrEqual(2);
  });
});

/** NDJSON of `count` replicas with one line each, a millisecond apart. */
function oneLineReplicas(count: number): string {
  const out: string[] = [];
  for (let r = 1; r <= count; r++) {
    const ms = START + r;
    out.push(
      JSON.stringify({
        replicaLabel: `replica ${r}/${count}`,
        ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
        content: `INFO hello from ${r}`,
      }),
    );
  }
  return `${out.join("\n")}\n`;
}

describe("many replicas", () => {
  it("200,000 one-line replicas: counts, numbers and markers in work linear in lines and replicas", async () => {
    const count = 200_000;
    const { m, o } = await open(oneLineReplicas(count));
    expect(o.log.size()).toBe(count);
    const stats = m.snapshot();
    expect(stats.length).toBe(count);
    expect(stats.every((s) => s.lines === 1 && s.errors === 0)).toBe(true);
    // In reading order: by replica number.
    expect(stats.slice(0, 3).map((s) => s.label)).toEqual([
      `replica 1/${count}`,
      `replica 2/${count}`,
      `replica 3/${count}`,
    ]);
    expect(stats.at(-1)?.label).toBe(`replica ${count}/${count}`);
    expect(m.replicaNumbers().size).toBe(count);
    // Every marker says a replica joined, once for each, after the first batch's replicas.
    const joined = [...(m.matching(compilePattern(" joined$")) ?? [])];
    const markers = joined.map((row) => eventText(m.at(row)?.event));
    expect(m.size()).toBe(count + markers.length);
    expect(markers.length).toBeGreaterThan(0);
    expect(joined.every((row) => (m.at(row)?.id ?? 0) < 0)).toBe(true);
    expect(markers.every((t) => /^replica \d+\/200000 joined$/.test(t))).toBe(true);
    expect(new Set(markers).size).toBe(markers.length);
    // A second snapshot of the same lines is the same one.
    expect(m.snapshot()).toBe(stats);
  }, 120_000);
});

describe("catching up in slices", () => {
  it("lines indexed after it was made are observed a batch a slice, between which the event loop answers, to the markers made at once", async () => {
    // A file over the MiB indexed first: the rest comes after the MarkedLog was made.
    const count = 60_000;
    const o = await opening(oneLineReplicas(count));
    const before = o.log.size();
    expect(before).toBeLessThan(count);
    const { m: sliced, slices } = inSlices(o);
    let told = 0;
    sliced.subscribe(() => told++);
    await o.indexed;
    expect(o.log.size()).toBe(count);
    // The rest of the file was not observed in the step that indexed it.
    expect(sliced.snapshot().length).toBeLessThan(count);
    let ran = 0;
    while (slices.length > 0) {
      (slices.shift() as () => void)();
      ran++;
    }
    expect(ran).toBeGreaterThan(1);
    expect(told).toBeGreaterThan(0);
    const whole = new MarkedLog(o.log);
    marks.push(whole);
    expect(sliced.size()).toBe(whole.size());
    expect(sliced.snapshot().length).toBe(count);
    const texts = (m: MarkedLog) => m.slice(0, m.size()).map((r) => eventText(r.event));
    expect(texts(sliced)).toEqual(texts(whole));
  }, 120_000);

  it("while a search reads between its slices, observing waits (a slice observes nothing), and goes on once the search is done", async () => {
    const count = 60_000;
    const o = await opening(oneLineReplicas(count));
    const { m: sliced, slices, spent } = inSlices(o);
    await o.indexed;
    // The replicas counted so far: asked with buckets not asked before, counted now (not as
    // first read during the catch-up).
    let buckets = 1;
    const observed = () => sliced.snapshot(++buckets).length;
    const pattern = compilePattern("hello from 59999");
    expect(slices.length).toBeGreaterThan(0);
    // A slice after the search read observes nothing, and leaves the next to come.
    const before = observed();
    expect(sliced.matching(pattern, spent())).toBeUndefined();
    (slices.shift() as () => void)();
    expect(observed()).toBe(before);
    expect(slices.length).toBe(1);
    // Without the search reading since, the next one observes.
    (slices.shift() as () => void)();
    expect(observed()).toBeGreaterThan(before);
    // The search read to its end, observing goes on to every row, the search's rows the same.
    let rows = sliced.matching(pattern, spent());
    while (rows === undefined) {
      rows = sliced.matching(pattern, spent());
      while (slices.length > 0) (slices.shift() as () => void)();
    }
    while (slices.length > 0) (slices.shift() as () => void)();
    expect(observed()).toBe(count);
    const found = sliced.matching(pattern) as Uint32Array;
    expect([...found].map((i) => eventText(sliced.at(i)?.event))).toEqual([
      "INFO hello from 59999",
    ]);
  }, 120_000);

  it("a search started again and again (two patterns in turn) holds observing back for a while, not for ever", async () => {
    const count = 60_000;
    const o = await opening(oneLineReplicas(count));
    const alone = inSlices(o);
    const searched = inSlices(o);
    const spent = searched.spent;
    await o.indexed;
    // The slices each takes to observe every row: one alone, one with a search read before each.
    let ran = 0;
    for (; alone.slices.length > 0; ran++) (alone.slices.shift() as () => void)();
    const patterns = [compilePattern("hello from 1$"), compilePattern("hello from 2$")];
    let waited = 0;
    for (; searched.slices.length > 0 && waited < 5_000; waited++) {
      const pattern = patterns[waited % 2] as Pattern;
      expect(searched.m.matching(pattern, spent())).toBeUndefined();
      (searched.slices.shift() as () => void)();
    }
    expect(ran).toBeGreaterThan(1);
    expect(waited).toBeGreaterThan(ran);
    expect(searched.slices).toHaveLength(0);
    expect(searched.m.size()).toBe(alone.m.size());
    expect(searched.m.snapshot()).toEqual(alone.m.snapshot());
  }, 120_000);
});
