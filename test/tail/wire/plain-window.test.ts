// renderPlainWindow against the follower: for any response body, when it renders the window, the
// bytes are exactly what `tail` prints through the follower (one window, plain text, no filter);
// when it says undefined, the follower has the response to itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DebugLogEntry } from "../../../src/api/schemas.js";
import { formatEvent } from "../../../src/logs/formats/stream-format.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { decodeDebugLogs } from "../../../src/tail/wire/debug-log-fetch.js";
import { PlainWindowReader, renderPlainWindow } from "../../../src/tail/wire/plain-window.js";

const SERVER_DATE = 1_795_000_000_000;
/** `tail`'s text, with --timestamps (UTC or the local zone) or without. */
type Times = { utc: boolean } | undefined;
const formatOf = (times: Times) =>
  ({
    output: "text",
    timestamps: times !== undefined,
    utc: times?.utc ?? false,
    colour: false,
  }) as const;

/** What `tail --since 10m` prints of this body through the follower (undefined: it fails). */
async function throughFollower(
  body: Uint8Array,
  latencyMs: number,
  times: Times,
): Promise<string | undefined> {
  let data: { entries: DebugLogEntry[] };
  try {
    data = await decodeDebugLogs(body);
  } catch {
    return undefined;
  }
  let mono = 1_000;
  const follower = new LogFollower({
    clock: { now: () => SERVER_DATE + mono, monotonic: () => mono },
    sinceMs: 600_000,
    holdBackMs: 1000,
    fetchLogs: async () => {
      const sent = mono;
      mono += latencyMs;
      return {
        data,
        meta: {
          status: 200,
          serverDate: SERVER_DATE,
          sentAtWall: SERVER_DATE,
          receivedAtWall: SERVER_DATE + latencyMs,
          sentAtMonotonic: sent,
          receivedAtMonotonic: mono,
          attempts: 1,
        },
      };
    },
  });
  let out = "";
  follower.onEvents((events) => {
    for (const e of events) out += `${formatEvent(e, formatOf(times))}\n`;
  });
  await follower.run(new AbortController().signal, false);
  return out;
}

/** Text that logs carry, and text meant to attack a terminal or a JSON reader. */
const content = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constant("@@RAW@@"),
  fc.constantFrom(
    'GET /v1/transfers 200 "ok"',
    '{"level":"info","msg":"settled","seq":12}',
    "back\\slash and /slash",
    "tab\there",
    "new\nline\r\n",
    "\u001b[2J\u001b]52;c;ZXZpbA==\u0007",
    "\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\",
    "bidi \u202e txt \u2066 \u2028 \u200b \ufeff",
    "c1 \u0085 \u009b31m del \u007f",
    "emoji 👩‍💻 ok",
    "lone \ud800 surrogate",
    "\b\f",
    "",
    "@@RAW@@",
  ),
);

const label = fc.constantFrom(
  "replica 1/3",
  "replica 2/3",
  "replica 3/3",
  "replica 10/12",
  "r\u001b[31m",
  'quo"te',
  "répl",
);

