import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leadingTime } from "../../../src/logs/formats/plain-line.js";
import { timestampSortKey } from "../../../src/logs/model/log-line.js";
import {
  decodeLine,
  GAP,
  HEADER,
  LINE,
  levelCode,
  lineContent,
  newLineScan,
  type SavedFormat,
  SKIP,
  scanLine,
  TextReadCache,
} from "../../../src/logs/saved/saved-line.js";
import { StreamTable } from "../../../src/logs/saved/stream-table.js";
import { levelOf } from "../../../src/text/log-level.js";
import { BURSTS } from "../corpus.js";

const T = "2026-11-18T11:06:40.000000005Z";
const KEY = timestampSortKey(1_795_000_000, 5);

function scan(text: string, format: SavedFormat) {
  const streams = new StreamTable();
  const out = newLineScan();
  const buf = Buffer.from(`xx${text}\nyy`);
  scanLine(buf, 2, 2 + Buffer.byteLength(text), format, streams, out);
  const stream = streams.get(out.stream);
  return { ...out, label: stream?.replicaLabel, deploymentId: stream?.deploymentId };
}

describe("NDJSON as tail -o json prints it", () => {
  const line = (fields: string) => `{"replicaLabel":"replica 2/3",${fields}}`;
  it.each([
    [
      "with time and level",
      line(`"ts":{"seconds":"1795000000","nanos":"5"},"content":"hi","time":"${T}","level":"warn"`),
      { what: LINE, readable: true, timed: true, key: KEY, level: 4, label: "replica 2/3" },
    ],
    [
      "without time and level (read from the content)",
      line('"ts":{"seconds":"1795000000","nanos":"5"},"content":"ERROR boom"'),
      { what: LINE, timed: true, key: KEY, level: 5 },
    ],
    [
      "level null: none stated",
      line('"ts":null,"content":"ERROR in the text","time":null,"level":null'),
      { what: LINE, timed: false, level: 0 },
    ],
    [
      "no ts, a time only",
      line(`"content":"x","time":"${T}"`),
      { what: LINE, timed: true, key: KEY },
    ],
    [
      "with a deployment",
      `{"deploymentId":"9463b1f2","replicaLabel":"replica 1/2","ts":null,"content":"x"}`,
      { what: LINE, deploymentId: "9463b1f2", label: "replica 1/2" },
    ],
    [
      "escapes in the label and fields it does not know",
      line('"ts":null,"content":"a\\"b","version":"0.8.0","extra":{"a":[1,{"b":"}"}]}'),
      { what: LINE, readable: true, label: "replica 2/3" },
    ],
    [
      "a gap",
      `{"event":"gap","from":"2026-11-18T11:06:40.000Z","to":"2026-11-18T11:06:48.500Z","reason":"r","time":"2026-11-18T11:06:48.500000000Z","level":null}`,
      { what: GAP, timed: true, key: 1_795_000_008_500 },
    ],
    [
      "the header S writes",
      `{"tvcwatch":{"deploymentId":"d","filters":{"include":["x"]}}}`,
      { what: HEADER },
    ],
    ["a blank line", "   ", { what: SKIP }],
    [
      "JSON of another shape: kept as text",
      `{"msg":"ERROR other app"}`,
      { what: LINE, readable: false, level: 0, label: "" },
    ],
    [
      "broken JSON: kept as text",
      `{"replicaLabel":"r","content":"x`,
      { what: LINE, readable: false },
    ],
  ])("%s", (_, text, want) => {
    expect(scan(text, "ndjson")).toMatchObject(want);
  });

  it("decodes a line exactly as tail wrote it: ts as received, content with its escapes", () => {
    const read = decodeLine(
      line(
        '"ts":{"seconds":"1795000000","nanos":"0005"},"content":"a\\u001b[2Jb\\n","level":"info"',
      ),
      "ndjson",
      false,
    );
    expect(read).toMatchObject({
      kind: "line",
      level: "info",
      line: {
        replicaLabel: "replica 2/3",
        seconds: "1795000000",
        nanos: "0005",
        content: "a\u001b[2Jb\n",
      },
    });
  });

  it("finds a line's content without reading the rest", () => {
    const text = line('"ts":null,"content":"caf\\u00e9 \\"q\\"","level":null');
    const buf = Buffer.from(text);
    expect(lineContent(buf, 0, buf.length, "ndjson", false)).toBe('café "q"');
    const gap = Buffer.from(`{"event":"gap","from":"${T}","to":"${T}","reason":"r"}`);
    expect(lineContent(gap, 0, gap.length, "ndjson", false)).toBeUndefined();
  });
});

