// Answers of a debug-log window for the plain window's property tests: the entries a server may
// send (text that logs carry and text meant to attack a terminal or a JSON reader), the ways it
// may write them, and what the follower prints of them.
import fc from "fast-check";
import type { DebugLogEntry } from "../../../src/api/schemas.js";
import { formatEvent } from "../../../src/logs/formats/stream-format.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { decodeDebugLogs } from "../../../src/tail/wire/debug-log-fetch.js";

export const SERVER_DATE = 1_795_000_000_000;
/** `tail`'s text, with --timestamps (UTC or the local zone) or without. */
export type Times = { utc: boolean } | undefined;
const formatOf = (times: Times) =>
  ({
    output: "text",
    timestamps: times !== undefined,
    utc: times?.utc ?? false,
    colour: false,
  }) as const;

/** What `tail --since 10m` prints of this body through the follower (undefined: it fails). */
export async function throughFollower(
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

export const entry = fc.record({
  line: fc.oneof(
    { weight: 60, arbitrary: fc.record({ content, ts: timestamp }) },
    { weight: 1, arbitrary: fc.record({ content }) },
  ),
  replicaLabel: label,
});

/** Ways a server may write the same JSON (and a few ways of writing something else). */
export const layout = fc.constantFrom(
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
export const raw = fc.constantFrom(
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

export function bodyOf(entries: DebugLogEntry[], how: string, rawBytes: readonly number[]): Buffer {
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
