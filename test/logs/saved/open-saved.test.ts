import { execFileSync } from "node:child_process";
import { once } from "node:events";
import {
  appendFileSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { formatEvent, type StreamFormat } from "../../../src/logs/formats/stream-format.js";
import { IndexedFilter } from "../../../src/logs/indexed-filter.js";
import { compilePattern, LineFilter } from "../../../src/logs/line-filter.js";
import {
  type GapMarker,
  type LogEvent,
  type LogLine,
  packNanos,
  type StoreEvent,
  timestampSortKey,
} from "../../../src/logs/model/log-line.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { READ_BYTES } from "../../../src/logs/saved/byte-source.js";
import { type OpenedLogs, openSavedLogs } from "../../../src/logs/saved/open-saved.js";
import { MAX_LINE_BYTES, TAIL_BYTES } from "../../../src/logs/saved/saved-file.js";
import type { SavedLog } from "../../../src/logs/saved/saved-log.js";
import { sanitizeForTerminal } from "../../../src/text/sanitize.js";
import { waitFor } from "../../helpers/wait-for.js";
import { BURSTS, interleave, logLine } from "../corpus.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-saved-"));
let files = 0;
function write(text: string | Buffer, name = `f${++files}.log`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const opened: OpenedLogs[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

async function open(paths: string[], options: Parameters<typeof openSavedLogs>[1] = {}) {
  const o = await openSavedLogs(paths, options);
  opened.push(o);
  await o.indexed;
  return o;
}

function events(log: SavedLog): StoreEvent[] {
  return log.slice(0, log.size()).map((r) => r.event);
}

/**
 * Searches the log for `source` and checks that it finds exactly the lines whose content (up to
 * `chars` of it) the pattern matches; returns how many it found.
 */
async function searchAsContent(
  log: SavedLog,
  all: readonly StoreEvent[],
  source: string,
  where: string,
  chars = Number.POSITIVE_INFINITY,
): Promise<number> {
  const pattern = compilePattern(source);
  const found = await log.search(pattern);
  const want = all.flatMap((e, i) =>
    e.kind === "line" && pattern.test(e.content.slice(0, chars)) ? [i] : [],
  );
  expect([...found.rows], `${source} in ${where}`).toEqual(want);
  return want.length;
}

const JSON_OUT: StreamFormat = { output: "json", timestamps: false, utc: true, colour: false };
const TEXT_UTC: StreamFormat = { output: "text", timestamps: true, utc: true, colour: false };
const TEXT_LOCAL: StreamFormat = { ...TEXT_UTC, utc: false };
const TEXT_BARE: StreamFormat = { ...TEXT_UTC, timestamps: false };

function lines(list: readonly LogEvent[], f: StreamFormat): string {
  return list.map((e) => `${formatEvent(e, f)}\n`).join("");
}

const at = (ms: number, content: string, replica = 1, over: Partial<LogLine> = {}): LogLine => ({
  ...logLine(`replica ${replica}/3`, content, ms),
  ...over,
});
const untimed = (content: string, replica = 1): LogLine => ({
  kind: "line",
  replicaLabel: `replica ${replica}/3`,
  seconds: undefined,
  nanos: undefined,
  sortKey: 0,
  content,
  late: false,
});

/** Events as a reader gives them back: a line without a time takes the key of the one before. */
function placed(list: readonly LogEvent[]): LogEvent[] {
  const firstKey = list.find((e) => e.kind === "gap" || e.seconds !== undefined)?.sortKey ?? 0;
  let key = firstKey;
  return list.map((e) => {
    if (e.kind === "gap" || e.seconds !== undefined) key = e.sortKey;
    return e.kind === "line" && e.seconds === undefined ? { ...e, sortKey: key } : e;
  });
}

const NOW = 1_795_000_000_000;

/** Lines (and gaps) in time order, some without a timestamp, as a follow emits them. */
const eventList = fc
  .array(
    fc.record({
      step: fc.integer({ min: 0, max: 5_000 }),
      nanos: fc.integer({ min: 0, max: 999_999 }),
      stamped: fc.boolean(),
      gap: fc.integer({ min: 0, max: 30 }),
      replica: fc.integer({ min: 1, max: 3 }),
      content: fc.string({ unit: "binary", maxLength: 60 }),
    }),
    { maxLength: 40 },
  )
  .map((specs) => {
    // The time in whole milliseconds and nanoseconds past them, only ever going forward.
    let ms = NOW;
    let ns = 0;
    return specs.map((s): LogEvent => {
      if (s.step > 0) {
        ms += s.step;
        ns = 0;
      }
      if (s.gap === 0) {
        // After the lines of the millisecond before (a gap sorts at its end, to the millisecond).
        ms += 1;
        ns = 0;
        return { kind: "gap", from: ms - 1000, to: ms, reason: "no answer", sortKey: ms };
      }
      if (!s.stamped) return untimed(s.content, s.replica);
      ns = Math.max(ns, s.nanos);
      const seconds = Math.floor(ms / 1000);
      const nanos = (ms % 1000) * 1e6 + ns;
      return {
        kind: "line",
        replicaLabel: `replica ${s.replica}/3`,
        seconds: String(seconds),
        nanos: packNanos(String(nanos)),
        sortKey: timestampSortKey(seconds, nanos),
        content: s.content,
        late: false,
      };
    });
  });

describe("reading back what tail writes", () => {
  it("NDJSON (tail -o json), plain or gzipped, reads back as the same events", async () => {
    await fc.assert(
      fc.asyncProperty(eventList, fc.boolean(), async (list, gz) => {
        const text = lines(list, JSON_OUT);
        const o = await open([write(gz ? gzipSync(text) : text)]);
        expect(events(o.log)).toEqual(placed(list));
        expect(o.log.summary()).toMatchObject({ unreadable: 0, notes: [], complete: true });
        o.close();
      }),
      { numRuns: 60 },
    );
  });

  it("text (tail, with --timestamps in UTC or the local zone, or without) reads back the same", async () => {
    await fc.assert(
      fc.asyncProperty(
        eventList,
        fc.constantFrom(TEXT_UTC, TEXT_LOCAL, TEXT_BARE),
        async (list, look) => {
          const written = list.filter((e) => e.kind === "line" || look.timestamps);
          const o = await open([write(lines(written, look))]);
          const want = placed(
            written.map((e) =>
              e.kind === "gap"
                ? // Written to the millisecond.
                  { ...e, from: Math.floor(e.from), to: Math.floor(e.to) }
                : {
                    ...e,
                    content: sanitizeForTerminal(e.content),
                    ...(look.timestamps ? {} : { seconds: undefined, nanos: undefined }),
                  },
            ),
          );
          expect(events(o.log)).toEqual(
            look.timestamps ? want : want.map((e) => ({ ...e, sortKey: 0 })),
          );
          o.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads tail -o json from before time and level, and after fields it does not know", async () => {
    const path = write(
      [
        '{"replicaLabel":"replica 1/3","ts":{"seconds":"1795000000","nanos":"5"},"content":"ERROR old"}',
        '{"replicaLabel":"replica 1/3","ts":null,"content":"    at f (x.js:1:2)"}',
        '{"replicaLabel":"replica 2/3","ts":{"seconds":"1795000001","nanos":"0"},"content":"WARN new","time":"2026-11-18T11:06:41.000000000Z","level":"warn","version":"0.8.0"}',
      ].join("\n"),
    );
    const o = await open([path]);
    expect(events(o.log).map((e) => e.kind === "line" && [e.content, e.sortKey])).toEqual([
      ["ERROR old", timestampSortKey(1_795_000_000, 5)],
      ["    at f (x.js:1:2)", timestampSortKey(1_795_000_000, 5)],
      ["WARN new", 1_795_000_001_000],
    ]);
    expect([0, 1, 2].map((r) => o.log.levelAt(r))).toEqual(["error", undefined, "warn"]);
  });

  it("restores the filters of a view S saved, and reads its lines", async () => {
    const path = write(
      [
        '{"tvcwatch":{"deploymentId":"dep-1","savedAt":"2026-11-18T11:10:00.000Z","filters":{"include":["boom"],"exclude":null,"minLevel":"warn","context":1,"hiddenReplicas":[2],"onlyDeployment":null},"from":"2026-11-18T11:06:40.000Z","to":"2026-11-18T11:06:40.000Z","lines":1}}',
        formatEvent(at(NOW, "ERROR boom"), JSON_OUT),
      ].join("\n"),
      "saved.ndjson",
    );
    const o = await open([path]);
    expect(o.log.size()).toBe(1);
    expect(o.log.header()).toMatchObject({
      deploymentId: "dep-1",
      filters: { include: ["boom"], minLevel: "warn", context: 1, hiddenReplicas: [2] },
    });
  });
});

describe("several files", () => {
  it("are merged by time; lines without one keep their place in their file; ties keep file order", async () => {
    const a = write(
      lines(
        [at(NOW + 1000, "a1"), untimed("a1 frame"), at(NOW + 3000, "a3"), at(NOW + 5000, "a5 tie")],
        JSON_OUT,
      ),
    );
    const b = write(
      lines([untimed("b0 lead"), at(NOW + 2000, "b2", 2), at(NOW + 5000, "b5 tie", 2)], TEXT_UTC),
    );
    const c = write("plain text without times\nsecond plain line\n");
    const o = await open([a, b, c]);
    expect(events(o.log).map((e) => (e.kind === "line" ? e.content : e.kind))).toEqual([
      "plain text without times",
      "second plain line",
      "a1",
      "a1 frame",
      "b0 lead",
      "b2",
      "a3",
      "a5 tie",
      "b5 tie",
    ]);
    expect(o.log.summary().files.map((f) => [f.format, f.lines])).toEqual([
      ["ndjson", 4],
      ["text", 3],
      ["plain", 2],
    ]);
    expect(o.log.summary()).toMatchObject({ from: NOW + 1000, to: NOW + 5000, unreadable: 0 });
  });

  it("puts a line that came late in its place, marked late, with the lines that continue it", async () => {
    const path = write(
      lines(
        [
          at(NOW + 1000, "one"),
          at(NOW + 3000, "three"),
          at(NOW + 2000, "two, late"),
          untimed("  frame of two"),
          at(NOW + 4000, "four"),
        ],
        JSON_OUT,
      ),
    );
    const o = await open([path]);
    expect(events(o.log).map((e) => e.kind === "line" && [e.content, e.late])).toEqual([
      ["one", false],
      ["two, late", true],
      ["  frame of two", false],
      ["three", false],
      ["four", false],
    ]);
    expect(o.log.firstAtOrAfter(NOW + 2500)).toBe(3);
  });

  it("label lines of several deployments as the dashboard does, by the shortest unique prefix", async () => {
    const d1 = "9463b1f2-0000-4000-8000-000000000001";
    const d2 = "0c7e55aa-0000-4000-8000-000000000002";
    const path = write(
      lines(
        [
          at(NOW, "one", 1, { deploymentId: d1 }),
          at(NOW + 1, "two", 2, { deploymentId: d2 }),
          // As S saves a merged view: labelled already.
          at(NOW + 2, "three", 1, { deploymentId: d2, replicaLabel: "0c7e55 replica 1/3" }),
        ],
        JSON_OUT,
      ),
    );
    const o = await open([path]);
    expect(events(o.log).map((e) => e.kind === "line" && [e.deploymentId, e.replicaLabel])).toEqual(
      [
        [d1, "9463b1 replica 1/3"],
        [d2, "0c7e55 replica 2/3"],
        [d2, "0c7e55 replica 1/3"],
      ],
    );
    const text = write("[9463b1 replica 2/3] x\n[0c7e55 replica 1/3] y\n");
    const t = await open([text]);
    expect(events(t.log).map((e) => e.kind === "line" && [e.deploymentId, e.replicaLabel])).toEqual(
      [
        ["9463b1", "9463b1 replica 2/3"],
        ["0c7e55", "0c7e55 replica 1/3"],
      ],
    );
  });
});

describe("lines that cannot be read", () => {
  it("are kept as text, in place, without a replica, and counted", async () => {
    const path = write(
      [
        formatEvent(at(NOW, "first"), JSON_OUT),
        '{"replicaLabel":"replica 1/3","content":"cut sh',
        "not json at all ERROR",
        formatEvent(at(NOW + 1000, "second"), JSON_OUT),
        formatEvent(at(NOW + 2000, "third"), JSON_OUT),
        "",
      ].join("\n"),
    );
    const o = await open([path]);
    expect(events(o.log).map((e) => e.kind === "line" && [e.replicaLabel, e.content])).toEqual([
      ["replica 1/3", "first"],
      ["", '{"replicaLabel":"replica 1/3","content":"cut sh'],
      ["", "not json at all ERROR"],
      ["replica 1/3", "second"],
      ["replica 1/3", "third"],
    ]);
    expect(o.log.summary().unreadable).toBe(2);
    expect(o.log.kindAt(2)).toMatchObject({ unreadable: true });
    expect(o.log.levelAt(2)).toBe("error");
  });

  it("a line longer than 4 MiB is kept as its first 4 MiB, counted, and the next line read", async () => {
    const long = "x".repeat(5 * 1024 * 1024);
    const path = write(`[replica 1/3] before\n${long}\n[replica 1/3] after\n`);
    const o = await open([path]);
    const got = events(o.log) as LogLine[];
    expect(got.map((e) => e.content.length)).toEqual([6, 4 * 1024 * 1024, 5]);
    expect(got[2]?.content).toBe("after");
    expect(o.log.summary().unreadable).toBe(1);
  });

  it("lines longer than one read are read whole, wherever the reads fall: a large file's tail, its rest, a search", async () => {
    // A large file (its tail indexed first) whose tail starts inside a line of several reads,
    // lines longer than one read before it, and short lines between them.
    const long = (n: number, bytes: number) => `ERROR long ${n} ${"y".repeat(bytes)} end ${n}`;
    const sizes = [READ_BYTES + 7, 3 * READ_BYTES + 11, READ_BYTES - 3, 2 * READ_BYTES];
    const list: LogLine[] = [];
    for (let i = 0; i < 3000; i++) list.push(at(NOW + i, `INFO short ${i}`));
    sizes.forEach((bytes, n) => {
      list.push(at(NOW + 3000 + n, long(n, bytes)));
      for (let i = 0; i < 500; i++) list.push(at(NOW + 3000 + n, `INFO after ${n} ${i}`));
    });
    const text = lines(list, TEXT_UTC);
    // The tail's first byte falls in the last long line, a read and more from its end.
    const lastLong = text.lastIndexOf("ERROR long 3");
    const tail = text.slice(0, text.indexOf("\n", lastLong) + 1);
    const after = text.slice(tail.length, tail.length + TAIL_BYTES - 2 * READ_BYTES + 5);
    const path = write(tail + after.slice(0, after.lastIndexOf("\n") + 1));
    expect(statSync(path).size).toBeGreaterThan(2 * TAIL_BYTES);
    const o = await open([path]);
    const got = events(o.log) as LogLine[];
    const want = lines(list, TEXT_UTC).slice(0, statSync(path).size).split("\n").length - 1;
    expect(got.length).toBe(want);
    const longs = got.filter((e) => e.content.startsWith("ERROR long"));
    expect(longs.map((e) => e.content)).toEqual(sizes.map((bytes, n) => long(n, bytes)));
    expect(o.log.summary().unreadable).toBe(0);
    const found = await o.log.search(compilePattern("^error long [0-9] y"));
    expect(found.rows.length).toBe(sizes.length);
  });

  it("a file without a newline at its end keeps its last line", async () => {
    const o = await open([write("[replica 1/3] a\n[replica 1/3] last")]);
    expect(events(o.log).map((e) => e.kind === "line" && e.content)).toEqual(["a", "last"]);
  });

  it("a .gz that is cut short keeps what it held and says so", async () => {
    const whole = gzipSync(lines([at(NOW, "one"), at(NOW + 1, "two")], JSON_OUT));
    const o = await open([write(whole.subarray(0, whole.length - 8))]);
    expect(events(o.log).map((e) => e.kind === "line" && e.content)).toEqual(["one", "two"]);
    expect(o.log.summary().notes.join("\n")).toMatch(/could not be read to its end/);
  });
});

describe("a large file", () => {
  const count = Math.ceil((TAIL_BYTES * 5) / 120);
  const list = Array.from({ length: count }, (_, i) =>
    at(NOW + i, `${i % 97 === 0 ? "ERROR" : "INFO"} line ${i} ${"·".repeat(40)}`, (i % 3) + 1),
  );
  const path = write(lines(list, JSON_OUT), "large.ndjson");

  it("shows its newest lines first, then all of them, the rows it showed keeping their ids", async () => {
    const o = await openSavedLogs([path]);
    opened.push(o);
    const first = o.log.size();
    expect(first).toBeGreaterThan(1000);
    expect(first).toBeLessThan(count);
    const newest = o.log.at(first - 1);
    expect(newest?.event).toMatchObject({ content: list[count - 1]?.content });
    expect(o.log.summary().complete).toBe(false);
    let notified = 0;
    o.log.subscribe(() => notified++);
    await o.indexed;
    expect(notified).toBeGreaterThan(0);
    expect(o.log.size()).toBe(count);
    expect(o.log.summary().complete).toBe(true);
    expect(o.log.indexOfId(newest?.id ?? 0)).toBe(count - 1);
    expect(o.log.at(0)?.event).toMatchObject({ content: list[0]?.content });
    const mid = o.log.at(12_345);
    expect(o.log.indexOfId(mid?.id ?? 0)).toBe(12_345);
    // A row read twice is the same object (the dashboard caches per line).
    expect(o.log.at(12_345)?.event).toBe(mid?.event);
  });

  it("searches every line's content, as the filters read it", async () => {
    const o = await open([path]);
    const found = await o.log.search(compilePattern("^error line"));
    const want = list.flatMap((e, i) => (/^error line/i.test(e.content) ? [i] : []));
    expect([...found.rows]).toEqual(want);
    expect(found.version).toBe(o.log.getVersion());
    const none = await o.log.search(compilePattern("nothing like this"));
    expect(none.rows.length).toBe(0);
  });

  it("closed before or while its start is indexed (q on the first screen), reads no closed descriptor", async () => {
    let draw = () => {};
    const drawn = new Promise<void>((resolve) => {
      draw = resolve;
    });
    const before = await openSavedLogs([path], { indexFrom: drawn });
    before.close();
    draw();
    await expect(before.indexed).resolves.toBeUndefined();
    // Indexing begins at once, a piece, then a breath: closed in it.
    const during = await openSavedLogs([path]);
    during.close();
    await expect(during.indexed).resolves.toBeUndefined();
  });

  it("keeps at most maxLines, the newest, counting the rest as evicted", async () => {
    const o = await open([path], { limits: { maxLines: 1000, maxHeldBytes: 1 << 30 } });
    expect(o.log.size()).toBeLessThanOrEqual(1000);
    expect(o.log.evicted() + o.log.size()).toBe(count);
    expect(o.log.at(o.log.size() - 1)?.event).toMatchObject({ content: list[count - 1]?.content });
  });
});

describe("search", () => {
  const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  it("finds exactly the lines whose content, as decoded, matches: escapes, unicode, any format", async () => {
    await fc.assert(
      fc.asyncProperty(
        eventList,
        fc.constantFrom(JSON_OUT, TEXT_UTC, TEXT_BARE),
        fc.nat(),
        async (list, look, pick) => {
          const o = await open([write(lines(list, look))]);
          const all = events(o.log);
          const contents = all.flatMap((e) =>
            e.kind === "line" && e.content !== "" ? [e.content] : [],
          );
          const chosen = contents[pick % Math.max(1, contents.length)] ?? "x";
          const needle = chosen.slice(0, 3);
          const pattern = compilePattern(literal(needle));
          const found = await o.log.search(pattern);
          const want = all.flatMap((e, i) =>
            e.kind === "line" && pattern.test(e.content) ? [i] : [],
          );
          expect([...found.rows]).toEqual(want);
          o.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a literal finds what RE2 finds where the bytes spell it otherwise: JSON escapes, either case, the Kelvin sign and long s", async () => {
    const contents = [
      "upstream timeout at 1",
      "UPSTREAM Timeout at 2",
      "up\u0073tream timeout, written with an escape",
      "up\u017ftream timeout: long s",
      "upstream timeou\u212a? no: t is not k",
      "\u212aey path/to/KEY",
      'a "quoted" word and a/b',
      "neither here",
      `${"x".repeat(70_000)} upstream timeout past what the filters read`,
    ];
    const list = contents.map((c, i) => at(NOW + i, c));
    for (const look of [JSON_OUT, TEXT_UTC]) {
      // NDJSON with escapes as JSON.stringify writes them, and with every character escaped.
      const written = lines(list, look);
      const escaped =
        look === JSON_OUT
          ? written.replace(/"content":"((?:[^"\\]|\\.)*)"/g, (_m, body: string) => {
              const text = JSON.parse(`"${body}"`) as string;
              const all = [...text].map((ch) =>
                ch.length === 1 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : ch,
              );
              return `"content":"${all.join("")}"`;
            })
          : written;
      for (const text of [written, escaped]) {
        const o = await open([write(text)]);
        const all = events(o.log);
        for (const source of [
          "upstream timeout",
          "UPSTREAM",
          "key",
          "s",
          '"quoted"',
          "a/b",
          "x u",
        ]) {
          const hits = await searchAsContent(o.log, all, source, look.output, 65_536);
          if (source === "upstream timeout") expect(hits).toBe(4);
          if (source === "key") expect(hits).toBe(1);
        }
        o.close();
      }
    }
  });

  it("a literal in a line's bytes but not whole in its content (its label, its time, across its start) is no match", async () => {
    const contents = [
      "upstream timeout first",
      "UpStReAm TIMEOUT in mixed case",
      "the replica 1/3 said so",
      "nothing of it",
      "Z is not in the content",
      "ends with upstream",
      "caf\u00e9 upstream timeout after a letter beyond ASCII",
    ];
    const list = contents.map((c, i) => at(NOW + i, c, (i % 3) + 1));
    for (const look of [JSON_OUT, TEXT_UTC, TEXT_BARE]) {
      const o = await open([write(lines(list, look))]);
      const all = events(o.log);
      for (const source of [
        "upstream timeout",
        "UPSTREAM",
        "replica 1",
        " upstream",
        "Z ",
        "Z",
        "upstream\\n",
        "upstream$",
        '"content":"upstream',
        "\u00e9 upstream",
      ]) {
        const hits = await searchAsContent(o.log, all, source, look.output);
        if (source === "replica 1") expect(hits).toBe(1);
        if (source === " upstream") expect(hits).toBe(2);
      }
      o.close();
    }
  });

  it("reads a line with bytes that are not UTF-8 as the line shows", async () => {
    const path = write(
      Buffer.concat([
        Buffer.from("[replica 1/3] before\n[replica \xff1/3] caf"),
        Buffer.from([0xc3]),
        Buffer.from(" bad \xe9 end\n[replica 1/3] after\n", "latin1"),
      ]),
    );
    const o = await open([path]);
    const all = events(o.log) as LogLine[];
    for (const probe of ["bad", "end$", "after", "\\ufffd"].map(compilePattern)) {
      const found = await o.log.search(probe);
      expect([...found.rows]).toEqual(all.flatMap((e, i) => (probe.test(e.content) ? [i] : [])));
    }
  });
});

describe("the filter core reads a saved log as it reads the dashboard's", () => {
  it("keeps the same lines of the corpus under a level, an include and context", async () => {
    const order = Array.from({ length: 200 }, (_, i) => (i * 7) % 3);
    const list = interleave(order).map((l, i) => logLine(l.replica, l.content, NOW + i * 10));
    const o = await open([write(lines(list, JSON_OUT))]);
    const store = new LogStore();
    store.append(list);
    for (const spec of [
      { minLevel: "error" as const },
      { include: [[compilePattern("timeout|refused")]] },
      { minLevel: "warn" as const, before: 1, after: 2 },
    ]) {
      const kept = (source: typeof store | SavedLog, levels?: SavedLog) => {
        const filter = new IndexedFilter(
          new LineFilter({ ...spec, ...(levels ? { levelOfLine: levels.levelOfLine } : {}) }),
        );
        return Array.from({ length: source.size() }, (_, i) => i).filter((i) =>
          filter.shows(source, i),
        );
      };
      expect(kept(o.log, o.log)).toEqual(kept(store));
    }
    expect(BURSTS.length).toBeGreaterThan(10);
  });
});

describe("streams", () => {
  function fifo(): string {
    const path = join(dir, `fifo${++files}`);
    execFileSync("mkfifo", [path]);
    return path;
  }

  /** Waits for the log to hold `n` rows (each change is announced). */
  function rows(log: SavedLog, n: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (log.size() >= n) {
          stop();
          resolve();
        }
      };
      const stop = log.subscribe(check);
      check();
    });
  }

  it("a FIFO named is followed as lines come, across writers", async () => {
    const path = fifo();
    const o = await openSavedLogs([path]);
    opened.push(o);
    const w1 = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    writeSync(w1, lines([at(NOW, "first")], JSON_OUT));
    closeSync(w1);
    await rows(o.log, 1);
    const w2 = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    writeSync(w2, lines([at(NOW + 1, "second"), at(NOW + 2, "third")], JSON_OUT));
    closeSync(w2);
    await rows(o.log, 3);
    expect(events(o.log).map((e) => e.kind === "line" && e.content)).toEqual([
      "first",
      "second",
      "third",
    ]);
  });

  it("- reads standard input as it grows (a pipe), and says when it ended", async () => {
    const path = fifo();
    const rd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const wr = openSync(path, constants.O_WRONLY);
    const stream = new Socket({ fd: rd, readable: true, writable: false });
    const o = await openSavedLogs(["-"], { stdin: { fd: rd, stream } });
    opened.push(o);
    writeSync(wr, `${formatEvent(at(NOW, "one"), TEXT_UTC)}\n`);
    await rows(o.log, 1);
    writeSync(wr, `${formatEvent(at(NOW + 5, "two"), TEXT_UTC)}\n[replica 1/3] no newline`);
    await rows(o.log, 2);
    closeSync(wr);
    await rows(o.log, 3);
    expect(events(o.log).map((e) => e.kind === "line" && e.content)).toEqual([
      "one",
      "two",
      "no newline",
    ]);
    expect(o.log.summary().notes).toEqual(["standard input ended"]);
  });

  it("- that is a file redirected in is read as a file: its end first, by position", async () => {
    const list = Array.from({ length: 30_000 }, (_, i) =>
      at(NOW + i, `line ${i} ${"-".repeat(60)}`),
    );
    const fd = openSync(write(lines(list, JSON_OUT)), "r");
    const o = await openSavedLogs(["-"], { stdin: { fd, stream: new Socket() } });
    opened.push(o);
    expect(o.log.size()).toBeLessThan(list.length);
    expect(o.log.at(o.log.size() - 1)?.event).toMatchObject({ content: list.at(-1)?.content });
    await o.indexed;
    expect(o.log.size()).toBe(list.length);
    expect(o.log.summary().files[0]?.name).toBe("standard input");
    closeSync(fd);
  });

  it("a stream over its byte cap lets its oldest lines go, counted as evicted", async () => {
    const path = fifo();
    const o = await openSavedLogs([path], { limits: { maxLines: 1e6, maxHeldBytes: 64 * 1024 } });
    opened.push(o);
    const w = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    const many = Array.from({ length: 3000 }, (_, i) => at(NOW + i, `line ${i} ${"=".repeat(60)}`));
    const seen = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (o.log.evicted() + o.log.size() < n) return;
          stop();
          resolve();
        };
        const stop = o.log.subscribe(check);
        check();
      });
    // A pipe holds 64 KiB: each write waits for the one before to be read.
    for (let k = 0; k < many.length; k += 200) {
      writeSync(w, lines(many.slice(k, k + 200), JSON_OUT));
      await seen(k + 200);
    }
    closeSync(w);
    expect(o.log.size()).toBeLessThan(3000);
    expect(o.log.at(o.log.size() - 1)?.event).toMatchObject({ content: many[2999]?.content });
    expect(o.log.at(0)?.event).toMatchObject({ content: many[o.log.evicted()]?.content });
  });

  it("--follow reads a file further as it is written, its partial last line when whole", async () => {
    const path = write(lines([at(NOW, "one")], JSON_OUT));
    const o = await open([path], { follow: true, pollMs: 20 });
    expect(o.log.size()).toBe(1);
    const two = formatEvent(at(NOW + 1, "two"), JSON_OUT);
    appendFileSync(path, two.slice(0, 10));
    appendFileSync(
      path,
      `${two.slice(10)}\n${formatEvent(at(NOW - 5, "older, late"), JSON_OUT)}\n`,
    );
    await rows(o.log, 3);
    expect(events(o.log).map((e) => e.kind === "line" && [e.content, e.late])).toEqual([
      ["older, late", true],
      ["one", false],
      ["two", false],
    ]);
  });

  it("one file in time order is read as it is, and stays right as lines come in order, late and in order again", async () => {
    const path = write(lines([at(NOW, "a"), at(NOW + 10, "b"), untimed("b2")], TEXT_UTC));
    const o = await open([path], { follow: true, pollMs: 20 });
    const contents = () => events(o.log).map((e) => (e.kind === "line" ? e.content : e.kind));
    expect(contents()).toEqual(["a", "b", "b2"]);
    const idOfB = o.log.at(1)?.id as number;
    appendFileSync(path, lines([at(NOW + 20, "c")], TEXT_UTC));
    await rows(o.log, 4);
    expect(contents()).toEqual(["a", "b", "b2", "c"]);
    expect(o.log.indexOfId(idOfB)).toBe(1);
    expect(o.log.indexOfId(o.log.at(3)?.id as number)).toBe(3);
    expect([...o.log.searchNow(compilePattern("^b|c")).rows]).toEqual([1, 2, 3]);
    expect(o.log.firstAtOrAfter(NOW + 15)).toBe(3);
    expect(o.log.keyAt(3)).toBe(NOW + 20);
    appendFileSync(path, lines([at(NOW + 5, "late"), at(NOW + 30, "d")], TEXT_UTC));
    await rows(o.log, 6);
    expect(contents()).toEqual(["a", "late", "b", "b2", "c", "d"]);
    expect(o.log.indexOfId(idOfB)).toBe(2);
    expect([...o.log.searchNow(compilePattern("^b|c|late")).rows]).toEqual([1, 2, 3, 4]);
    expect(o.log.kindAt(1).late).toBe(true);
    expect(o.log.firstAtOrAfter(NOW + 25)).toBe(5);
  });
});