describe("text as tail prints it", () => {
  it.each([
    ["[replica 2/3] ERROR boom", { what: LINE, timed: false, level: 5, label: "replica 2/3" }],
    [`${T} [replica 2/3] hi`, { what: LINE, timed: true, key: KEY, label: "replica 2/3" }],
    ["2026-11-18T12:06:40.000000005+01:00 [replica 1/3] hi", { what: LINE, timed: true, key: KEY }],
    [`${"-".padEnd(T.length)} [replica 2/3]     at f (x.js:1:2)`, { what: LINE, timed: false }],
    [
      "[9463b1 replica 2/3] hi",
      { what: LINE, label: "9463b1 replica 2/3", deploymentId: "9463b1" },
    ],
    [
      "[0c7e55 0.8.0 canary replica 1/2] hi",
      { what: LINE, label: "0c7e55 0.8.0 canary replica 1/2", deploymentId: "0c7e55" },
    ],
    [
      "--- gap: no answer (2026-11-18T11:06:40.000Z to 2026-11-18T11:06:48.500Z) ---",
      { what: GAP, key: 1_795_000_008_500 },
    ],
    ["--", { what: SKIP }],
    ["# tvcwatch · deployment dep-1 · filters: none · 3 lines", { what: HEADER }],
    ["a line of something else", { what: LINE, readable: false, label: "" }],
  ])("%s", (text, want) => {
    expect(scan(text, "text")).toMatchObject(want);
  });

  it("keeps the content after the label whole, an empty one too", () => {
    expect(decodeLine(`${T} [replica 2/3] a ] b [c]`, "text", false)).toMatchObject({
      line: { replicaLabel: "replica 2/3", content: "a ] b [c]", seconds: "1795000000", nanos: 5 },
    });
    expect(decodeLine("[replica 2/3] ", "text", false)).toMatchObject({ line: { content: "" } });
  });
});

