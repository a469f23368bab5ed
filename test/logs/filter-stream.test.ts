import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterStream } from "../../src/logs/filter-stream.js";
import { IndexedFilter } from "../../src/logs/indexed-filter.js";
import { compilePattern, LineFilter, type LineFilterSpec } from "../../src/logs/line-filter.js";
import type { GapMarker, LogEvent, LogLine } from "../../src/logs/model/log-line.js";
import { replicaMatcher } from "../../src/logs/replicas.js";
import type { LogLevel } from "../../src/text/log-level.js";
import { BURSTS, indexed, interleave, logLine, REPLICAS } from "./corpus.js";

const gap = (at: number): GapMarker => ({
  kind: "gap",
  from: at,
  to: at + 1,
  reason: "x",
  sortKey: at,
});

/** What a stream prints of `events`: each line's content, `--` between groups, `gap`. */
function printed(spec: LineFilterSpec, events: readonly LogEvent[]): string[] {
  const stream = new FilterStream(new LineFilter(spec));
  return stream
    .pushAll(events)
    .map((s) => (s.kind === "separator" ? "--" : s.event.kind === "gap" ? "gap" : s.event.content));
}

const one = (contents: string[], replica = "replica 1/1") =>
  contents.map((c, i) => logLine(replica, c, 1000 + i));

describe("a filter over a stream of lines", () => {
  const lines = one([
    "INFO a",
    "INFO b",
    "ERROR c",
    "    at c1",
    "INFO d",
    "INFO e",
    "INFO f",
    "INFO g",
    "WARN h",
    "INFO i",
  ]);

  it("keeps an error's continuation lines with it, and leaves level-less lines (info) out", () => {
    expect(printed({ minLevel: "error" }, lines)).toEqual(["ERROR c", "    at c1"]);
    expect(printed({ minLevel: "warn" }, lines)).toEqual(["ERROR c", "    at c1", "WARN h"]);
    expect(printed({ include: [[compilePattern("ERROR")]] }, lines)).toEqual([
      "ERROR c",
      "    at c1",
    ]);
    expect(printed({ exclude: [compilePattern("INFO")] }, lines)).toEqual([
      "ERROR c",
      "    at c1",
      "WARN h",
    ]);
  });

  it("prints context as grep -A, -B and -C, with -- between groups that are not adjacent", () => {
    const grep = (before: number, after: number) =>
      printed(
        { include: [[compilePattern("ERROR"), compilePattern("WARN")]], before, after },
        lines,
      );
    expect(grep(1, 0)).toEqual(["INFO b", "ERROR c", "    at c1", "--", "INFO g", "WARN h"]);
    expect(grep(0, 1)).toEqual(["ERROR c", "    at c1", "INFO d", "--", "WARN h", "INFO i"]);
    expect(grep(1, 1)).toEqual([
      "INFO b",
      "ERROR c",
      "    at c1",
      "INFO d",
      "--",
      "INFO g",
      "WARN h",
      "INFO i",
    ]);
    // Groups that meet or overlap print as one.
    expect(grep(2, 2)).toEqual([
      "INFO a",
      "INFO b",
      "ERROR c",
      "    at c1",
      "INFO d",
      "INFO e",
      "INFO f",
      "INFO g",
      "WARN h",
      "INFO i",
    ]);
    // Without a filter that narrows, context changes nothing and no separator is printed.
    expect(printed({ before: 3, after: 3 }, lines)).toHaveLength(lines.length);
  });

  it("counts context over the replicas read, in their merged order; gaps pass and do not count", () => {
    const events: LogEvent[] = [
      logLine("replica 1/2", "INFO one", 1),
      logLine("replica 2/2", "INFO other replica", 2),
      gap(3),
      logLine("replica 1/2", "INFO two", 4),
      logLine("replica 1/2", "ERROR three", 5),
    ];
    const only1 = (l: LogLine) => replicaMatcher(["1"])(l.replicaLabel);
    expect(printed({ select: only1, minLevel: "error", before: 2 }, events)).toEqual([
      "gap",
      "INFO one",
      "INFO two",
      "ERROR three",
    ]);
    expect(printed({ minLevel: "error", before: 2 }, events)).toEqual([
      "gap",
      "INFO other replica",
      "INFO two",
      "ERROR three",
    ]);
  });

  it("judges each event by all of its lines: a frame that matches keeps its trace whole", () => {
    const events = one([
      "INFO start",
      "ERROR boom",
      "    at fetchNonce (a.js:1:1)",
      "    at main (b.js:1:1)",
      "INFO next",
    ]);
    const whole = ["ERROR boom", "    at fetchNonce (a.js:1:1)", "    at main (b.js:1:1)"];
    expect(printed({ include: [[compilePattern("fetchNonce")]] }, events)).toEqual(whole);
    expect(printed({ exclude: [compilePattern("fetchNonce")] }, events)).toEqual([
      "INFO start",
      "INFO next",
    ]);
  });

  it("judges an event split over two batches by the part in the first; the rest follows it", () => {
    const [head, frame, other] = one(["ERROR boom", "    at fetchNonce (a.js:1:1)", "INFO x"]) as [
      LogLine,
      LogLine,
      LogLine,
    ];
    const stream = new FilterStream(new LineFilter({ include: [[compilePattern("boom")]] }));
    expect(stream.pushAll([head]).map((s) => s.kind === "event" && s.event)).toEqual([head]);
    expect(stream.pushAll([frame, other]).map((s) => s.kind === "event" && s.event)).toEqual([
      frame,
    ]);
    const late = new FilterStream(new LineFilter({ include: [[compilePattern("fetchNonce")]] }));
    expect(late.pushAll([head])).toEqual([]);
    expect(late.pushAll([frame, other])).toEqual([]);
  });

  it("tells which lines continue an event and whose (JSON says so), filtering or not", () => {
    const events = one(["ERROR boom", "    at a (a.js:1:1)", "INFO x"]);
    for (const spec of [{}, { minLevel: "info" as const }]) {
      const out = new FilterStream(new LineFilter(spec), true).pushAll(events);
      expect(out.map((s) => (s.kind === "event" ? s.head?.content : "--"))).toEqual([
        undefined,
        "ERROR boom",
        undefined,
      ]);
    }
  });

  it("judges each replica's continuation lines with its own head when replicas interleave", () => {
    const events = [
      logLine("replica 1/2", "ERROR boom", 1),
      logLine("replica 2/2", "INFO fine", 2),
      logLine("replica 2/2", "    at fine (b.js:1:1)", 3),
      logLine("replica 1/2", "    at boom (a.js:1:1)", 4),
    ];
    expect(printed({ minLevel: "error" }, events)).toEqual([
      "ERROR boom",
      "    at boom (a.js:1:1)",
    ]);
  });
});

