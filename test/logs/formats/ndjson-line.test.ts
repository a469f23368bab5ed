import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatJsonGap,
  formatJsonLine,
  readJsonLine,
} from "../../../src/logs/formats/ndjson-line.js";
import type { GapMarker } from "../../../src/logs/model/log-line.js";
import { LOG_LEVELS } from "../../../src/text/log-level.js";
import { sampleLine } from "../corpus.js";

const line = sampleLine;

const roundTrip = (written: string) => readJsonLine(JSON.parse(written));

describe("an NDJSON line written, then read", () => {
  it("gives back its replica, deployment, time and content exactly", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        (content, replicaLabel, deploymentId, seconds, nanos) => {
          const written = line({
            content,
            replicaLabel,
            seconds: String(seconds),
            nanos,
            ...(deploymentId === undefined ? {} : { deploymentId }),
          });
          const read = roundTrip(formatJsonLine(written));
          expect(read?.kind).toBe("line");
          if (read?.kind !== "line") return;
          expect(read.line).toEqual({
            kind: "line",
            replicaLabel,
            seconds: String(seconds),
            nanos,
            sortKey: seconds * 1000 + nanos / 1e6,
            content,
            late: false,
            ...(deploymentId === undefined ? {} : { deploymentId }),
          });
        },
      ),
      { numRuns: 50 },
    );
  });

  it("gives back a line without a timestamp as one without a time", () => {
    const read = roundTrip(formatJsonLine(line({ seconds: undefined, nanos: undefined })));
    expect(read).toMatchObject({ kind: "line", line: { seconds: undefined, nanos: undefined } });
    expect(read?.kind === "line" && Number.isNaN(read.line.sortKey)).toBe(true);
  });

  it("gives back the level it wrote, null for none", () => {
    expect(roundTrip(formatJsonLine(line({ content: "ERROR boom" })))).toMatchObject({
      level: "error",
    });
    expect(roundTrip(formatJsonLine(line({ content: "just words" })))).toMatchObject({
      level: null,
    });
    for (const level of LOG_LEVELS) {
      const read = roundTrip(formatJsonLine(line({ content: `${level.toUpperCase()} x` })));
      expect(read).toMatchObject({ level });
    }
  });

  it("gives back a continuation line with its event's level", () => {
    const head = line({ content: "ERROR boom" });
    const frame = line({ content: "    at f (x.js:1:2)" });
    const written = formatJsonLine(frame, undefined, head);
    expect(JSON.parse(written)).toMatchObject({ continues: true });
    expect(roundTrip(written)).toMatchObject({
      kind: "line",
      line: { content: "    at f (x.js:1:2)" },
      level: "error",
    });
  });

  it("gives back a gap: its reason, from, to and where it sorts", () => {
    const gap: GapMarker = {
      kind: "gap",
      from: 1_795_000_000_000,
      to: 1_795_000_008_500,
      reason: "server unreachable",
      sortKey: 1_795_000_008_500.25,
    };
    expect(roundTrip(formatJsonGap(gap))).toEqual({ kind: "gap", gap });
  });

  it("reads nothing from a value that is no line tail writes", () => {
    expect(readJsonLine({ msg: "another app" })).toBeUndefined();
    expect(readJsonLine([1])).toBeUndefined();
    expect(readJsonLine({ event: "gap", from: "x", to: "y" })).toBeUndefined();
  });
});