describe("bounded from the first byte", () => {
  const MiB = 1024 * 1024;

  /** A stream to read as standard input: a FIFO's descriptor, the bytes given by the test. */
  function piped() {
    const path = join(dir, `pipe${++files}`);
    execFileSync("mkfifo", [path]);
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stream = new PassThrough();
    const send = async (bytes: Buffer | string) => {
      if (!stream.write(bytes)) await once(stream, "drain");
    };
    return { stdin: { fd, stream }, send, end: () => stream.end(), close: () => closeSync(fd) };
  }

  function ended(log: SavedLog): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!log.summary().files.every((f) => f.done)) return;
        stop();
        resolve();
      };
      const stop = log.subscribe(check);
      check();
    });
  }

  it("an NDJSON file whose first line is over 64 KiB opens as NDJSON, every line read", async () => {
    const list = [
      at(NOW, "x".repeat(100_000)),
      ...Array.from({ length: 20 }, (_, i) => at(NOW + i + 1, `line ${i}`)),
    ];
    const o = await open([write(lines(list, JSON_OUT))]);
    expect(o.log.summary().files.map((f) => [f.format, f.lines, f.unreadable])).toEqual([
      ["ndjson", 21, 0],
    ]);
    expect(o.log.at(0)?.event).toMatchObject({ replicaLabel: "replica 1/3" });
  });

  it("a large file's header over 64 KiB (a bundle's 1,000 votes) is read, its lines as NDJSON", async () => {
    const votes = Array.from({ length: 1000 }, (_, i) => ({
      activityId: `act-${i}`,
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      fingerprint: `sha256:${"ab".repeat(32)}`,
      decision: "approve",
      time: "2026-11-27T05:01:00Z",
    }));
    const header = JSON.stringify({ tvcwatch: { deploymentId: "dep-1", bundle: true, votes } });
    expect(header.length).toBeGreaterThan(64 * 1024);
    const count = Math.ceil((TAIL_BYTES * 3) / 100);
    const list = Array.from({ length: count }, (_, i) => at(NOW + i, `line ${i}`));
    const o = await open([write(`${header}\n${lines(list, JSON_OUT)}`)]);
    expect(o.log.header()?.votes?.length).toBe(1000);
    expect(o.log.summary().files.map((f) => [f.format, f.lines, f.unreadable])).toEqual([
      ["ndjson", count, 0],
    ]);
  });

  it("a pipe whose first line is 70 KB shows the 1,000 lines after it, as NDJSON", async () => {
    const p = piped();
    const o = await openSavedLogs(["-"], { stdin: p.stdin });
    opened.push(o);
    await p.send(`${"y".repeat(70_000)}\n`);
    // Shown as it came, before the lines that tell the format.
    await new Promise<void>((resolve) => {
      const stop = o.log.subscribe(() => {
        if (o.log.size() < 1) return;
        stop();
        resolve();
      });
    });
    expect(o.log.summary().files[0]?.format).toBe("plain");
    const list = Array.from({ length: 1000 }, (_, i) => at(NOW + i, `good ${i}`, (i % 3) + 1));
    await p.send(lines(list, JSON_OUT));
    p.end();
    await ended(o.log);
    expect(o.log.summary().files.map((f) => [f.format, f.lines, f.unreadable])).toEqual([
      ["ndjson", 1001, 1],
    ]);
    expect(o.log.at(1000)?.event).toMatchObject({
      replicaLabel: "replica 1/3",
      content: "good 999",
    });
    p.close();
  });

  it("a stream with no newline holds at most one line's cap, cuts it, says so, and reads on", async () => {
    const p = piped();
    const o = await openSavedLogs(["-"], { stdin: p.stdin });
    opened.push(o);
    const zeros = Buffer.alloc(MiB);
    let held = 0;
    for (let k = 0; k < 48; k++) {
      await p.send(zeros);
      held = Math.max(held, o.log.summary().files[0]?.heldBytes ?? Number.POSITIVE_INFINITY);
    }
    await p.send(`\n${lines([at(NOW, "after the zeros")], JSON_OUT)}`);
    p.end();
    await ended(o.log);
    const [file] = o.log.summary().files;
    expect(held).toBeLessThanOrEqual(MAX_LINE_BYTES + 2 * MiB);
    expect(file).toMatchObject({ lines: 2, cut: 1, passedOver: 48 * MiB - MAX_LINE_BYTES });
    expect(o.log.at(1)?.event).toMatchObject({ content: "after the zeros" });
    expect(o.log.summary().notes.join("\n")).toMatch(
      /^standard input: a line longer than 4 MiB: its first 4 MiB kept, the rest of it not read/m,
    );
    p.close();
  });

  it("a stream that ends in the middle of a line says its torn last line", async () => {
    const p = piped();
    const o = await openSavedLogs(["-"], { stdin: p.stdin });
    opened.push(o);
    await p.send(`${lines([at(NOW, "whole")], JSON_OUT)}{"replicaLabel":"replica 1/3","cont`);
    p.end();
    await ended(o.log);
    expect(o.log.summary().notes).toEqual([
      "standard input ended",
      "standard input ended in the middle of a line: its last line (35 B, without its newline) is a torn line, shown as text",
    ]);
    p.close();
  });

  it("a .gz of 64 MiB of zeros is read through, held bounded, what was not read counted", async () => {
    const gz = gzipSync(
      Buffer.concat([
        Buffer.alloc(64 * MiB),
        Buffer.from(`\n${lines([at(NOW, "end")], JSON_OUT)}`),
      ]),
    );
    const o = await open([write(gz, "zeros.gz")]);
    const [file] = o.log.summary().files;
    expect(file).toMatchObject({ lines: 2, cut: 1, passedOver: 64 * MiB - MAX_LINE_BYTES });
    expect(file?.heldBytes).toBeLessThanOrEqual(MAX_LINE_BYTES + 2 * MiB);
  });
});

