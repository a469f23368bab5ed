/**
 * A fuzz of saved files' headers, each property run for as many cases as fit in its time bound
 * (and at most a number of runs): a header of any shape (right fields with wrong values, wrong
 * fields, any JSON, any text after the text header's prefix) is read without an exception into
 * values within their bounds, the rest said as problems; a file with any such header opens, its
 * lines read whatever the header claims, and its claims checked without an exception; and the
 * header S writes (with a bundle's fields) for any lines agrees with those lines.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatEvent } from "../../../src/logs/formats/stream-format.js";
import { type LogEvent, packNanos, timestampSortKey } from "../../../src/logs/model/log-line.js";
import type { StoredRow } from "../../../src/logs/model/log-store.js";
import { checkHeader } from "../../../src/logs/saved/header-claim.js";
import { openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import {
  isJsonHeader,
  MAX_BUNDLE_ITEMS,
  readJsonHeader,
  readTextHeader,
  type SavedHeader,
  TEXT_HEADER_PREFIX,
} from "../../../src/logs/saved/saved-header.js";
import { StreamTable } from "../../../src/logs/saved/stream-table.js";
import { LOG_LEVELS } from "../../../src/text/log-level.js";
import { savedView } from "../../../src/tui/saving/saved-view.js";
import { bundleFields } from "../../../src/tui/saving/ticket-bundle.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";

/** Each property runs until this many ms have gone, or its runs are done. */
const TIME_BOUND_MS = 2_000;
const bounded = (numRuns: number) => ({
  numRuns,
  interruptAfterTimeLimit: TIME_BOUND_MS,
  markInterruptAsFailure: false,
});

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-header-fuzz-"));
let files = 0;

/** A value of any JSON shape, or of the type a field wants, or a near miss. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e300, -0, true, false, null),
  fc.string({ minLength: 1025, maxLength: 1100 }),
);

const time = fc.oneof(
  fc
    .date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true })
    .map((d) => d.toISOString()),
  anyValue,
);

const vote = fc.record(
  {
    activityId: fc.oneof(fc.string({ maxLength: 20 }), anyValue),
    type: fc.oneof(fc.constant("ACTIVITY_TYPE_EXPORT_WALLET"), anyValue),
    fingerprint: fc.oneof(fc.string({ maxLength: 70 }), anyValue),
    decision: fc.oneof(fc.constantFrom("approve", "reject", "APPROVE", ""), anyValue),
    time,
  },
  { requiredKeys: [] },
);

const replica = fc.record(
  {
    replicaLabel: fc.oneof(fc.constantFrom("replica 1/3", "replica 2/3", "replica 9/9"), anyValue),
    deploymentId: fc.oneof(fc.string({ maxLength: 10 }), anyValue),
    lines: fc.oneof(fc.nat(1000), anyValue),
  },
  { requiredKeys: [] },
);

const outage = fc.record(
  {
    from: time,
    to: time,
    reason: fc.oneof(fc.string({ maxLength: 30 }), anyValue),
    failedPolls: fc.oneof(fc.nat(20), anyValue),
    ongoing: fc.oneof(fc.boolean(), anyValue),
  },
  { requiredKeys: [] },
);

const list = <T>(item: fc.Arbitrary<T>) =>
  fc.oneof(
    fc.array(item, { maxLength: 5 }),
    anyValue,
    fc.constant(Array.from({ length: MAX_BUNDLE_ITEMS + 1 }, () => ({}))),
  );

const filters = fc.record(
  {
    include: fc.oneof(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), anyValue),
    exclude: anyValue,
    minLevel: fc.oneof(fc.constantFrom(...LOG_LEVELS), anyValue),
    context: fc.oneof(fc.nat(20_000), anyValue),
    hiddenReplicas: fc.oneof(
      fc.array(fc.integer({ min: -2, max: 1002 }), { maxLength: 4 }),
      anyValue,
    ),
    onlyReplica: fc.oneof(fc.integer({ min: -2, max: 1002 }), anyValue),
    onlyDeployment: anyValue,
  },
  { requiredKeys: [] },
);

/** What follows `{"tvcwatch":` in a header: its fields, each right, wrong or missing. */
const headerFields = fc.oneof(
  fc.record(
    {
      deploymentId: anyValue,
      savedAt: time,
      filters: fc.oneof(filters, anyValue),
      from: time,
      to: time,
      lines: fc.oneof(fc.nat(100), anyValue),
      gaps: fc.oneof(fc.nat(5), anyValue),
      range: fc.oneof(
        fc.record({
          kind: fc.constantFrom("all", "view", "marks", "minutes", "x"),
          minutes: anyValue,
        }),
        anyValue,
      ),
      bundle: fc.oneof(fc.constant(true), anyValue),
      replicas: list(replica),
      follow: fc.oneof(
        fc.dictionary(fc.string({ maxLength: 14 }), anyValue, { maxKeys: 4 }),
        anyValue,
      ),
      outages: list(outage),
      votes: list(vote),
    },
    { requiredKeys: [] },
  ),
  anyValue,
);

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const bounded1024 = (v: unknown) => v === undefined || (typeof v === "string" && v.length <= 1024);

