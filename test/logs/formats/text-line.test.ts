import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatTextGap,
  formatTextLine,
  looksLikeTailText,
  readTextLine,
  type TextLineFormat,
} from "../../../src/logs/formats/text-line.js";
import type { GapMarker } from "../../../src/logs/model/log-line.js";
import { sampleLine } from "../corpus.js";

const line = sampleLine;

const plain: TextLineFormat = { timestamps: true, utc: true, colour: false };

describe("a text line written, then read", () => {
  it.each([
    ["UTC", plain],
    ["local time", { ...plain, utc: false }],
  ] as const)("gives back its replica, time and content (%s)", (_, f) => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[ -~]*$/),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.constantFrom(
          "replica 1/1",
          "replica 2/3",
          "9463b1 replica 2/3",
          "0c7e55 0.8.0 canary replica 1/2",
        ),
        (content, seconds, nanos, replicaLabel) => {
          const written = line({ content, replicaLabel, seconds: String(seconds), nanos });
          const read = readTextLine(formatTextLine(written, f));
          expect(read?.kind).toBe("line");
          if (read?.kind !== "line") return;
          expect(read.line).toMatchObject({
            replicaLabel,
            seconds: String(seconds),
            nanos,
            sortKey: seconds * 1000 + nanos / 1e6,
            content,
          });
          // The text states no level: the filters read it in the content, as they read the line's.
          expect(read.level).toBeUndefined();
        },
      ),
      { numRuns: 50 },
    );
  });

  it("gives back a line without a time, with and without --timestamps", () => {
    const bare = line({ seconds: undefined, nanos: undefined });
    for (const f of [plain, { ...plain, utc: false }, { ...plain, timestamps: false }]) {
      const read = readTextLine(formatTextLine(bare, f));
      expect(read).toMatchObject({
        kind: "line",
        line: { replicaLabel: "replica 2/3", seconds: undefined, content: "hello" },
      });
    }
  });

  it("gives back the deployment a label names when following several", () => {
    const read = readTextLine(formatTextLine(line({ replicaLabel: "9463b1 replica 2/3" }), plain));
    expect(read).toMatchObject({
      line: { deploymentId: "9463b1", replicaLabel: "9463b1 replica 2/3" },
    });
  });

  it("gives back a continuation line whole, its level read from its event's first line", () => {
    const frame = line({ content: "    at f (x.js:1:2)" });
    const read = readTextLine(formatTextLine(frame, plain));
    expect(read).toMatchObject({
      kind: "line",
      line: { content: "    at f (x.js:1:2)" },
      level: undefined,
    });
  });

  it("gives back a gap: its reason, from and to", () => {
    const gap: GapMarker = {
      kind: "gap",
      from: 1_795_000_000_000,
      to: 1_795_000_008_500,
      reason: "server unreachable",
      sortKey: 1_795_000_008_500,
    };
    for (const utc of [true, false]) {
      const written = formatTextGap(gap, { ...plain, utc });
      expect(readTextLine(written)).toEqual({ kind: "gap", gap });
      expect(looksLikeTailText(written)).toBe(true);
    }
  });

  it("reads grep's -- as nothing to show, and a line of other text as no tail line", () => {
    expect(readTextLine("--")).toEqual({ kind: "skip" });
    expect(readTextLine("[INFO] started")).toMatchObject({ kind: "line" });
    expect(looksLikeTailText("[INFO] started")).toBe(false);
    expect(readTextLine("# tvcwatch · deployment d")).toBeUndefined();
    expect(readTextLine("hello")).toBeUndefined();
  });
});