describe("the same file named twice", () => {
  it("by another path, a symlink or standard input redirected from it, is read once and said", async () => {
    const list = [at(NOW, "ERROR one"), at(NOW + 1, "two", 2), at(NOW + 2, "ERROR three", 3)];
    const path = write(lines(list, JSON_OUT), "twice.ndjson");
    const link = join(dir, "twice-link.ndjson");
    symlinkSync(path, link);
    const other = write(lines([at(NOW + 5, "other")], JSON_OUT));
    const fd = openSync(path, "r");
    const o = await open([path, join(dir, ".", "twice.ndjson"), other, link, "-"], {
      stdin: { fd, stream: new Socket() },
    });
    expect(o.log.size()).toBe(4);
    expect(o.log.summary().files.map((f) => [f.name, f.aliases])).toEqual([
      [path, [join(dir, ".", "twice.ndjson"), link, "standard input"]],
      [other, []],
    ]);
    expect(events(o.log).filter((e) => e.kind === "line" && /ERROR/.test(e.content)).length).toBe(
      2,
    );
    closeSync(fd);
  });
});

describe("--follow follows the name, as tail -F does", () => {
  /** Waits until `check` holds, looked at each time the log changes. */
  function until(log: SavedLog, check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const look = () => {
        if (!check()) return;
        stop();
        resolve();
      };
      const stop = log.subscribe(look);
      look();
    });
  }
  const contents = (log: SavedLog) => events(log).map((e) => (e.kind === "line" ? e.content : ""));
  const many = (from: number, n: number, word: string) =>
    Array.from({ length: n }, (_, i) => at(NOW + from + i, `${word} ${i}`));

  it("a file replaced (renamed away, a new one by its name) is read to its end, then the new one", async () => {
    const path = write(lines(many(0, 50, "old"), JSON_OUT), "rotated.ndjson");
    const o = await open([path], { follow: true, pollMs: 10 });
    expect(o.log.size()).toBe(50);
    renameSync(path, `${path}.1`);
    // Written to the old file after its rename: still its lines.
    appendFileSync(`${path}.1`, lines(many(50, 5, "old late"), JSON_OUT));
    writeFileSync(path, lines(many(100, 30, "new"), JSON_OUT));
    await until(o.log, () => o.log.size() === 85);
    expect(contents(o.log).slice(48, 57)).toEqual([
      "old 48",
      "old 49",
      "old late 0",
      "old late 1",
      "old late 2",
      "old late 3",
      "old late 4",
      "new 0",
      "new 1",
    ]);
    expect(o.log.summary().notes.join("\n")).toMatch(
      /rotated\.ndjson was replaced \(a new file has its name\): the new one is read from its start/,
    );
    // Written to the new one: followed.
    appendFileSync(path, lines(many(200, 2, "newer"), JSON_OUT));
    await until(o.log, () => o.log.size() === 87);
  });

  it("a file truncated and written again (longer than before) is said and read from its start", async () => {
    const path = write(lines(many(0, 100, "first"), JSON_OUT), "rewritten.ndjson");
    const o = await open([path], { follow: true, pollMs: 10 });
    expect(o.log.size()).toBe(100);
    writeFileSync(path, lines(many(1000, 150, "second"), JSON_OUT));
    await until(o.log, () => contents(o.log).includes("second 149"));
    expect(contents(o.log)).toEqual(many(1000, 150, "second").map((l) => l.content));
    expect(o.log.evicted()).toBe(100);
    // The range is the lines' there are now.
    expect(o.log.summary().from).toBe(NOW + 1000);
    expect(o.log.summary().notes.join("\n")).toMatch(
      /rewritten\.ndjson was (truncated|rewritten in place)[^\n]*: the 100 lines read before are let go, it is read again from its start/,
    );
  });

  it("a file truncated to less than was read: said, read from its start, a torn line said", async () => {
    const path = write(lines(many(0, 20, "before"), JSON_OUT), "cut.ndjson");
    const o = await open([path], { follow: true, pollMs: 10 });
    appendFileSync(path, '{"replicaLabel":"replica 1/3","content":"torn');
    // The partial line is seen (waiting for its newline) before the cut.
    const size = statSync(path).size;
    await waitFor(() => o.log.files[0]?.progress().total === size, "the partial line seen");
    truncateSync(path, 0);
    await until(o.log, () => o.log.summary().notes.some((n) => /truncated/.test(n)));
    appendFileSync(path, lines(many(100, 3, "after"), JSON_OUT));
    await until(o.log, () => o.log.size() === 3);
    expect(contents(o.log)).toEqual(["after 0", "after 1", "after 2"]);
    const notes = o.log.summary().notes.join("\n");
    expect(notes).toMatch(
      /cut\.ndjson was truncated \(0 B, less than the [\d.]+ KiB read; the same file\)/,
    );
    expect(notes).toMatch(
      /its last line, without its newline \(45 B\), was cut away with it \(a torn line\)/,
    );
  });
});

