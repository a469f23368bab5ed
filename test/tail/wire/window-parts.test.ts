// An answer read in two parts (one on each thread, in `tail`) gives the lines one reader of the
// whole gives: split at any comma between entries, the parts' lines joined in the follower's
// order are renderPlainWindow's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DebugLogEntry } from "../../../src/api/schemas.js";
import { readWindowPart, renderPlainWindow } from "../../../src/tail/wire/plain-window.js";
import {
  entryComma,
  joinInFollowerOrder,
  type WindowPart,
} from "../../../src/tail/wire/window-parts.js";
import { bodyOf, entry, layout, raw, SERVER_DATE, type Times } from "./window-bodies.js";

/** The body read in two parts split at the first comma between entries at or after `at`. */
function readInParts(body: Buffer, at: number, times: Times): Buffer | undefined | "no comma" {
  const comma = entryComma(body, at);
  if (comma < 0) return "no comma";
  const first = readWindowPart(body, 0, comma, times);
  const second = readWindowPart(body, comma + 1, body.length, times);
  if (!first || !second) return undefined;
  if (!(Math.max(first.newestKey, second.newestKey) <= SERVER_DATE + 999)) return undefined;
  return joinInFollowerOrder([first, second]);
}

describe("window parts", () => {
  it("read at any comma between entries, give the lines one reader of the whole gives", () => {
    let split = 0;
    let declined = 0;
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 2, maxLength: 30 }),
        layout,
        raw,
        fc.nat(),
        fc.constantFrom<Times>(undefined, { utc: true }, { utc: false }),
        (entries, how, rawBytes, at, times) => {
          const body = bodyOf(entries as DebugLogEntry[], how, rawBytes);
          const whole = renderPlainWindow(body, SERVER_DATE, times);
          const parts = readInParts(body, at % body.length, times);
          if (parts === "no comma") return;
          if (whole === undefined) {
            declined++;
            expect(parts).toBeUndefined();
            return;
          }
          split++;
          expect(parts?.toString("latin1")).toBe(whole.toString("latin1"));
        },
      ),
      { numRuns: 600 },
    );
    // Both sides of the property were exercised.
    expect(split).toBeGreaterThan(40);
    expect(declined).toBeGreaterThan(40);
  });

  it("joins parts out of order across them, stably by key", () => {
    const part = (lines: string[], keys: number[]): WindowPart => {
      const starts = new Int32Array(lines.length);
      let o = 0;
      lines.forEach((l, i) => {
        starts[i] = o;
        o += l.length + 1;
      });
      return {
        lines: Buffer.from(lines.map((l) => `${l}\n`).join(""), "latin1"),
        starts,
        keys: Float64Array.from(keys),
        count: lines.length,
        sorted: keys.every((k, i) => i === 0 || k >= (keys[i - 1] as number)),
        newestKey: Math.max(...keys),
      };
    };
    const joined = joinInFollowerOrder([
      part(["a1", "a3", "a5"], [1, 3, 5]),
      part(["b2", "b3", "b4"], [2, 3, 4]),
    ]);
    expect(joined.toString("latin1")).toBe("a1\nb2\na3\nb3\nb4\na5\n");
    const inOrder = joinInFollowerOrder([part(["a1"], [1]), part(["b2", "b2'"], [2, 2])]);
    expect(inOrder.toString("latin1")).toBe("a1\nb2\nb2'\n");
  });

  it("finds no comma inside a string, only between entries", () => {
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          {
            line: { content: '"},{"line":{"content":"', ts: { seconds: "1", nanos: "0" } },
            replicaLabel: "r",
          },
          { line: { content: "b", ts: { seconds: "2", nanos: "0" } }, replicaLabel: "r" },
        ],
      }),
    );
    const comma = entryComma(body, 0);
    expect(body.toString("latin1", comma - 2, comma + 12)).toBe('"},{"line":{"c');
    expect(body.toString("latin1", comma + 1)).toMatch(/^\{"line":\{"content":"b"/);
  });
});
