// OverlapDecoder against decoding each answer whole by the schema: over random runs of
// overlapping answers, in the server's layout and in hostile ones, every answer decodes to exactly
// what the operation's zod schema gives (or fails with the same message), and the usual run takes
// most entries from the answer before.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DebugLogEntry } from "../../../src/api/schemas.js";
import { decodeResponse } from "../../../src/api/validation.js";
import { OverlapDecoder } from "../../../src/tail/wire/overlap-decoder.js";

type Entry = DebugLogEntry;

const CONTENTS = [
  "GET /healthz 200",
  'quoted "word" and \\ backslash',
  '{"line":{"content":"nested"}}',
  '],"entries":[',
  '{"line":',
  "café ☕ \u202e bidi",
  "\u001b[31mred\u001b[0m\n",
  "",
  "x",
];

const entryArb: fc.Arbitrary<Entry> = fc.record({
  line: fc.record(
    {
      content: fc.oneof(fc.constantFrom(...CONTENTS), fc.string({ maxLength: 12 })),
      ts: fc.record({
        seconds: fc.constantFrom("1795000000", "1795000001", "1795000002"),
        nanos: fc.constantFrom("0", "5", "999999999"),
      }),
    },
    { requiredKeys: ["content"] },
  ),
  replicaLabel: fc.constantFrom("replica 1/2", "replica 2/2", 'odd "label"'),
});

/** How one answer is written: the server's compact layout, or something else. */
type Layout =
  | "compact"
  | "spaced"
  | "reordered"
  | "extra-key"
  | "nested-marker"
  | "extra-top-key"
  | "duplicate-entries"
  | "escaped-duplicate"
  | "trailing-comma"
  | "truncated"
  | "trailing-space"
  | "not-an-entry";

function compact(e: Entry): string {
  return JSON.stringify(e);
}

function write(entries: Entry[], layout: Layout, pick: number): string {
  const at = entries.length === 0 ? 0 : pick % entries.length;
  const items = entries.map(compact);
  switch (layout) {
    case "compact":
      return `{"entries":[${items.join(",")}]}`;
    case "spaced":
      return JSON.stringify({ entries }, null, 1);
    case "reordered":
      items[at] = JSON.stringify({
        replicaLabel: entries[at]?.replicaLabel,
        line: entries[at]?.line,
      });
      return `{"entries":[${items.join(",")}]}`;
    case "extra-key":
      items[at] = JSON.stringify({ ...entries[at], extra: 1 });
      return `{"entries":[${items.join(",")}]}`;
    case "nested-marker":
      items[at] = JSON.stringify({ ...entries[at], x: { line: { content: "y" } } });
      return `{"entries":[${items.join(",")}]}`;
    case "extra-top-key":
      return `{"entries":[${items.join(",")}],"next":{"line":1}}`;
    case "duplicate-entries":
      return `{"entries":[${items.slice(0, at).join(",")}],"entries":[${items.slice(at).join(",")}]}`;
    case "escaped-duplicate":
      return `{"entries":[${items.slice(0, at).join(",")}],"\\u0065ntries":[${items.slice(at).join(",")}]}`;
    case "trailing-comma":
      return `{"entries":[${items.join(",")},]}`;
    case "truncated": {
      const text = `{"entries":[${items.join(",")}]}`;
      return text.slice(0, Math.max(1, text.length - 1 - (pick % 20)));
    }
    case "trailing-space":
      return `{"entries":[${items.join(",")}]}\n `;
    case "not-an-entry":
      items.splice(at, 0, "1");
      return `{"entries":[${items.join(",")}]}`;
  }
}