const LEVELS: (LogLevel | undefined)[] = [undefined, "debug", "info", "warn", "error"];
const PATTERNS = [
  "ERROR",
  "error",
  "WARN",
  "at ",
  "ledger",
  "heartbeat",
  "HTTP",
  "\\d{3}",
  "Error",
  "fetchNonce",
  "Caused",
];

/** A random filter spec over the corpus's words. */
const specs = fc.record({
  include: fc.array(fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 2 }), {
    maxLength: 2,
  }),
  exclude: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 2 }),
  level: fc.constantFrom(...LEVELS),
  before: fc.nat(3),
  after: fc.nat(3),
  replicas: fc.subarray<string>([...REPLICAS]),
});

type Spec = typeof specs extends fc.Arbitrary<infer T> ? T : never;

function specOf(s: Spec): LineFilterSpec {
  return {
    include: s.include.map((g) => g.map(compilePattern)),
    exclude: s.exclude.map(compilePattern),
    minLevel: s.level,
    before: s.before,
    after: s.after,
    select: s.replicas.length === 0 ? undefined : (l) => s.replicas.includes(l.replicaLabel),
  };
}

describe("the stream and the buffer read by index keep the same lines", () => {
  it("for any corpus, interleaving, gaps and filter", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(2), { minLength: 1, maxLength: 120 }),
        fc.array(fc.array(fc.nat(BURSTS.length - 1), { maxLength: 10 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.array(fc.nat(), { maxLength: 4 }),
        specs,
        (order, picks, gapsAt, s) => {
          const rows = interleave(order, picks);
          const events: LogEvent[] = rows.map((r, i) => logLine(r.replica, r.content, 1000 + i));
          for (const g of gapsAt) events.splice(g % (events.length + 1), 0, gap(0));
          const spec = specOf(s);
          const filter = new LineFilter(spec);
          // The stream: what it prints, and where it puts separators.
          const out = new FilterStream(filter).pushAll(events);
          const streamed: number[] = [];
          const separatedBefore = new Set<number>();
          let separator = false;
          for (const o of out) {
            if (o.kind === "separator") {
              separator = true;
              continue;
            }
            if (o.event.kind === "gap") continue;
            const i = events.indexOf(o.event);
            if (separator) separatedBefore.add(i);
            separator = false;
            streamed.push(i);
          }
          // By index, asked in any order (newest first, as a view walks up).
          const byIndex = new IndexedFilter(new LineFilter(spec));
          const source = indexed(events);
          const shown: number[] = [];
          for (let i = events.length - 1; i >= 0; i--)
            if (byIndex.shows(source, i)) shown.unshift(i);
          expect(streamed).toEqual(shown);
          // Separators: before a shown line whose selected predecessor is not shown.
          const selected = events.flatMap((_e, i) => (byIndex.selected(source, i) ? [i] : []));
          const expectedSeparators = new Set(
            shown.filter((i, k) => {
              if (k === 0 || !filter.hasContext) return false;
              const rank = selected.indexOf(i);
              return selected[rank - 1] !== shown[k - 1];
            }),
          );
          expect(separatedBefore).toEqual(expectedSeparators);
        },
      ),
      { numRuns: 400 },
    );
  });
});