/** What every header read holds, whatever it was read from. */
function expectWithinBounds(h: SavedHeader): void {
  expect(h.problems.every((p) => typeof p === "string" && p.length > 0)).toBe(true);
  for (const v of [h.deploymentId, h.savedAt, h.from, h.to]) expect(bounded1024(v)).toBe(true);
  for (const v of [h.lines, h.gaps]) expect(v === undefined || isCount(v)).toBe(true);
  for (const items of [h.replicas, h.outages, h.votes])
    expect(items === undefined || items.length <= MAX_BUNDLE_ITEMS).toBe(true);
  for (const v of h.votes ?? []) {
    expect(["approve", "reject"]).toContain(v.decision);
    expect(v.activityId).not.toBe("");
    expect(v.fingerprint).not.toBe("");
  }
  for (const r of h.replicas ?? []) expect(isCount(r.lines)).toBe(true);
  const f = h.filters;
  if (f) {
    expect(f.include.length).toBeLessThanOrEqual(64);
    expect(f.include.every((p) => typeof p === "string" && p.length <= 4096)).toBe(true);
    expect(Number.isSafeInteger(f.context) && f.context >= 0 && f.context <= 10_000).toBe(true);
    expect(f.hiddenReplicas.every((n) => Number.isSafeInteger(n) && n >= 1 && n <= 999)).toBe(true);
    expect(f.minLevel === undefined || LOG_LEVELS.includes(f.minLevel)).toBe(true);
  }
}