describe("tail text read from its bytes", () => {
  /** What the long way (the line decoded whole, then read) makes of a line, as a scan says it. */
  function longWay(bytes: Buffer) {
    const text = bytes.toString("utf8");
    const read = decodeLine(text, "text", false);
    if (read.kind !== "line" || read.line.replicaLabel === "") return undefined;
    const line = read.line;
    const whole = !text.includes("\ufffd");
    return {
      timed: line.seconds !== undefined,
      key: line.seconds !== undefined ? line.sortKey : 0,
      level: levelCode(levelOf(line.content)),
      label: line.replicaLabel,
      deploymentId: line.deploymentId,
      contentFrom: whole ? bytes.length - Buffer.byteLength(line.content) : -1,
      contentAfter: whole ? 0 : -1,
    };
  }

  /** What a scan read of a line, in longWay's terms. */
  function readOf(out: ReturnType<typeof newLineScan>, streams: StreamTable) {
    const stream = streams.get(out.stream);
    return {
      timed: out.timed,
      key: out.key,
      level: out.level,
      label: stream?.replicaLabel,
      deploymentId: stream?.deploymentId,
      contentFrom: out.contentFrom,
      contentAfter: out.contentAfter,
    };
  }

  const lines: (string | Buffer)[] = [
    `${T} [replica 2/3] ERROR boom`,
    `${T} [replica 2/3] a ] b [c] ] d`,
    `${T} [replica 2/3] `,
    "2026-11-18T12:06:40.000000005+01:00 [replica 1/3] WARN hi",
    `${"-".padEnd(T.length)} [replica 2/3]     at f (x.js:1:2)`,
    "- [replica 1/3] x",
    "[replica 3/3] level=error msg=x",
    "[9463b1 replica 2/3] hi",
    "[0c7e55 0.8.0 canary replica 1/2] hi",
    `${T} [réplica ✓ 1/2] ünïcode ✓ content`,
    `${T} [replica 2/3]x no space after the label`,
    `${T} [replica 2/3] {"level":"error","msg":"json content"}`,
    `${T}  [replica 2/3] two spaces`,
    "2026-13-18T11:06:40Z [replica 2/3] no such month",
    `${T}[replica 2/3] no space after the time`,
    `${T} [] an empty label`,
    `${T} [replica 2/3]`,
    "[replica 2/3] ]",
    Buffer.concat([
      Buffer.from(`${T} [replica 2/3] bad `),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(" bytes"),
    ]),
    Buffer.concat([
      Buffer.from(`${T} [repl`),
      Buffer.from([0xc3]),
      Buffer.from("ica 2/3] bad label"),
    ]),
    `${T} [replica 2/3] a literal \ufffd`,
  ];

  it("reads line after line with one reader's cache as the long way does (times, labels, contents)", () => {
    // Times of the usual 30 bytes and of other shapes; labels met again and again (the cache
    // knows them by their bytes), some alike but for their end or their length, some holding `]`.
    const time = fc.constantFrom(
      T,
      "2026-11-18T11:06:41.000000006Z",
      "2026-11-18 11:06:40.000000005Z",
      "2026-11-18T11:06:40.00000000Z",
      "2026-11-18T11:06:40.0000000005",
      "2026-11-18T11:06:40.123Z",
      "2026-11-18T11:06:40Z",
      "2026-11-18T11:06:40.000000005+01:00",
      "2026-11-18T11:06:4x.000000005Z",
      "2026-13-18T11:06:40.000000005Z",
      "-".padEnd(T.length),
      "-",
      "",
    );
    const label = fc.constantFrom(
      "replica 1/3",
      "replica 2/3",
      "replica 12/3",
      "replica 1/",
      "a]",
      "a",
      "]",
      "",
      "9463b1 replica 2/3",
      "réplica 1/3",
      "replica 1/3] x",
    );
    const content = fc.constantFrom(
      ...BURSTS.flat(),
      "",
      "] tail",
      " [x] ] y",
      "naïve café ERROR",
      "全角テキスト WARN 署名",
      "\u00a0error: x",
      '{"level":"warn","msg":"café"}',
      "a literal \ufffd",
    );
    const gap = fc.constantFrom(" ", "", "  ");
    const line = fc
      .tuple(time, gap, label, fc.constantFrom("] ", "]", "]] "), content)
      .map(([t, g, l, close, c]) => `${t}${t === "" ? "" : g}[${l}${close}${c}`);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (texts) => {
        const streams = new StreamTable();
        const out = newLineScan();
        const cache = new TextReadCache();
        const buf = Buffer.from(`${texts.join("\n")}\n`);
        let s = 0;
        for (const text of texts) {
          const e = s + Buffer.byteLength(text);
          scanLine(buf, s, e, "text", streams, out, undefined, cache);
          const want = longWay(buf.subarray(s, e));
          if (want === undefined) {
            expect(out.readable && out.stream !== 0).toBe(false);
          } else {
            expect(readOf(out, streams)).toEqual(want);
          }
          s = e + 1;
        }
      }),
      { numRuns: 2_000, seed: 4107 },
    );
  });

  it.each(lines.map((l) => [l.toString(), l]))("%s", (_, line) => {
    const bytes = typeof line === "string" ? Buffer.from(line) : line;
    const streams = new StreamTable();
    const out = newLineScan();
    const buf = Buffer.concat([Buffer.from("xx"), bytes, Buffer.from("\nyy")]);
    // Twice: the second time its label is known by its bytes.
    for (let k = 0; k < 2; k++) {
      scanLine(buf, 2, 2 + bytes.length, "text", streams, out);
      const want = longWay(bytes);
      if (want === undefined) {
        expect(out.readable && out.stream !== 0).toBe(false);
        continue;
      }
      expect(readOf(out, streams)).toEqual(want);
    }
  });
});

describe("any other text", () => {
  it("is one stream without a replica, placed at a leading RFC 3339 time", () => {
    expect(scan("plain words ERROR", "plain")).toMatchObject({
      what: LINE,
      readable: true,
      timed: false,
      level: 5,
      label: "",
    });
    expect(scan(`${T} started`, "plain")).toMatchObject({ timed: true, key: KEY });
    expect(decodeLine(`${T} started`, "plain", false)).toMatchObject({
      line: { content: `${T} started`, replicaLabel: "", seconds: "1795000000", nanos: 5 },
    });
    expect(leadingTime("2026-11-18 11:06:40Z, rest")).toEqual({ seconds: 1_795_000_000, nanos: 0 });
    expect(leadingTime("2026-11-18T11:06:40.1234567891Z x")).toBeUndefined();
  });

  it("drops a trailing CR", () => {
    expect(decodeLine("[replica 1/1] x\r".slice(0, -1), "text", false)).toMatchObject({
      line: { content: "x" },
    });
    expect(scan("[replica 1/1] x\r", "text")).toMatchObject({ readable: true });
  });
});