describe("what is refused", () => {
  it.each([
    ["/dev/zero", /^log file \/dev\/zero is a character device, not a regular file$/],
    [dir, /^log file .* is a directory, not a regular file$/],
    [join(dir, "missing.ndjson"), /^log file .*missing\.ndjson does not exist$/],
  ])("%s", async (path, message) => {
    await expect(openSavedLogs([path])).rejects.toThrow(message);
  });

  it("a symlink loop, and a name given after a good one (nothing is left open)", async () => {
    const loop = join(dir, "loop");
    symlinkSync(loop, loop);
    await expect(openSavedLogs([write("[replica 1/3] ok\n"), loop])).rejects.toThrow(
      /is a symlink loop/,
    );
  });

  it("standard input that is a terminal, or named twice", async () => {
    const tty = Object.assign(new Socket(), { isTTY: true });
    await expect(
      openSavedLogs(["-"], { stdin: { fd: openSync("/dev/null", "r"), stream: tty } }),
    ).rejects.toThrow(/^standard input is a terminal: pipe lines into it/);
    await expect(openSavedLogs(["-", "-"])).rejects.toThrow(/named twice/);
    await expect(openSavedLogs(Array.from({ length: 257 }, () => "x"))).rejects.toThrow(
      /^257 files named: tvcwatch reads at most 256 at once$/,
    );
  });

  it("standard input that is a device", async () => {
    const fd = openSync("/dev/zero", "r");
    await expect(openSavedLogs(["-"], { stdin: { fd, stream: new Socket() } })).rejects.toThrow(
      /^standard input is a character device, not a regular file or a pipe/,
    );
    closeSync(fd);
  });
});