/** Seconds near the response's Date: some after it (the follower sends those ahead). */
const seconds = fc.oneof(
  { weight: 60, arbitrary: fc.integer({ min: -700, max: 0 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
);

const timestamp = fc.oneof(
  {
    weight: 60,
    arbitrary: fc.record({
      seconds: seconds.map((s) => String(SERVER_DATE / 1000 + s)),
      nanos: fc.oneof(
        fc.integer({ min: 0, max: 999_999_999 }).map(String),
        fc.constantFrom("0", "999999999", "000000001"),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      seconds: fc.constantFrom("", "12a", "-5", "1e3", "00001795000000", "99999999999999999"),
      nanos: fc.constantFrom("0", "1000000000", "", "5"),
    }),
  },
);

const entry = fc.record({
  line: fc.oneof(
    { weight: 60, arbitrary: fc.record({ content, ts: timestamp }) },
    { weight: 1, arbitrary: fc.record({ content }) },
  ),
  replicaLabel: label,
});

/** Ways a server may write the same JSON (and a few ways of writing something else). */
const layout = fc.constantFrom(
  "compact",
  "compact",
  "compact",
  "compact",
  "compact",
  "indented",
  "reordered",
  "extra-key",
  "escaped-key",
);

/** A raw byte sequence for @@RAW@@ in content: invalid or cut UTF-8, a raw control, valid UTF-8. */
const raw = fc.constantFrom(
  [0xff],
  [0xc3],
  [0xe2, 0x80],
  [0xed, 0xa0, 0x80],
  [0x1b],
  [0x09],
  [0xc3, 0xa9],
  [0xe2, 0x80, 0xae],
  [0xc2, 0x9b],
);

function reorder(e: DebugLogEntry): unknown {
  const line = e.line.ts
    ? { ts: { nanos: e.line.ts.nanos, seconds: e.line.ts.seconds }, content: e.line.content }
    : e.line;
  return { replicaLabel: e.replicaLabel, line };
}

function bodyOf(entries: DebugLogEntry[], how: string, rawBytes: readonly number[]): Buffer {
  let text: string;
  switch (how) {
    case "indented":
      text = JSON.stringify({ entries }, null, 2);
      break;
    case "reordered":
      text = JSON.stringify({ entries: entries.map(reorder) });
      break;
    case "extra-key":
      text = JSON.stringify({ entries: entries.map((e) => ({ ...e, pod: "p" })) });
      break;
    case "escaped-key":
      text = JSON.stringify({ entries }).replaceAll('"line":', '"\\u006cine":');
      break;
    default:
      text = JSON.stringify({ entries });
  }
  const parts = text.split("@@RAW@@");
  const bufs: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) bufs.push(Buffer.from(rawBytes));
    bufs.push(Buffer.from(p, "utf8"));
  });
  return Buffer.concat(bufs);
}

describe("renderPlainWindow", () => {
  it("prints exactly what the follower prints for the same window, or declines", async () => {
    let rendered = 0;
    let declined = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 30 }),
        layout,
        raw,
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom<Times>(undefined, undefined, { utc: true }, { utc: false }),
        async (entries, how, rawBytes, latencyMs, times) => {
          const body = bodyOf(entries as DebugLogEntry[], how, rawBytes);
          const fast = renderPlainWindow(body, SERVER_DATE, times);
          const slow = await throughFollower(body, latencyMs, times);
          if (fast === undefined) {
            declined++;
            return;
          }
          rendered++;
          expect(slow).toBeDefined();
          expect(fast.toString("latin1")).toBe(Buffer.from(slow ?? "", "utf8").toString("latin1"));
        },
      ),
      { numRuns: 400 },
    );
    // Both sides of the property were exercised.
    expect(rendered).toBeGreaterThan(40);
    expect(declined).toBeGreaterThan(40);
  });

  it("reads a body as its chunks come exactly as it reads it whole", () => {
    // What the memory holds past each chunk: anything (here, what a body is made of).
    const filler = fc.constantFrom(0x22, 0x5c, 0x30, 0x7d, 0x5d, 0x2c, 0x7b, 0x20, 0xff);
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 30 }),
        layout,
        raw,
        filler,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom<Times>(undefined, { utc: true }, { utc: false }),
        (entries, how, rawBytes, fill, cuts, times) => {
          const body = bodyOf(entries as DebugLogEntry[], how, rawBytes);
          const whole = renderPlainWindow(body, SERVER_DATE, times);
          const reader = new PlainWindowReader(times);
          const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let from = 0;
          for (const p of [...points, body.length]) {
            const memory = Buffer.alloc(p - from + 8, fill);
            body.copy(memory, 0, from, p);
            const chunk = memory.subarray(0, p - from);
            reader.feed(chunk, from, body.length);
            chunks.push(chunk);
            from = p;
          }
          const fed = reader.finish({ chunks, byteLength: body.length }, SERVER_DATE);
          expect(fed?.toString("latin1")).toBe(whole?.toString("latin1"));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads a body whose chunks it was not fed whole, and starts over at a body's first chunk", () => {
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          {
            line: { content: "a", ts: { seconds: String(SERVER_DATE / 1000), nanos: "1" } },
            replicaLabel: "r",
          },
        ],
      }),
    );
    const whole = (b: Buffer) => ({ chunks: [b], byteLength: b.length });
    const reader = new PlainWindowReader(undefined);
    // An attempt that broke off part way.
    reader.feed(Buffer.from(body.subarray(0, 20)), 0, body.length);
    expect(reader.finish(whole(Buffer.from(body)), SERVER_DATE)?.toString()).toBe("[r] a\n");
    const again = new PlainWindowReader(undefined);
    again.feed(Buffer.from("{not json"), 0);
    const second = Buffer.from(body);
    again.feed(second, 0, second.length);
    expect(again.finish(whole(second), SERVER_DATE)?.toString()).toBe("[r] a\n");
  });

  it("prints lines longer than the JSON they came in (escapes written wider, times), fed in pieces, as the follower does", async () => {
    const at = (n: number) => ({ seconds: String(SERVER_DATE / 1000 - 5), nanos: String(n) });
    const entries = [
      { line: { content: "\n\r".repeat(3000), ts: at(1) }, replicaLabel: "r" },
      { line: { content: "short", ts: at(2) }, replicaLabel: "replica 10/12" },
      { line: { content: "\b".repeat(5000), ts: at(0) }, replicaLabel: "replica 1/3" },
    ];
    const body = Buffer.from(JSON.stringify({ entries }));
    for (const times of [undefined, { utc: true }] as Times[]) {
      const reader = new PlainWindowReader(times);
      const chunks: Buffer[] = [];
      for (let from = 0; from < body.length; from += 777) {
        const chunk = Buffer.from(body.subarray(from, from + 777));
        reader.feed(chunk, from, body.length);
        chunks.push(chunk);
      }
      const fast = reader.finish({ chunks, byteLength: body.length }, SERVER_DATE);
      expect(fast).toBeDefined();
      expect((fast as Buffer).length).toBeGreaterThan(body.length);
      expect(fast?.toString("utf8")).toBe(await throughFollower(body, 0, times));
    }
  });

  it("reads an entry longer than many chunks, fed a little at a time, as it reads it whole", () => {
    const at = (n: number) => ({ seconds: String(SERVER_DATE / 1000 - 5), nanos: String(n) });
    const long = `${"x".repeat(150_000)}"quoted" ${"\n".repeat(40_000)}${"y".repeat(90_000)}`;
    const entries = [
      { line: { content: "before", ts: at(1) }, replicaLabel: "replica 1/3" },
      { line: { content: long, ts: at(2) }, replicaLabel: "r" },
      { line: { content: "after", ts: at(3) }, replicaLabel: "replica 1/3" },
    ];
    const body = Buffer.from(JSON.stringify({ entries }));
    const whole = renderPlainWindow(body, SERVER_DATE);
    expect(whole).toBeDefined();
    for (const size of [1000, 65_536]) {
      const reader = new PlainWindowReader(undefined);
      const chunks: Buffer[] = [];
      for (let from = 0; from < body.length; from += size) {
        const chunk = Buffer.from(body.subarray(from, from + size));
        reader.feed(chunk, from, body.length);
        chunks.push(chunk);
      }
      const fed = reader.finish({ chunks, byteLength: body.length }, SERVER_DATE);
      expect(fed?.equals(whole as Buffer)).toBe(true);
    }
  });

  it("renders the usual window, in timestamp order across replicas", () => {
    const at = (s: number, n: number) => ({
      seconds: String(SERVER_DATE / 1000 - s),
      nanos: String(n),
    });
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          { line: { content: "b2", ts: at(5, 500) }, replicaLabel: "replica 2/2" },
          { line: { content: "b1", ts: at(5, 100) }, replicaLabel: "replica 2/2" },
          { line: { content: '{"msg":"a\\tb"}\n', ts: at(6, 0) }, replicaLabel: "replica 1/2" },
          { line: { content: "same", ts: at(5, 100) }, replicaLabel: "replica 1/2" },
        ],
      }),
    );
    expect(renderPlainWindow(body, SERVER_DATE)?.toString("utf8")).toBe(
      '[replica 1/2] {"msg":"a\\tb"}\\x0a\n[replica 2/2] b1\n[replica 1/2] same\n[replica 2/2] b2\n',
    );
  });

  it("starts each line with its time for --timestamps, as the follower's text does", () => {
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          { line: { content: "a", ts: { seconds: "1795000000", nanos: "5" } }, replicaLabel: "r" },
          {
            line: { content: "b", ts: { seconds: "0001795000000", nanos: "000000120" } },
            replicaLabel: "r",
          },
        ],
      }),
    );
    expect(renderPlainWindow(body, SERVER_DATE, { utc: true })?.toString()).toBe(
      "2026-11-18T11:06:40.000000005Z [r] a\n2026-11-18T11:06:40.000000120Z [r] b\n",
    );
  });

  it("declines what it does not render: no Date, a line without a timestamp, one stamped ahead", () => {
    const ok = {
      line: { content: "x", ts: { seconds: String(SERVER_DATE / 1000), nanos: "0" } },
      replicaLabel: "r",
    };
    const body = (entries: unknown[]) => Buffer.from(JSON.stringify({ entries }));
    expect(renderPlainWindow(body([ok]), SERVER_DATE)?.toString()).toBe("[r] x\n");
    expect(renderPlainWindow(body([ok]), undefined)).toBeUndefined();
    expect(
      renderPlainWindow(body([ok, { line: { content: "y" }, replicaLabel: "r" }]), SERVER_DATE),
    ).toBeUndefined();
    const ahead = {
      ...ok,
      line: { ...ok.line, ts: { seconds: String(SERVER_DATE / 1000 + 2), nanos: "0" } },
    };
    expect(renderPlainWindow(body([ok, ahead]), SERVER_DATE)).toBeUndefined();
    expect(renderPlainWindow(Buffer.from("{}"), SERVER_DATE)).toBeUndefined();
    expect(renderPlainWindow(Buffer.from('{"entries":[]}'), SERVER_DATE)?.length).toBe(0);
  });
});