describe("a fuzz of saved files' headers (time-bounded)", () => {
  it("any NDJSON header is read within bounds, the rest said as problems, never thrown", () => {
    fc.assert(
      fc.property(headerFields, (fields) => {
        const value = { tvcwatch: fields };
        if (!isJsonHeader(value)) return;
        expectWithinBounds(readJsonHeader(value));
      }),
      bounded(20_000),
    );
  });

  it("any text after the text header's prefix is read within bounds, never thrown", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (rest) => {
        const h = readTextHeader(`${TEXT_HEADER_PREFIX}${rest}`);
        expect(h).toBeDefined();
        expectWithinBounds(h as SavedHeader);
      }),
      bounded(20_000),
    );
  });

  it("a file with any header opens, reads its lines whatever it claims, and checks the claims", async () => {
    const body = [1, 2, 3]
      .map((r) =>
        formatEvent(
          {
            kind: "line",
            replicaLabel: `replica ${r}/3`,
            seconds: String(1_795_000_000 + r),
            nanos: 0,
            sortKey: (1_795_000_000 + r) * 1000,
            content: `INFO line of ${r}`,
            late: false,
          },
          { output: "json", timestamps: true, utc: true, colour: false },
        ),
      )
      .join("\n");
    await fc.assert(
      fc.asyncProperty(headerFields, async (fields) => {
        const path = join(dir, `h${++files}.ndjson`);
        writeFileSync(path, `${JSON.stringify({ tvcwatch: fields })}\n${body}\n`);
        const o = await openSavedLogs([path]);
        try {
          await o.indexed;
          // The header is never a line; whatever it says, the three lines are read.
          const isHeader = isJsonHeader({ tvcwatch: fields });
          expect(o.log.size()).toBe(isHeader ? 3 : 4);
          const check = o.log.headerCheck();
          if (isHeader) {
            expect(check).toBeDefined();
            const header = o.log.header() as SavedHeader;
            expectWithinBounds(header);
            // A claim of the true count agrees; any other count is said.
            const said = check?.disagreed.some((d) => /^it says [\d,]+ lines?;/.test(d));
            if (header.lines !== undefined) expect(said).toBe(header.lines !== 3);
          }
        } finally {
          o.close();
        }
      }),
      bounded(300),
    );
  });

  it("the header S writes for any lines (NDJSON with a bundle's fields, or text) agrees with them", async () => {
    const rowsOf = fc
      .array(
        fc.record({
          step: fc.nat(4_000),
          replica: fc.integer({ min: 1, max: 4 }),
          gap: fc.integer({ min: 0, max: 12 }),
          content: fc.string({ maxLength: 30 }),
        }),
        { maxLength: 40 },
      )
      .map((specs) => {
        let ms = Date.UTC(2026, 10, 27, 5, 0, 0);
        return specs.map((s, id): StoredRow => {
          ms += s.step;
          const event: LogEvent =
            s.gap === 0
              ? { kind: "gap", from: ms - 5_000, to: ms, reason: "no longer kept", sortKey: ms }
              : {
                  kind: "line",
                  replicaLabel: `replica ${s.replica}/4`,
                  seconds: String(Math.floor(ms / 1000)),
                  nanos: packNanos(String((ms % 1000) * 1e6)),
                  sortKey: timestampSortKey(Math.floor(ms / 1000), (ms % 1000) * 1e6),
                  content: s.content,
                  late: false,
                };
          return { id: id + 1, bytes: 0, event };
        });
      });
    await fc.assert(
      fc.asyncProperty(rowsOf, fc.constantFrom("ndjson", "text"), async (rows, format) => {
        const text = savedView(rows, format, {
          deploymentId: "dep-1",
          filters: initialUiState,
          savedAt: Date.UTC(2026, 10, 27, 6, 0, 0),
          bundle: bundleFields(rows, undefined, []),
        }).text;
        const path = join(dir, `s${++files}.${format === "ndjson" ? "ndjson" : "log"}`);
        writeFileSync(path, text);
        const o = await openSavedLogs([path]);
        try {
          await o.indexed;
          expect(o.log.headerCheck()?.disagreed).toEqual([]);
        } finally {
          o.close();
        }
      }),
      bounded(200),
    );
  });

  it("checks a header against facts of any shape without an exception", () => {
    const streams = new StreamTable();
    for (const r of [1, 2, 3]) streams.id(undefined, `replica ${r}/3`);
    fc.assert(
      fc.property(
        headerFields,
        fc.record({
          lines: fc.nat(10_000),
          gaps: fc.nat(10),
          perStream: fc.array(fc.nat(100), { maxLength: 6 }),
          first: fc.oneof(fc.double(), fc.constant(Number.POSITIVE_INFINITY)),
          last: fc.oneof(fc.double(), fc.constant(Number.NEGATIVE_INFINITY)),
        }),
        (fields, read) => {
          const value = { tvcwatch: fields };
          if (!isJsonHeader(value)) return;
          const check = checkHeader(readJsonHeader(value), read, streams);
          expect(check.disagreed.length).toBeLessThanOrEqual(21);
          expect([...check.agreed, ...check.disagreed].every((s) => typeof s === "string")).toBe(
            true,
          );
        },
      ),
      bounded(20_000),
    );
  });
});