describe("a gap", () => {
  it("reads back as a gap marker in both formats", async () => {
    const gap: GapMarker = {
      kind: "gap",
      from: NOW,
      to: NOW + 8000,
      reason: "r",
      sortKey: NOW + 8000,
    };
    for (const look of [JSON_OUT, TEXT_UTC]) {
      const o = await open([write(lines([at(NOW - 1, "before"), gap], look))]);
      expect(events(o.log)[1]).toEqual(gap);
      expect(o.log.kindAt(1)).toMatchObject({ gap: true });
    }
    mkdirSync(join(dir, "sub"), { recursive: true });
  });
});

describe("the index's columns by row", () => {
  it("rowColumns reads what keyAt, flagsAt and streamAt say of each row: one file in order, a late line, several files", async () => {
    const inOrder = write(
      lines([at(NOW + 1000, "a"), untimed("a frame"), at(NOW + 3000, "ERROR b", 2)], TEXT_UTC),
    );
    const late = write(
      lines([at(NOW + 2000, "c"), at(NOW + 500, "d, late", 3), at(NOW + 4000, "e")], JSON_OUT),
    );
    const gap: GapMarker = {
      kind: "gap",
      from: NOW,
      to: NOW + 2500,
      reason: "r",
      sortKey: NOW + 2500,
    };
    const gapped = write(lines([at(NOW + 2400, "f", 2), gap], TEXT_UTC));
    for (const paths of [[inOrder], [late], [inOrder, late, gapped]]) {
      const o = await open(paths);
      const size = o.log.size();
      // Rows [1, size): not from the first row.
      const keys = new Float64Array(size);
      const flags = new Uint8Array(size);
      const streams = new Uint32Array(size);
      o.log.rowColumns(1, size, keys, flags, streams);
      for (let row = 1; row < size; row++) {
        expect([keys[row - 1], flags[row - 1], streams[row - 1]]).toEqual([
          o.log.keyAt(row),
          o.log.flagsAt(row),
          o.log.streamAt(row),
        ]);
      }
    }
  });
});