/** A run of answers over one growing log: windows move forward, lines arrive late, some vanish. */
const runArb = fc
  .record({
    pool: fc.array(entryArb, { minLength: 4, maxLength: 40 }),
    steps: fc.array(
      fc.record({
        advance: fc.nat(6),
        length: fc.integer({ min: 1, max: 25 }),
        late: fc.option(fc.tuple(fc.nat(30), entryArb), { freq: 4 }),
        drop: fc.option(fc.nat(30), { freq: 5 }),
        layout: fc.oneof(
          { weight: 24, arbitrary: fc.constant<Layout>("compact") },
          {
            weight: 6,
            arbitrary: fc.constantFrom<Layout>(
              "spaced",
              "reordered",
              "extra-key",
              "nested-marker",
              "extra-top-key",
              "duplicate-entries",
              "escaped-duplicate",
              "trailing-comma",
              "truncated",
              "trailing-space",
              "not-an-entry",
            ),
          },
        ),
        pick: fc.nat(1000),
      }),
      { minLength: 2, maxLength: 12 },
    ),
  })
  .map(({ pool, steps }) => {
    const log = [...pool];
    const texts: string[] = [];
    let front = 0;
    for (const step of steps) {
      front = Math.min(front + step.advance, log.length - 1);
      if (step.late) log.splice(front + (step.late[0] % (log.length - front)), 0, step.late[1]);
      const window = log.slice(front, front + step.length);
      if (step.drop !== null && window.length > 1) window.splice(step.drop % window.length, 1);
      texts.push(write(window, step.layout, step.pick));
    }
    return texts;
  });

async function whole(text: string): Promise<{ ok: unknown } | { error: string }> {
  try {
    return { ok: decodeResponse("get_tvc_deployment_debug_logs", text) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function overlapping(
  decoder: OverlapDecoder,
  text: string,
): Promise<{ ok: unknown } | { error: string }> {
  try {
    return { ok: await decoder.decode(text) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe("OverlapDecoder", () => {
  it("decodes every answer of a run exactly as decoding it whole does", async () => {
    let reused = 0;
    let parsed = 0;
    await fc.assert(
      // Pieces of 1 to 4 entries, and the default, so that answers are parsed in several pieces.
      fc.asyncProperty(runArb, fc.constantFrom(1, 2, 3, 4, undefined), async (texts, piece) => {
        const decoder = new OverlapDecoder(piece);
        for (const text of texts) {
          expect(await overlapping(decoder, text)).toEqual(await whole(text));
        }
        reused += decoder.counts.reused;
        parsed += decoder.counts.parsed;
      }),
      { numRuns: 400 },
    );
    // The property is not vacuous: a share of the entries (about 9%: windows here are short and
    // many layouts are hostile) came from the answer before.
    expect(reused).toBeGreaterThan(parsed / 20);
  });

  it("parses only the new entries of an answer that re-sends the previous one's tail", async () => {
    const entry = (i: number): Entry => ({
      line: { content: `line ${i} "q"`, ts: { seconds: String(1_795_000_000 + i), nanos: "0" } },
      replicaLabel: `replica ${(i % 2) + 1}/2`,
    });
    const window = (from: number, to: number) =>
      `{"entries":[${Array.from({ length: to - from }, (_, k) => compact(entry(from + k))).join(",")}]}`;
    const decoder = new OverlapDecoder();
    await decoder.decode(window(0, 100));
    const second = await decoder.decode(window(60, 150));
    expect(second).toEqual(JSON.parse(window(60, 150)));
    // Entries 60..98 come from the first answer; 99 (its last, which ended in "]") is parsed.
    expect(decoder.counts).toEqual({ reused: 39, parsed: 100 + 51 });
  });

  it("fails as decoding by the schema does on an answer that is not JSON, after a good one", async () => {
    const items = [1, 2, 3].map((i) => compact({ line: { content: `l${i}` }, replicaLabel: "r" }));
    const decoder = new OverlapDecoder();
    await decoder.decode(`{"entries":[${items.join(",")}]}`);
    // The first two entries again, with a trailing comma: the run of known entries is all of it.
    const bad = `{"entries":[${items.slice(0, 2).join(",")},]}`;
    const expected = await whole(bad);
    expect(expected).toHaveProperty("error");
    await expect(decoder.decode(bad)).rejects.toThrow((expected as { error: string }).error);
  });
});
